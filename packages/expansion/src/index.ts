// Prompts
export type { HydePromptPreset } from './prompts.js';
export {
  HYDE_ARGUANA_PROMPT,
  HYDE_AVERITEC_PROMPT,
  HYDE_DBPEDIA_ENTITY_PROMPT,
  HYDE_FEVER_PROMPT,
  HYDE_FIQA_PROMPT,
  HYDE_MR_TYDI_PROMPT,
  HYDE_PROMPTS,
  HYDE_SCIFACT_PROMPT,
  HYDE_TREC_COVID_PROMPT,
  HYDE_TREC_NEWS_PROMPT,
  HYDE_WEB_SEARCH_PROMPT,
  MULTI_QUERY_PROMPT,
  QUERY2DOC_PROMPT,
} from './prompts.js';

// Parsers
export type { GenerationProblem, GenerationProblemCode, ParsedGeneration, ParseGenerationOptions, ScriptName } from './parse-generation.js';
export { cleanGeneration, countScripts, detectScript, parseGeneration } from './parse-generation.js';

// Expanders
export type { ExpanderSamplingOptions } from './internal/generate.js';
export type { Query2docExpanderOptions } from './query2doc-expander.js';
export { createQuery2docExpander } from './query2doc-expander.js';
export type { HydeExpanderOptions } from './hyde-expander.js';
export { combineHydeVectors, createHydeExpander } from './hyde-expander.js';
export type { FuseRankings, MultiQueryExpanderOptions, ParsedSubQueries, RetrieveWithSubQueriesOptions } from './multi-query-expander.js';
export { createMultiQueryExpander, getSubQueries, parseSubQueries, retrieveWithSubQueries } from './multi-query-expander.js';

// Batches
export type { ExpandQueriesOptions, ExpandQueriesProblemCode, ExpandQueriesResult, ExpansionOutcome } from './expand-queries.js';
export { expandQueries } from './expand-queries.js';
