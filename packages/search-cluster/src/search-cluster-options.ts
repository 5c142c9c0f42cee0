import type { SearchClusterClient, SearchClusterFlavor } from './search-cluster-client.js';

/** Which document parts are searched: `'flat'` = title and text as one field (as `@factkit/retrieval`'s default). */
export type SearchClusterFields = 'flat' | Readonly<{ title?: number; text?: number }>;

/** Options of `createSearchClusterRetriever`: the client and index, the index definition, and bulk indexing. */
export interface SearchClusterRetrieverOptions {
  /** Your `new Client({ node })` from `@opensearch-project/opensearch` or `@elastic/elasticsearch`. */
  readonly client: SearchClusterClient;
  /** Index name (lower case, as the cluster requires). */
  readonly index: string;
  /** Which client `client` is. @default detected from the client's methods */
  readonly flavor?: SearchClusterFlavor;
  /**
   * `'dfs_query_then_fetch'` gathers BM25 statistics from all shards first, so scores match a single index.
   * @default 'dfs_query_then_fetch' when numberOfShards > 1, else the cluster's default ('query_then_fetch')
   */
  readonly searchType?: 'query_then_fetch' | 'dfs_query_then_fetch';
  // Index definition (settings and mappings `ensureIndex` creates the index with)
  /** BM25 term-frequency saturation. @default 0.9 (`@factkit/retrieval`'s BM25 default) */
  readonly k1?: number;
  /** BM25 length normalisation in [0, 1]. @default 0.4 (`@factkit/retrieval`'s BM25 default) */
  readonly b?: number;
  /** Stop words removed after lower-casing. @default Lucene's 33 English stop words (`LUCENE_ENGLISH_STOP_WORDS` of @factkit/core) */
  readonly stopWords?: readonly string[];
  /** `'flat'` indexes `title + ' ' + text` as one field `contents`; weights index `title` and `text` separately. @default 'flat' */
  readonly fields?: SearchClusterFields;
  /** Primary shards. More than one splits BM25 statistics per shard (see `searchType`). @default 1 */
  readonly numberOfShards?: number;
  /** Replica shards. @default 0 */
  readonly numberOfReplicas?: number;
  // Bulk indexing (`indexDocuments`)
  /** Documents per `_bulk` request at most. @default 500 */
  readonly batchSize?: number;
  /** Bytes of NDJSON per `_bulk` request at most (a single larger document is sent alone). @default 5_000_000 */
  readonly maxBatchBytes?: number;
  /** `_bulk` requests in flight at once; documents are read from the input only when a slot is free. @default 2 */
  readonly concurrency?: number;
  /** Attempts per document (and per request) before it is reported failed; 1 = no retry. @default 5 */
  readonly maxAttempts?: number;
  /** Delay before the first retry; doubled each attempt. @default 200 */
  readonly retryDelayMs?: number;
  /** Upper bound of the retry delay. @default 10_000 */
  readonly maxRetryDelayMs?: number;
}

/**
 * Every problem code a search-cluster retriever emits. `retrieve`: `no-searchable-terms` (nothing sent).
 * `ensureIndex`: `index-settings-mismatch`. `indexDocuments`, one per document not indexed: `invalid-document`,
 * `item-rejected`, `retries-exhausted`, `bulk-request-failed`, `malformed-bulk-response`; and per run: `stopped`,
 * `refresh-failed`.
 */
export type SearchClusterProblemCode = 'no-searchable-terms' | 'index-settings-mismatch' | 'invalid-document' | 'item-rejected' | 'retries-exhausted' | 'bulk-request-failed' | 'malformed-bulk-response' | 'stopped' | 'refresh-failed';
