import { describe, expect, it } from 'vitest';
import type { Cache, Embedder, Evidence, LanguageModel, Retriever, VectorStore } from '../index.js';
import { l2Norm } from '../index.js';

type Factory<T> = () => T | Promise<T>;

function abortedSignal(): { signal: AbortSignal; reason: Error } {
  const controller = new AbortController();
  const reason = new DOMException('contract-test-abort', 'AbortError');
  controller.abort(reason);
  return { signal: controller.signal, reason };
}

export interface LanguageModelContractOptions {
  /** Skip the n > 1 check for models that cannot sample several completions. @default true */
  readonly supportsN?: boolean;
}

/** Checks any LanguageModel: ids, texts per `n`, usage numbers, abort reason rethrown unchanged. */
export function describeLanguageModelContract(name: string, factory: Factory<LanguageModel>, options: LanguageModelContractOptions = {}): void {
  const { supportsN = true } = options;
  describe(`LanguageModel contract: ${name}`, () => {
    it('has a non-empty string id', async () => {
      const model = await factory();
      expect(typeof model.id).toBe('string');
      expect(model.id.length).toBeGreaterThan(0);
    });
    it('returns one text per completion with non-negative integer usage', async () => {
      const model = await factory();
      const result = await model.generate({ prompt: 'Say hello.', maxTokens: 16 });
      expect(result.texts).toHaveLength(1);
      expect(typeof result.texts[0]).toBe('string');
      for (const value of [result.usage.inputTokens, result.usage.outputTokens, result.usage.totalTokens]) {
        expect(Number.isInteger(value) && value >= 0).toBe(true);
      }
    });
    it.runIf(supportsN)('returns n texts for n > 1', async () => {
      const model = await factory();
      const result = await model.generate({ prompt: 'Name a colour.', n: 3, temperature: 0.7 });
      expect(result.texts).toHaveLength(3);
    });
    it('accepts chat messages', async () => {
      const model = await factory();
      const result = await model.generate({ messages: [{ role: 'user', content: 'Hello' }] });
      expect(result.texts.length).toBeGreaterThanOrEqual(1);
    });
    it('rejects with the abort reason, unchanged', async () => {
      const model = await factory();
      const { signal, reason } = abortedSignal();
      await expect(model.generate({ prompt: 'x', abortSignal: signal })).rejects.toBe(reason);
    });
  });
}

/** Checks any Embedder: dimensions, one finite vector per text in order, determinism, empty batch, abort. */
export function describeEmbedderContract(name: string, factory: Factory<Embedder>): void {
  describe(`Embedder contract: ${name}`, () => {
    it('declares positive integer dimensions and an id', async () => {
      const embedder = await factory();
      expect(Number.isInteger(embedder.dimensions) && embedder.dimensions > 0).toBe(true);
      expect(embedder.id.length).toBeGreaterThan(0);
    });
    it('returns one finite Float32Array of `dimensions` per text, for both kinds', async () => {
      const embedder = await factory();
      for (const kind of ['query', 'passage'] as const) {
        const texts = ['The cat sat on the mat.', 'Vitamin D deficiency is common.', 'Paris is the capital of France.'];
        const { embeddings } = await embedder.embed({ texts, kind });
        expect(embeddings).toHaveLength(texts.length);
        for (const vector of embeddings) {
          expect(vector).toBeInstanceOf(Float32Array);
          expect(vector.length).toBe(embedder.dimensions);
          expect(vector.every((value) => Number.isFinite(value))).toBe(true);
        }
      }
    });
    it('keeps input order and is deterministic', async () => {
      const embedder = await factory();
      const a = await embedder.embed({ texts: ['alpha beta', 'gamma delta'], kind: 'passage' });
      const b = await embedder.embed({ texts: ['gamma delta', 'alpha beta'], kind: 'passage' });
      const close = (x: Float32Array, y: Float32Array) => x.every((value, i) => Math.abs(value - (y[i] as number)) < 1e-4);
      expect(close(a.embeddings[0] as Float32Array, b.embeddings[1] as Float32Array)).toBe(true);
      expect(close(a.embeddings[1] as Float32Array, b.embeddings[0] as Float32Array)).toBe(true);
    });
    it('returns no vectors for no texts', async () => {
      const embedder = await factory();
      const { embeddings } = await embedder.embed({ texts: [], kind: 'query' });
      expect(embeddings).toEqual([]);
    });
    it('has unit norm when it declares `normalized`', async () => {
      const embedder = await factory();
      if (!embedder.normalized) return;
      const { embeddings } = await embedder.embed({ texts: ['a normalized vector please'], kind: 'query' });
      expect(l2Norm(embeddings[0] as Float32Array)).toBeCloseTo(1, 3);
    });
    it('rejects with the abort reason, unchanged', async () => {
      const embedder = await factory();
      const { signal, reason } = abortedSignal();
      await expect(embedder.embed({ texts: ['x'], kind: 'query', abortSignal: signal })).rejects.toBe(reason);
    });
  });
}

