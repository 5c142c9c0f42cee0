import type { Embedder, EmbeddingKind } from '../embedder.js';
import { InvalidArgumentError } from '../errors/factkit-error.js';
import { assertPositiveInteger } from '../errors/guards.js';
import type { ProgressCallback } from '../outcome/progress.js';
import { mapWithConcurrency } from './concurrency.js';

export interface EmbedInBatchesOptions {
  readonly kind: EmbeddingKind;
  /** Texts per call. @default embedder.maxBatchSize ?? 64 */
  readonly batchSize?: number;
  /** @default 1 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each batch: `completed` counts texts embedded so far. */
  readonly onProgress?: ProgressCallback;
}

/** Embeds many texts in batches with bounded concurrency; returns vectors in input order. */
export async function embedInBatches(embedder: Embedder, texts: readonly string[], options: EmbedInBatchesOptions): Promise<Float32Array[]> {
  const { kind, batchSize = embedder.maxBatchSize ?? 64, concurrency = 1, abortSignal, onProgress } = options;
  assertPositiveInteger('batchSize', batchSize, 'embedInBatches');
  const batches: string[][] = [];
  for (let i = 0; i < texts.length; i += batchSize) batches.push(texts.slice(i, i + batchSize));
  let done = 0;
  const parts = await mapWithConcurrency(
    batches,
    async (batch) => {
      const { embeddings } = await embedder.embed({ texts: batch, kind, ...(abortSignal ? { abortSignal } : {}) });
      if (embeddings.length !== batch.length) {
        throw new InvalidArgumentError({ where: 'embedInBatches', argument: 'embedder', message: `returned ${embeddings.length} vectors for ${batch.length} texts` });
      }
      done += batch.length;
      onProgress?.({ completed: done, total: texts.length });
      return embeddings;
    },
    { concurrency, ...(abortSignal ? { abortSignal } : {}) },
  );
  return parts.flat();
}
