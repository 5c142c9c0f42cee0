/**
 * Prompt constants for LLM query expansion. Placeholders use core's `{{name}}` syntax; every prompt has `{{query}}`
 * (the query or claim), and the Mr.TyDi preset also `{{language}}`.
 *
 * Sources:
 * - Yoon et al. 2025, "Hypothetical Documents or Knowledge Leakage? Rethinking LLM-based Query Expansion",
 *   Appendix E, Figures A1a–A1d (FEVER, SciFact, AVeriTeC HyDE prompts and the Query2doc prompt).
 * - Gao et al. 2023, "Precise Zero-Shot Dense Retrieval without Relevance Labels" (HyDE), task prompts as published
 *   in texttron/hyde `src/hyde/promptor.py` (commit 74101c5157e04f7b57559e7da8ef4a4e5b6da82b); `{}` became `{{query}}`.
 * - The multi-query prompt is LangChain's `MultiQueryRetriever` default prompt
 *   (langchain-ai/langchain `libs/langchain/langchain/retrievers/multi_query.py`), with "3" made a `{{count}}` variable.
 */

/** Query2doc prompt used by the knowledge-leakage paper (Figure A1d), following Wang et al. 2023's zero-shot suggestion. */
export const QUERY2DOC_PROMPT = 'Write a passage that answers the following query:\n{{query}}';

/** HyDE prompt for FEVER from the knowledge-leakage paper (Figure A1a). */
export const HYDE_FEVER_PROMPT = 'Please write a wikipedia passage to verify the claim.\nClaim: {{query}}\nPassage:';

/** HyDE prompt for SciFact (knowledge-leakage paper Figure A1b; identical to the original HyDE SciFact prompt). */
export const HYDE_SCIFACT_PROMPT = 'Please write a scientific paper passage to support/refute the claim.\nClaim: {{query}}\nPassage:';

/** HyDE prompt for AVeriTeC from the knowledge-leakage paper (Figure A1c). */
export const HYDE_AVERITEC_PROMPT = 'Please write a fact-checking article to verify the claim.\nClaim: {{query}}\nPassage:';

/** Original HyDE prompt for web search (TREC DL19/DL20, MS MARCO). */
export const HYDE_WEB_SEARCH_PROMPT = 'Please write a passage to answer the question.\nQuestion: {{query}}\nPassage:';

/** Original HyDE prompt for ArguAna (the query is itself an argument passage). */
export const HYDE_ARGUANA_PROMPT = 'Please write a counter argument for the passage.\nPassage: {{query}}\nCounter Argument:';

/** Original HyDE prompt for TREC-COVID. */
export const HYDE_TREC_COVID_PROMPT = 'Please write a scientific paper passage to answer the question.\nQuestion: {{query}}\nPassage:';

/** Original HyDE prompt for FiQA. */
export const HYDE_FIQA_PROMPT = 'Please write a financial article passage to answer the question.\nQuestion: {{query}}\nPassage:';

/** Original HyDE prompt for DBPedia-Entity (same wording as web search). */
export const HYDE_DBPEDIA_ENTITY_PROMPT = 'Please write a passage to answer the question.\nQuestion: {{query}}\nPassage:';

/** Original HyDE prompt for TREC-News. */
export const HYDE_TREC_NEWS_PROMPT = 'Please write a news passage about the topic.\nTopic: {{query}}\nPassage:';

/** Original HyDE prompt for Mr.TyDi; `{{language}}` is the language name, e.g. "Swahili". */
export const HYDE_MR_TYDI_PROMPT = 'Please write a passage in {{language}} to answer the question in detail.\nQuestion: {{query}}\nPassage:';

/** Names of the HyDE prompt presets. */
export type HydePromptPreset = 'fever' | 'scifact' | 'averitec' | 'web-search' | 'arguana' | 'trec-covid' | 'fiqa' | 'dbpedia-entity' | 'trec-news' | 'mr-tydi';

/** Every HyDE prompt preset by name (the paper's three fact-checking prompts and the original HyDE task prompts). */
export const HYDE_PROMPTS: Readonly<Record<HydePromptPreset, string>> = Object.freeze({
  fever: HYDE_FEVER_PROMPT,
  scifact: HYDE_SCIFACT_PROMPT,
  averitec: HYDE_AVERITEC_PROMPT,
  'web-search': HYDE_WEB_SEARCH_PROMPT,
  arguana: HYDE_ARGUANA_PROMPT,
  'trec-covid': HYDE_TREC_COVID_PROMPT,
  fiqa: HYDE_FIQA_PROMPT,
  'dbpedia-entity': HYDE_DBPEDIA_ENTITY_PROMPT,
  'trec-news': HYDE_TREC_NEWS_PROMPT,
  'mr-tydi': HYDE_MR_TYDI_PROMPT,
});

/** Multi-query prompt (LangChain MultiQueryRetriever default, `{{count}}` alternative questions, one per line). */
export const MULTI_QUERY_PROMPT =
  'You are an AI language model assistant. Your task is to generate {{count}} different versions of the given user ' +
  'question to retrieve relevant documents from a vector database. By generating multiple perspectives on the user ' +
  'question, your goal is to help the user overcome some of the limitations of distance-based similarity search. ' +
  'Provide these alternative questions separated by newlines. Original question: {{query}}';

/** Every prompt of the package, the one public way to read them: `hyde` by preset name (pass one as an expander's `prompt` to override it). */
export const EXPANSION_PROMPTS = Object.freeze({
  /** query2doc: a passage that answers the query. */
  query2doc: QUERY2DOC_PROMPT,
  /** Multi-query rewriting into `{{count}}` alternative questions. */
  multiQuery: MULTI_QUERY_PROMPT,
  /** HyDE presets by name. */
  hyde: HYDE_PROMPTS,
});