// The NliModel contract lives in nli-model-contract.ts.
export { describeNliModelContract } from './nli-model-contract.js';
export type { NliModelContractOptions } from './nli-model-contract.js';

export interface RetrieverContractOptions {
  /** A query that matches at least one document of the retriever's corpus. */
  readonly query: string;
  /** A document id that `query` must retrieve within the top 10. */
  readonly expectedId?: string;
  /** How many results `query` has at most when no `topK` is given (the interface's default). @default 10 */
  readonly defaultTopK?: number;
}

/** Evidence fields every retriever fills the same way: non-empty text, a finite score and a typed origin. */
function expectEvidenceShape(item: Evidence): void {
  expect(typeof item.documentId === 'string' && item.documentId.length > 0).toBe(true);
  expect(typeof item.text).toBe('string');
  expect(item.text.trim().length).toBeGreaterThan(0);
  expect(Number.isFinite(item.score)).toBe(true);
  expect(typeof item.origin).toBe('object');
  expect(typeof item.origin.documentId === 'string' && item.origin.documentId.length > 0).toBe(true);
  // A whole document is its own origin; a chunk names itself and its parent document.
  if (item.origin.chunkId === undefined) expect(item.origin.documentId).toBe(item.documentId);
  else expect(item.origin.chunkId).toBe(item.documentId);
  if (item.origin.title !== undefined) expect(typeof item.origin.title).toBe('string');
  if (item.origin.source !== undefined) expect(typeof item.origin.source.name).toBe('string');
  if (item.metadata !== undefined) expect(typeof item.metadata).toBe('object');
  // JSON-serialisable: the evidence survives a JSONL round trip.
  expect(JSON.parse(JSON.stringify(item))).toEqual(item);
}

/**
 * Checks any Retriever: at most topK results sorted by descending score with 1-based ranks and unique ids, the evidence
 * shape (non-empty text, a typed `origin`), topK 0 and the default topK, an empty query answered with a problem (not a
 * throw), stable results and the abort reason rethrown.
 */
