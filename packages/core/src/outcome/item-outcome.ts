import type { ItemProblem } from '../query.js';

/** One item of a batch that succeeded: its value, and any problems that did not stop it (e.g. a reply parsed in part). */
export interface ItemOk<T, Code extends string = string> {
  readonly status: 'ok';
  readonly value: T;
  /** Problems that did not stop the item. @default [] */
  readonly problems?: readonly ItemProblem<Code>[];
}

/** One item of a batch that failed: why, and the raw model reply when there was one. Never a default value. */
export interface ItemFailed<Code extends string = string> {
  readonly status: 'failed';
  /** At least one problem saying what went wrong. */
  readonly problems: readonly ItemProblem<Code>[];
  /** The raw reply the value could not be read from, when a model answered. */
  readonly raw?: string;
}

/**
 * The result of one item of a batch: `ok` with its value, or `failed` with its problems (and the raw reply). The one
 * per-item failure shape every factkit package returns; narrow on `status`. `Code` (the package's problem-code union)
 * types the problems of both sides.
 * @example
 * for (const outcome of outcomes) {
 *   if (outcome.status === 'failed') report(outcome.problems);
 *   else use(outcome.value);
 * }
 */
export type ItemOutcome<T, Code extends string = string> = ItemOk<T, Code> | ItemFailed<Code>;

/**
 * Builds an `ok` outcome (problems kept only when there are some). `Code` is inferred from the problems; without
 * problems it is `never`, so the outcome fits an `ItemOutcome<T, Code>` of any code union.
 */
export function itemOk<T, Code extends string = never>(value: T, problems: readonly ItemProblem<Code>[] = []): ItemOk<T, Code> {
  return problems.length === 0 ? { status: 'ok', value } : { status: 'ok', value, problems };
}

/** Builds a `failed` outcome. */
export function itemFailed<Code extends string = string>(problems: readonly ItemProblem<Code>[], raw?: string): ItemFailed<Code> {
  return raw === undefined ? { status: 'failed', problems } : { status: 'failed', problems, raw };
}

/** Counts the outcomes that failed. */
export function countFailed(outcomes: Iterable<{ readonly status: ItemOutcome<unknown>['status'] }>): number {
  let failed = 0;
  for (const outcome of outcomes) if (outcome.status === 'failed') failed += 1;
  return failed;
}
