import type { Chunk } from '@factkit/core';
import { countFailed, withCache, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import type { ChunkAnnotationResult } from '@factkit/chunk-knowledge';
import { annotateChunksWithModel } from '@factkit/chunk-knowledge';
import { createOpenAICompatible } from '@factkit/openai';

export interface ModelAnnotationsOptions {
  /** Call cache directory: a stopped run resumes from it; a rerun costs nothing. */
  readonly cacheDirectory: string;
  /** @default 4 */
  readonly concurrency?: number;
  /** Chunks per batch; progress and the cache advance batch by batch. @default 64 */
  readonly batchSize?: number;
  /** Endpoint settings; by default OPENAI_BASE_URL / OPENAI_API_KEY are read by @factkit/openai and the model id from FACTKIT_MODEL. */
  readonly baseUrl?: string;
  readonly modelName?: string;
  readonly apiKey?: string;
  /** Retries (core `withRetry`) on 408/429/5xx and connection errors. @default 2 */
  readonly maxRetries?: number;
  readonly log?: (message: string) => void;
  readonly abortSignal?: AbortSignal;
}

/**
 * Model titles and questions for every chunk through an OpenAI-compatible endpoint: one call per chunk, bounded
 * concurrency, retries through core `withRetry`, every finished call kept in the on-disk cache (so a crash resumes there),
 * failures kept as `failed` outcomes (never turned into default annotations).
 */
export async function annotateWithModel(chunks: readonly Chunk[], options: ModelAnnotationsOptions): Promise<ChunkAnnotationResult & { modelId: string; problemCount: number }> {
  const { cacheDirectory, concurrency = 4, batchSize = 64, log, abortSignal } = options;
  const provider = createOpenAICompatible({
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  });
  const modelName = options.modelName ?? process.env['FACTKIT_MODEL'];
  if (!modelName) throw new Error('annotateWithModel: pass modelName or set FACTKIT_MODEL');
  const base = withRetry(provider.languageModel(modelName), { maxRetries: options.maxRetries ?? 2 });
  const model = withCache(base, createFileCache({ directory: cacheDirectory }));
  const outcomes: ChunkAnnotationResult['outcomes'] = [];
  let failedBefore = 0;
  for (let start = 0; start < chunks.length; start += batchSize) {
    const batch = chunks.slice(start, start + batchSize);
    const result = await annotateChunksWithModel(batch, {
      model,
      concurrency,
      ...(abortSignal ? { abortSignal } : {}),
      onProgress: ({ completed, failed = 0 }) => log?.(`model annotation: ${start + completed}/${chunks.length} chunks (${failedBefore + failed} failed)`),
    });
    outcomes.push(...result.outcomes);
    failedBefore = countFailed(outcomes);
  }
  const items = outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
  log?.(`model annotation done: ${items.length} ok, ${countFailed(outcomes)} failed`);
  return { outcomes, modelId: base.id, problemCount: items.reduce((sum, item) => sum + item.problems.length, 0) };
}
