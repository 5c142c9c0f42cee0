/**
 * RankGPT's system message (Sun et al., 2023, "Is ChatGPT Good at Search? Investigating Large Language Models as
 * Re-Ranking Agents"; the authors' `get_prefix_prompt`).
 */
export const RANKGPT_SYSTEM = 'You are RankGPT, an intelligent assistant that can rank passages based on their relevancy to the query.';

/**
 * RankGPT's permutation-generation instruction (the authors' `get_prefix_prompt` + passages + `get_post_prompt`), with
 * `{{num}}` (passages in the window), `{{query}}` and `{{passages}}` (one `[i] text` line per passage, i from 1)
 * placeholders. The authors send the passages as chat turns each acknowledged by the assistant ("Received passage
 * [i]."); here they are one message, so the prompt works with completion and chat endpoints alike and caches as one
 * request. The reply is a permutation such as `[2] > [1] > [3]`.
 */
export const RANKGPT_PROMPT = `I will provide you with {{num}} passages, each indicated by number identifier []. 
Rank the passages based on their relevance to query: {{query}}.

{{passages}}

Search Query: {{query}}. 
Rank the {{num}} passages above based on their relevance to the search query. The passages should be listed in descending order using identifiers. The most relevant passages should be listed first. The output format should be [] > [], e.g., [1] > [2]. Only response the ranking results, do not say any word or explain.`;
