// @factkit/claim-query public surface: explicit named exports only.

// Prompts (paper Tables 13-26)
export type { ClaimCriterion, Criterion, JointCqPromptSet, PromptLanguage, QueryCriterion } from './prompts/prompts.js';
export {
  CLAIM_CRITERIA,
  CLAIM_CRITERION_TEXT_EN,
  CLAIM_CRITERION_TEXT_ZH,
  CLAIM_FILTER_PROMPT_EN,
  CLAIM_FILTER_PROMPT_ZH,
  CLAIM_QUERY_PROMPT_EN,
  CLAIM_QUERY_PROMPT_ZH,
  CLAIM_QUERY_RESPONSE_TEMPLATE_EN,
  CLAIM_QUERY_RESPONSE_TEMPLATE_ZH,
  CLAIM_SYNTHESIS_PROMPT_EN,
  CLAIM_SYNTHESIS_PROMPT_ZH,
  JOINTCQ_PROMPTS,
  LLM_JUDGE_BASELINE_PROMPT_EN,
  LLM_JUDGE_BASELINE_PROMPT_ZH,
  NO_CLAIMS_TEXT,
  NO_QUERY_TEXT,
  PROMPT_LANGUAGES,
  QUERY_CRITERIA,
  QUERY_CRITERION_TEXT_EN,
  QUERY_CRITERION_TEXT_ZH,
  QUERY_FILTER_PROMPT_EN,
  QUERY_FILTER_PROMPT_ZH,
  QUERY_SYNTHESIS_PROMPT_EN,
  QUERY_SYNTHESIS_PROMPT_ZH,
  RESPONSE_MARKERS,
  VERIFIER_PROMPT_EN,
  VERIFIER_PROMPT_ZH,
} from './prompts/prompts.js';
export { createPaperPromptTemplate, renderPaperPrompt } from './prompts/paper-template.js';
export { detectPromptLanguage } from './internal/language.js';

// Joint generation (Tables 21/22)
export type { ClaimQueryParse, ParsedClaimQueryPair } from './generate/parse-claim-query-reply.js';
export { parseClaimQueryReply } from './generate/parse-claim-query-reply.js';
