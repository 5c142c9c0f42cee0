// Prompts
export type { HydePromptPreset } from './prompts.js';
export { EXPANSION_PROMPTS } from './prompts.js';

// Parsers
export type { GenerationProblem, GenerationProblemCode, ParsedGeneration, ParseGenerationOptions, ScriptName } from './parse-generation.js';
export { cleanGeneration, countScripts, detectScript, parseGeneration } from './parse-generation.js';

// Expanders
export type { ExpanderSamplingOptions } from './sampling-options.js';
export type { Query2docExpanderOptions } from './query2doc-expander.js';
export { createQuery2docExpander } from './query2doc-expander.js';
export type { HydeExpanderOptions } from './hyde-expander.js';
export { combineHydeVectors, createHydeExpander } from './hyde-expander.js';
export type { FuseRankings, MultiQueryExpanderOptions, ParsedSubQueries, RetrieveWithSubQueriesOptions } from './multi-query-expander.js';
export { createMultiQueryExpander, getSubQueries, parseSubQueries, retrieveWithSubQueries } from './multi-query-expander.js';

// Batches
export type { ExpandQueriesOptions, ExpandQueriesProblemCode, ExpandQueriesResult, ExpansionOutcome } from './expand-queries.js';
export { expandQueries } from './expand-queries.js';
