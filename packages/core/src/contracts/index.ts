// @factkit/core/contracts: the contract suites factkit runs over its own implementations, for yours. Each
// `describe…Contract(name, factory, options?)` registers a vitest `describe` block; vitest is an optional peer
// dependency, needed only by this entry point.
export type { LanguageModelContractOptions, NliModelContractOptions, RetrieverContractOptions } from './contracts.js';
export {
  describeCacheContract,
  describeEmbedderContract,
  describeLanguageModelContract,
  describeNliModelContract,
  describeRetrieverContract,
  describeVectorStoreContract,
} from './contracts.js';
export type { QueryExpanderContractOptions } from './query-expander-contract.js';
export { describeQueryExpanderContract } from './query-expander-contract.js';
export type { RerankerContractOptions } from './reranker-contract.js';
export { describeRerankerContract } from './reranker-contract.js';