export function describeRetrieverContract(name: string, factory: Factory<Retriever>, options: RetrieverContractOptions): void {
  const { defaultTopK = 10 } = options;
  describe(`Retriever contract: ${name}`, () => {
    it('returns at most topK results sorted by descending score with 1-based ranks and unique ids', async () => {
      const retriever = await factory();
      for (const topK of [1, 3, 10]) {
        const { evidence } = await retriever.retrieve({ query: { text: options.query }, topK });
        expect(evidence.length).toBeLessThanOrEqual(topK);
        expect(evidence.length).toBeGreaterThan(0);
        for (let i = 1; i < evidence.length; i += 1) expect((evidence[i - 1] as { score: number }).score).toBeGreaterThanOrEqual((evidence[i] as { score: number }).score);
        evidence.forEach((item, index) => {
          if (item.rank !== undefined) expect(item.rank).toBe(index + 1);
          expect(Number.isFinite(item.score)).toBe(true);
        });
        expect(new Set(evidence.map((item) => item.documentId)).size).toBe(evidence.length);
      }
    });
    it('fills every evidence the same way: non-empty text and a typed origin (document id; chunk id for chunks)', async () => {
      const retriever = await factory();
      const { evidence } = await retriever.retrieve({ query: { text: options.query }, topK: 10 });
      expect(evidence.length).toBeGreaterThan(0);
      for (const item of evidence) expectEvidenceShape(item);
    });
    it('returns nothing for topK 0', async () => {
      const retriever = await factory();
      const { evidence } = await retriever.retrieve({ query: { text: options.query }, topK: 0 });
      expect(evidence).toEqual([]);
    });
    it(`returns at most ${defaultTopK} results when no topK is given`, async () => {
      const retriever = await factory();
      const { evidence } = await retriever.retrieve({ query: { text: options.query } });
      expect(evidence.length).toBeGreaterThan(0);
      expect(evidence.length).toBeLessThanOrEqual(defaultTopK);
      const explicit = await retriever.retrieve({ query: { text: options.query }, topK: defaultTopK });
      expect(evidence.map((item) => item.documentId)).toEqual(explicit.evidence.map((item) => item.documentId));
    });
    it('answers an empty query with a problem, not a throw', async () => {
      const retriever = await factory();
      for (const text of ['', '   ']) {
        const result = await retriever.retrieve({ query: { text }, topK: 5 });
        expect(result.evidence).toEqual([]);
        expect(result.problems?.length ?? 0).toBeGreaterThan(0);
        for (const problem of result.problems ?? []) expect(problem.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      }
    });
    it('is stable: the same query gives the same ids', async () => {
      const retriever = await factory();
      const first = await retriever.retrieve({ query: { text: options.query }, topK: 10 });
      const second = await retriever.retrieve({ query: { text: options.query }, topK: 10 });
      expect(second.evidence.map((item) => item.documentId)).toEqual(first.evidence.map((item) => item.documentId));
    });
    it.runIf(options.expectedId !== undefined)('finds the expected document', async () => {
      const retriever = await factory();
      const { evidence } = await retriever.retrieve({ query: { text: options.query }, topK: 10 });
      expect(evidence.map((item) => item.documentId)).toContain(options.expectedId);
    });
    it('rejects with the abort reason, unchanged', async () => {
      const retriever = await factory();
      const { signal, reason } = abortedSignal();
      await expect(retriever.retrieve({ query: { text: options.query }, abortSignal: signal })).rejects.toBe(reason);
    });
  });
}

/** Checks any VectorStore: upsert/count/query/delete, exact nearest neighbour, overwrite, bad vectors, abort. */
export function describeVectorStoreContract(name: string, factory: Factory<VectorStore>, options: { dimensions?: number } = {}): void {
  const dimensions = options.dimensions ?? 4;
  const unit = (index: number) => {
    const vector = new Float32Array(dimensions);
    vector[index % dimensions] = 1;
    return vector;
  };
  describe(`VectorStore contract: ${name}`, () => {
    it('upserts, counts, finds the nearest first, overwrites and deletes', async () => {
      const store = await factory();
      expect(store.dimensions).toBe(dimensions);
      await store.upsert({ records: [0, 1, 2].map((i) => ({ id: `v${i}`, vector: unit(i), metadata: { i } })) });
      expect(await store.count()).toBe(3);
      const { matches } = await store.query({ vector: unit(1), topK: 2 });
      expect(matches).toHaveLength(2);
      expect(matches[0]?.id).toBe('v1');
      expect(matches[0]!.score).toBeGreaterThanOrEqual(matches[1]!.score);
      await store.upsert({ records: [{ id: 'v1', vector: unit(2) }] });
      expect(await store.count()).toBe(3);
      const after = await store.query({ vector: unit(1), topK: 1 });
      expect(after.matches[0]?.id).not.toBe('v1');
      await store.delete({ ids: ['v0', 'missing-id'] });
      expect(await store.count()).toBe(2);
    });
    it('returns no matches from an empty store', async () => {
      const store = await factory();
      expect((await store.query({ vector: unit(0), topK: 5 })).matches).toEqual([]);
    });
    it('rejects a vector of the wrong dimension or with NaN', async () => {
      const store = await factory();
      await expect(store.upsert({ records: [{ id: 'bad', vector: new Float32Array(dimensions + 1) }] })).rejects.toThrow(/dimension/i);
      const withNaN = unit(0);
      withNaN[0] = Number.NaN;
      await expect(store.upsert({ records: [{ id: 'nan', vector: withNaN }] })).rejects.toThrow(/NaN|finite/i);
      await expect(store.query({ vector: new Float32Array(dimensions + 2) })).rejects.toThrow(/dimension/i);
    });
    it('rejects with the abort reason, unchanged', async () => {
      const store = await factory();
      const { signal, reason } = abortedSignal();
      await expect(store.query({ vector: unit(0), abortSignal: signal })).rejects.toBe(reason);
    });
  });
}

/** Checks any Cache: miss, set/get round trip of JSON values, overwrite, optional delete/has. */
export function describeCacheContract(name: string, factory: Factory<Cache>): void {
  describe(`Cache contract: ${name}`, () => {
    it('misses, stores JSON values and overwrites', async () => {
      const cache = await factory();
      expect(await cache.get('absent')).toBeUndefined();
      const value = { texts: ['a', 'b'], usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 }, nested: [1, null, 'x'] };
      await cache.set('k1', value);
      expect(await cache.get('k1')).toEqual(value);
      await cache.set('k1', { texts: ['c'] });
      expect(await cache.get('k1')).toEqual({ texts: ['c'] });
    });
    it('does not share mutations with callers', async () => {
      const cache = await factory();
      const value = { list: [1, 2] };
      await cache.set('k2', value);
      value.list.push(3);
      expect(await cache.get('k2')).toEqual({ list: [1, 2] });
    });
    it('supports has/delete when offered', async () => {
      const cache = await factory();
      await cache.set('k3', 1);
      if (cache.has) expect(await cache.has('k3')).toBe(true);
      if (cache.delete) {
        await cache.delete('k3');
        expect(await cache.get('k3')).toBeUndefined();
      }
    });
  });
}
