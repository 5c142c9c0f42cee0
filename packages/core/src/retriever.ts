import type { Evidence } from './evidence.js';
import type { ItemProblem, Query } from './query.js';

export interface RetrieveRequest {
  readonly query: Query;
  /** @default 10 */
  readonly topK?: number;
  readonly abortSignal?: AbortSignal;
}

/** What a retriever found for one query. `Code` is the retriever's problem-code union (any string by default). */
export interface RetrieveResult<Code extends string = string> {
  /** Sorted by descending score; `rank` is 1-based. */
  readonly evidence: Evidence[];
  /** What went wrong or was noteworthy for this query (e.g. `no-searchable-terms`, `empty-index`); kebab-case codes. */
  readonly problems?: readonly ItemProblem<Code>[];
}

/**
 * Finds evidence for a query. `Code` is the union of problem codes its results carry (e.g. `Retriever<SerperProblemCode>`);
 * a `Retriever<Code>` is a `Retriever`, so code that takes any retriever keeps the default.
 */
export interface Retriever<Code extends string = string> {
  /** e.g. 'bm25', 'dense(use-lite)', 'hybrid(bm25+dense)'. */
  readonly id: string;
  retrieve(request: RetrieveRequest): Promise<RetrieveResult<Code>>;
}
