import type { ItemProblem } from '@factkit/core';

/**
 * Every problem code `@factkit/retrieval` emits (in `problems` of its results, retrievers, loaders and reranker).
 * Codes are for people and reports; a `switch` on `problem.code` over this union is checked by the compiler.
 *
 * - documents (BM25 `addDocuments`, dense `index` / `buildDenseIndex`, the dense factory): `invalid-document`,
 *   `duplicate-id`, `empty-text`, `empty-field`, `embedding-failed`, `bad-embedding`
 * - queries (BM25, dense, factory and multi-query retrievers, RankGPT): `empty-query`, `no-searchable-terms`, `empty-index`
 * - fusion (`createHybridRetriever`, `createMultiQueryRetriever`): `retriever-failed`, `search-failed` (the wrapped
 *   retrievers' own problems are passed on with their own codes)
 * - Rocchio feedback: `no-feedback-documents` (and `bad-embedding` for a feedback document)
 * - RankGPT reranking, per window: `refused`, `no-ranking`, `duplicate-identifier`, `unknown-identifier`,
 *   `missing-identifier`, and core's `missing-reply` when the model returns no reply
 * - BEIR files (`loadBeirDataset`, `findUnknownQrelsDocuments`): `unknown-query`, `unknown-document`
 */
export type RetrievalProblemCode =
  | 'invalid-document'
  | 'duplicate-id'
  | 'empty-text'
  | 'empty-field'
  | 'embedding-failed'
  | 'bad-embedding'
  | 'empty-query'
  | 'no-searchable-terms'
  | 'empty-index'
  | 'retriever-failed'
  | 'search-failed'
  | 'no-feedback-documents'
  | 'refused'
  | 'no-ranking'
  | 'duplicate-identifier'
  | 'unknown-identifier'
  | 'missing-identifier'
  | 'missing-reply'
  | 'unknown-query'
  | 'unknown-document';

/** A problem reported by this package. */
export type RetrievalProblem = ItemProblem<RetrievalProblemCode>;
