/**
 * Prompt for one structured call per chunk: a one-sentence title and `{{questionCount}}` candidate questions.
 * The paper trains a T5 model on GPT-4o-mini outputs and does not print its generation prompt (its appendix has
 * only evaluation prompts), so this prompt is ours; it asks for the paper's outputs (§3.2, §3.3) as JSON.
 * Placeholders: `{{chunk}}`, `{{questionCount}}`.
 */
export const CHUNK_KNOWLEDGE_PROMPT = `Read the document chunk below and write:
1. "title": one sentence that states the main topic of the chunk;
2. "questions": {{questionCount}} different questions a user might search for that this chunk answers.
Use only information in the chunk. Reply with JSON only, in this form:
{"title": "...", "questions": ["...", "..."]}

Chunk:
{{chunk}}`;

/**
 * Prompt for the keywords of a user query (§3.1: keyword spans of the query). Keywords must be copied from the
 * query verbatim so they can be located as spans and BIO-tagged. Placeholder: `{{query}}`. Ours (the paper tags
 * tokens with a trained encoder and prints no prompt).
 */
export const QUERY_KEYWORDS_PROMPT = `Extract the keywords of the search query below: the words or short phrases that carry its key concepts.
Copy each keyword exactly as it is written in the query, one per line, with no explanation.

Query: {{query}}`;

/** Input prefixes of the text2text path, one per decoder of the paper's model (title decoder, question decoder). */
export const TEXT2TEXT_TITLE_PREFIX = 'title: ';
export const TEXT2TEXT_QUESTIONS_PREFIX = 'questions: ';

/** Every prompt and text2text prefix of the package, the one public way to read them (pass one back as an option to override it). */
export const CHUNK_KNOWLEDGE_PROMPTS = Object.freeze({
  /** One structured call per chunk: title and `{{questionCount}}` questions. */
  chunkKnowledge: CHUNK_KNOWLEDGE_PROMPT,
  /** The keywords of a user query, copied verbatim. */
  queryKeywords: QUERY_KEYWORDS_PROMPT,
  /** Input prefix of the title decoder (text2text path). */
  text2textTitlePrefix: TEXT2TEXT_TITLE_PREFIX,
  /** Input prefix of the question decoder (text2text path). */
  text2textQuestionsPrefix: TEXT2TEXT_QUESTIONS_PREFIX,
});
