import { InvalidArgumentError, type Embedder } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createInMemoryVectorStore } from '../stores/in-memory-vector-store.js';
import { createDenseRetriever } from './dense-retriever.js';

const documents = [
  { id: 'd1', title: 'Vitamin D', text: 'Vitamin D deficiency is common in northern countries during winter.' },
  { id: 'd2', text: 'The Eiffel Tower is in Paris, the capital of France.' },
  { id: 'd3', text: 'Aspirin reduces the risk of heart attack in some adults.' },
  { id: 'd4', text: 'Cats sleep for most of the day.', metadata: { source: 'pets' } },
];

/** An embedder with hand-set vectors: each text maps to a fixed 3-d vector, so expected rankings are known. */
function createTableEmbedder(table: Record<string, number[]>, options: { failOn?: string; nanOn?: string } = {}): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: 'table',
    dimensions: 3,
    calls,
    async embed({ texts, abortSignal }) {
      abortSignal?.throwIfAborted();
      calls.push([...texts]);
      if (options.failOn && texts.includes(options.failOn)) throw new Error('embedding service unavailable');
      return {
        embeddings: texts.map((text) => (text === options.nanOn ? Float32Array.from([Number.NaN, 0, 0]) : Float32Array.from(table[text] ?? [0, 0, 1]))),
      };
    },
  };
}

describeRetrieverContract(
  'dense (mock embedder, in-memory store)',
  async () => {
    const retriever = createDenseRetriever({ embedder: createMockEmbedder({ dimensions: 64 }) });
    await retriever.index({ documents });
    return retriever;
  },
  { query: 'vitamin d deficiency in winter', expectedId: 'd1' },
);

describeRetrieverContract(
  'dense (mock embedder, int8 store: createInMemoryVectorStore({ quantized: true }))',
  async () => {
    const retriever = createDenseRetriever({ embedder: createMockEmbedder({ dimensions: 64 }), store: createInMemoryVectorStore({ dimensions: 64, quantized: true }) });
    await retriever.index({ documents });
    return retriever;
  },
  { query: 'vitamin d deficiency in winter', expectedId: 'd1' },
);

describe('createDenseRetriever', () => {
  it('ranks by cosine of hand-set vectors and returns text, the typed origin and the user metadata', async () => {
    const embedder = createTableEmbedder({ 'A. alpha': [1, 0, 0], beta: [0.6, 0.8, 0], gamma: [0, 1, 0], query: [1, 1, 0] });
    const retriever = createDenseRetriever({ embedder });
    const result = await retriever.index({
      documents: [
        { id: 'a', title: 'A', text: 'alpha', source: { name: 'Greek', license: 'CC0' }, metadata: { year: 2020 } },
        { id: 'b', text: 'beta' },
        { id: 'g', text: 'gamma' },
      ],
    });
    expect(result).toEqual({ indexed: 3, problems: [] });
    const { evidence } = await retriever.retrieve({ query: { text: 'query' }, topK: 3 });
    // cos((1,1),(0.6,0.8)) = 1.4/√2 ≈ 0.98995; alpha and gamma tie at 1/√2, broken by id
    expect(evidence.map((item) => item.documentId)).toEqual(['b', 'a', 'g']);
    expect(evidence[0]!.score).toBeCloseTo(1.4 / Math.SQRT2, 6);
    expect(evidence[1]).toEqual({
      documentId: 'a',
      text: 'alpha',
      score: expect.closeTo(Math.SQRT1_2, 6),
      rank: 2,
      origin: { documentId: 'a', title: 'A', source: { name: 'Greek', license: 'CC0' } },
      metadata: { year: 2020 },
    });
    expect(evidence[0]).toMatchObject({ origin: { documentId: 'b' } });
    expect(evidence[0]!.origin).toEqual({ documentId: 'b' });
    expect(embedder.calls.at(-1)).toEqual(['query']);
  });

  it('uses query.vector when given instead of embedding the text (HyDE mean vectors)', async () => {
    const embedder = createTableEmbedder({ alpha: [1, 0, 0], gamma: [0, 1, 0] });
    const retriever = createDenseRetriever({ embedder });
    await retriever.index({
      documents: [
        { id: 'a', text: 'alpha' },
        { id: 'g', text: 'gamma' },
      ],
    });
    const before = embedder.calls.length;
    const { evidence } = await retriever.retrieve({ query: { text: 'alpha', vector: Float32Array.from([0, 2, 0]) }, topK: 1 });
    expect(evidence.map((item) => item.documentId)).toEqual(['g']);
    expect(embedder.calls.length).toBe(before);
  });

  it('reports per-document problems and keeps indexing the rest', async () => {
    const embedder = createTableEmbedder({ ok: [1, 0, 0], fine: [0, 1, 0] }, { failOn: 'boom', nanOn: 'nan' });
    const retriever = createDenseRetriever({ embedder, batchSize: 1 });
    const progress: number[] = [];
    const result = await retriever.index({
      documents: [
        { id: 'x1', text: 'ok' },
        { id: 'x1', text: 'again' },
        { id: 'x2', text: '   ' },
        { id: 'x3', text: 'boom' },
        { id: 'x4', text: 'nan' },
        { id: 'x5', text: 'fine' },
      ],
      onProgress: ({ completed }) => progress.push(completed),
    });
    expect(result.indexed).toBe(2);
    expect(result.problems.map((problem) => [problem.index, problem.code])).toEqual([
      [1, 'duplicate-id'],
      [2, 'empty-text'],
      [3, 'embedding-failed'],
      [4, 'bad-embedding'],
    ]);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(await retriever.store.count()).toBe(2);
  });

  it('gives documented empty results for an empty store or an empty query', async () => {
    const retriever = createDenseRetriever({ embedder: createMockEmbedder() });
    expect((await retriever.retrieve({ query: { text: 'anything' } })).evidence).toEqual([]);
    await retriever.index({ documents });
    const empty = await retriever.retrieve({ query: { text: '  ' } });
    expect(empty.evidence).toEqual([]);
    expect(empty.problems).toEqual([{ code: 'empty-query', message: expect.stringMatching(/empty query/) }]);
  });

  it('rejects a store of the wrong dimension, a malformed query vector and a bad topK', async () => {
    const embedder = createMockEmbedder({ dimensions: 8 });
    expect(() => createDenseRetriever({ embedder, store: createInMemoryVectorStore({ dimensions: 9 }) })).toThrow(/store.*9 dimensions/);
    const retriever = createDenseRetriever({ embedder });
    await retriever.index({ documents });
    const error = await retriever.retrieve({ query: { text: 'x', vector: new Float32Array(3) } }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error) && error.argument).toBe('query.vector');
    const nan = new Float32Array(8).fill(Number.NaN);
    await expect(retriever.retrieve({ query: { text: 'x', vector: nan } })).rejects.toThrow(/finite/);
    await expect(retriever.retrieve({ query: { text: 'x' }, topK: -2 })).rejects.toThrow(/topK/);
  });

  it('rethrows the abort reason unchanged while indexing', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const retriever = createDenseRetriever({ embedder: createMockEmbedder() });
    await expect(retriever.index({ documents, abortSignal: controller.signal })).rejects.toBe(reason);
  });
});
