export type { IndexDocumentsOptions, IndexDocumentsResult } from './bulk-indexer.js';
export type { IndexDefinition } from './index-definition.js';
export type { SearchClusterClient, SearchClusterClientMethod, SearchClusterFlavor } from './search-cluster-client.js';
export type { SearchClusterFields, SearchClusterProblemCode, SearchClusterRetrieverOptions } from './search-cluster-options.js';
export type { EnsureIndexResult, SearchClusterRetriever } from './search-cluster-retriever.js';
export { createSearchClusterRetriever } from './search-cluster-retriever.js';
