// Prompts
export type { HydePromptPreset } from './prompts.js';
export { EXPANSION_PROMPTS } from './prompts.js';

// Expanders
export type { ExpanderSamplingOptions } from './sampling-options.js';
export type { Query2docExpanderOptions } from './query2doc-expander.js';
export { createQuery2docExpander } from './query2doc-expander.js';
export type { HydeExpanderOptions } from './hyde-expander.js';
export { createHydeExpander } from './hyde-expander.js';
export type { MultiQueryExpanderOptions } from './multi-query-expander.js';
export { createMultiQueryExpander } from './multi-query-expander.js';

// Batches
export type { ExpandQueriesOptions, ExpandQueriesResult, ExpansionOutcome } from './expand-queries.js';
export { expandQueries } from './expand-queries.js';

// Problems
export type { ExpansionProblemCode } from './problem-codes.js';
