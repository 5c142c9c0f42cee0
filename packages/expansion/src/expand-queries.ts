import {
  assertPositiveInteger,
  InvalidArgumentError,
  isAbortReason,
  itemFailed,
  itemOk,
  settleWithConcurrency,
  type ExpandedQuery,
  type ItemOutcome,
  type ItemProblem,
  type Query,
  type QueryExpander,
  type ProgressCallback,
} from '@factkit/core';
import type { ExpansionProblemCode } from './problem-codes.js';

export interface ExpandQueriesOptions {
  /** Repeated samples per query (the leakage study uses R = 8); sample s is sent as `ExpandRequest.sample = s`. @default 1 */
  readonly samples?: number;
  /** Expansions running at once. @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each (query, sample) finishes (`failed` counts (query, sample) pairs whose expansion failed). */
  readonly onProgress?: ProgressCallback;
}

/** The core `ItemOutcome` of one (query, sample): `ok` with the expanded query, or `failed` with an `expansion-failed` problem. */
export type ExpansionOutcome = { readonly queryIndex: number; readonly sample: number } & ItemOutcome<ExpandedQuery, ExpansionProblemCode>;

export interface ExpandQueriesResult {
  /**
   * One outcome per (query, sample), in query-then-sample order. A failed one's problem has `index` = the query
   * index and `id` = the query id when it has one.
   */
  readonly outcomes: ExpansionOutcome[];
}

/**
 * Expands every query `samples` times with bounded concurrency. A failing item is a `failed` outcome and never loses
 * the others; an abort rethrows the signal's reason unchanged.
 * @throws InvalidArgumentError for a bad `samples` or `concurrency`.
 */
export async function expandQueries(expander: QueryExpander, queries: readonly Query[], options: ExpandQueriesOptions = {}): Promise<ExpandQueriesResult> {
  const where = 'expandQueries';
  const { samples = 1, concurrency = 4, abortSignal, onProgress } = options;
  if (!expander || typeof expander.expand !== 'function') throw new InvalidArgumentError({ where, argument: 'expander', message: 'must be a QueryExpander' });
  if (!Array.isArray(queries)) throw new InvalidArgumentError({ where, argument: 'queries', message: 'must be an array of queries' });
  assertPositiveInteger('samples', samples, where);
  const items = queries.flatMap((query, queryIndex) => Array.from({ length: samples }, (_, sample) => ({ query, queryIndex, sample })));
  const settled = await settleWithConcurrency(items, async ({ query, sample }) => expander.expand({ query, sample, ...(abortSignal ? { abortSignal } : {}) }), {
    concurrency,
    ...(abortSignal ? { abortSignal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const outcomes = settled.map((entry, position): ExpansionOutcome => {
    const item = items[position] as (typeof items)[number];
    const at = { queryIndex: item.queryIndex, sample: item.sample };
    if (entry.status === 'fulfilled') return { ...at, ...itemOk(entry.value) };
    if (isAbortReason(entry.error, abortSignal)) throw entry.error;
    const message = entry.error instanceof Error ? entry.error.message : String(entry.error);
    const problem: ItemProblem<ExpansionProblemCode> = {
      index: item.queryIndex,
      ...(item.query?.id === undefined ? {} : { id: item.query.id }),
      code: 'expansion-failed',
      message: `sample ${item.sample}: ${message}`,
    };
    return { ...at, ...itemFailed([problem]) };
  });
  return { outcomes };
}
