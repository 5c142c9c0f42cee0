import { assertPositiveInteger } from '../errors/guards.js';
import type { ProgressCallback } from '../outcome/progress.js';

export interface ConcurrencyOptions {
  /** Most tasks running at once. @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each item finishes; `failed` counts the items whose task threw. */
  readonly onProgress?: ProgressCallback;
}

export type Settled<T> = { readonly status: 'fulfilled'; readonly value: T } | { readonly status: 'rejected'; readonly error: unknown };

/**
 * Runs `task` over `items` with at most `concurrency` at once and returns one settled result per item, in order.
 * One failing item never loses the others. An abort stops new tasks and rethrows the signal's reason.
 */
export async function settleWithConcurrency<T, R>(items: readonly T[], task: (item: T, index: number) => Promise<R>, options: ConcurrencyOptions = {}): Promise<Settled<R>[]> {
  const { concurrency = 4, abortSignal, onProgress } = options;
  assertPositiveInteger('concurrency', concurrency, 'settleWithConcurrency');
  abortSignal?.throwIfAborted();
  const results: Settled<R>[] = new Array(items.length);
  let next = 0;
  let completed = 0;
  let failed = 0;
  const worker = async () => {
    while (next < items.length) {
      if (abortSignal?.aborted) return;
      const index = next;
      next += 1;
      try {
        results[index] = { status: 'fulfilled', value: await task(items[index] as T, index) };
      } catch (error) {
        results[index] = { status: 'rejected', error };
        failed += 1;
      }
      completed += 1;
      onProgress?.({ completed, total: items.length, failed });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  abortSignal?.throwIfAborted();
  return results;
}

/** Like {@link settleWithConcurrency} but rejects with the first error (after in-flight tasks finish). */
export async function mapWithConcurrency<T, R>(items: readonly T[], task: (item: T, index: number) => Promise<R>, options: ConcurrencyOptions = {}): Promise<R[]> {
  const settled = await settleWithConcurrency(items, task, options);
  return settled.map((entry) => {
    if (entry.status === 'rejected') throw entry.error;
    return entry.value;
  });
}
