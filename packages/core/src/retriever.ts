import type { Evidence } from './evidence.js';
import type { ItemProblem, Query } from './query.js';

export interface RetrieveRequest {
  readonly query: Query;
  /** @default 10 */
  readonly topK?: number;
  readonly abortSignal?: AbortSignal;
}

export interface RetrieveResult {
  /** Sorted by descending score; `rank` is 1-based. */
  readonly evidence: Evidence[];
  /** What went wrong or was noteworthy for this query (e.g. `no-searchable-terms`, `empty-index`); kebab-case codes. */
  readonly problems?: readonly ItemProblem[];
}

/** Finds evidence for a query. */
export interface Retriever {
  /** e.g. 'bm25', 'dense(use-lite)', 'hybrid(bm25+dense)'. */
  readonly id: string;
  retrieve(request: RetrieveRequest): Promise<RetrieveResult>;
}
