import type { Cache } from '../cache.js';
import type { GenerateRequest, GenerateResult, LanguageModel } from '../language-model.js';
import type { Embedder, EmbedRequest } from '../embedder.js';
import { sha256Hex, stableStringify } from './stable-hash.js';

export interface WithCacheOptions {
  /** Extra text mixed into every key, e.g. a prompt version. @default '' */
  readonly namespace?: string;
}

/**
 * The content address of a generate call: provider, model id and the full request (prompt or messages, system,
 * temperature, topP, maxTokens, n, stop, seed). Pass distinct `seed`s for repeated samples you want cached apart.
 */
export async function computeGenerateCacheKey(model: LanguageModel, request: GenerateRequest, namespace = ''): Promise<string> {
  const { abortSignal: _ignored, ...rest } = request;
  return sha256Hex(stableStringify({ v: 1, kind: 'generate', namespace, provider: model.provider ?? '', model: model.id, request: rest }));
}

/**
 * Wraps a LanguageModel so identical requests are answered from `cache`. A crash loses no finished call (each result
 * is stored as it completes) and a rerun repeats none. Identical requests in flight at once share one call.
 */
export function withCache(model: LanguageModel, cache: Cache, options: WithCacheOptions = {}): LanguageModel {
  const { namespace = '' } = options;
  const inFlight = new Map<string, Promise<GenerateResult>>();
  return {
    id: model.id,
    ...(model.provider === undefined ? {} : { provider: model.provider }),
    async generate(request) {
      request.abortSignal?.throwIfAborted();
      const key = await computeGenerateCacheKey(model, request, namespace);
      const hit = (await cache.get(key)) as GenerateResult | undefined;
      if (hit && Array.isArray(hit.texts)) return { ...hit, cached: true };
      const pending = inFlight.get(key);
      if (pending) return pending;
      const call = (async () => {
        try {
          const result = await model.generate(request);
          const { cached: _cached, ...stored } = result;
          await cache.set(key, stored);
          return result;
        } finally {
          inFlight.delete(key);
        }
      })();
      inFlight.set(key, call);
      return call;
    },
  };
}

/** Wraps an Embedder so each text's vector is cached by (embedder id, kind, text). */
export function withEmbeddingCache(embedder: Embedder, cache: Cache, options: WithCacheOptions = {}): Embedder {
  const { namespace = '' } = options;
  const keyOf = (request: EmbedRequest, text: string) => sha256Hex(stableStringify({ v: 1, kind: 'embed', namespace, model: embedder.id, embedKind: request.kind, text }));
  return {
    ...embedder,
    async embed(request) {
      request.abortSignal?.throwIfAborted();
      const keys = await Promise.all(request.texts.map((text) => keyOf(request, text)));
      const embeddings: (Float32Array | undefined)[] = await Promise.all(
        keys.map(async (key) => {
          const hit = (await cache.get(key)) as number[] | undefined;
          return Array.isArray(hit) ? Float32Array.from(hit) : undefined;
        }),
      );
      const missing = embeddings.flatMap((vector, index) => (vector === undefined ? [index] : []));
      if (missing.length > 0) {
        const fresh = await embedder.embed({ ...request, texts: missing.map((index) => request.texts[index] as string) });
        await Promise.all(
          missing.map(async (index, position) => {
            const vector = fresh.embeddings[position] as Float32Array;
            embeddings[index] = vector;
            await cache.set(keys[index] as string, Array.from(vector));
          }),
        );
      }
      return { embeddings: embeddings as Float32Array[] };
    },
  };
}
