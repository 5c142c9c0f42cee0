import type { Evidence } from './evidence.js';
import type { ItemProblem, Query } from './query.js';

export interface RerankRequest {
  readonly query: Query;
  /** The candidates to reorder, usually a first-stage retriever's ranking (ids unique). */
  readonly evidence: readonly Evidence[];
  /** Keep this many after reordering. @default all candidates */
  readonly topK?: number;
  readonly abortSignal?: AbortSignal;
}

/** A reranker's reordering of one query's candidates. `Code` is the reranker's problem-code union (any string by default). */
export interface RerankResult<Code extends string = string> {
  /**
   * A reordering of (a prefix of) the candidates: the same evidence objects' fields with the reranker's `score`
   * (descending) and a 1-based `rank`; never an evidence that was not a candidate.
   */
  readonly evidence: Evidence[];
  /** What went wrong or was repaired (e.g. a listwise reply that missed a passage); kebab-case codes. */
  readonly problems?: readonly ItemProblem<Code>[];
}

/**
 * Reorders a retriever's candidates by a stronger (slower) relevance model: a cross-encoder, an LLM listwise ranker
 * (RankGPT), or a classical re-scorer. Wrap a retriever with `withReranker` (`@factkit/retrieval`) to get a Retriever.
 * `Code` is the union of problem codes its results carry; a `Reranker<Code>` is a `Reranker`.
 */
export interface Reranker<Code extends string = string> {
  /** e.g. 'rankgpt(gpt-4o-mini)', 'cross-encoder(ms-marco-MiniLM-L-6-v2)', 'bm25-rescore'. */
  readonly id: string;
  rerank(request: RerankRequest): Promise<RerankResult<Code>>;
}
