import { createMockEmbedder } from '@factkit/core/testing';
import { describeRetrieverContract, describeVectorStoreContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createDenseRetriever } from '../../src/dense/dense-retriever.js';
import { createHnswVectorStore } from '../../src/dense/hnsw-vector-store.js';
import { createInMemoryVectorStore } from '../../src/stores/in-memory-vector-store.js';

describeVectorStoreContract('hnsw (usearch, cosine)', () => createHnswVectorStore({ dimensions: 4 }));
describeVectorStoreContract('hnsw (usearch, inner product)', () => createHnswVectorStore({ dimensions: 4, metric: 'inner-product' }));

describe('createHnswVectorStore', () => {
  it('reaches high recall@10 against exact search on 2,000 random vectors, with matching scores', async () => {
    let seed = 5;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const dimensions = 32;
    const records = Array.from({ length: 2000 }, (_, i) => ({ id: `r${i}`, vector: Float32Array.from({ length: dimensions }, random) }));
    for (const metric of ['cosine', 'inner-product'] as const) {
      const hnsw = createHnswVectorStore({ dimensions, metric, expansionSearch: 128, threads: 1 });
      const exact = createInMemoryVectorStore({ dimensions, metric });
      await hnsw.upsert({ records });
      await exact.upsert({ records });
      let found = 0;
      for (let q = 0; q < 20; q += 1) {
        const vector = Float32Array.from({ length: dimensions }, random);
        const truth = (await exact.query({ vector, topK: 10 })).matches;
        const approximate = (await hnsw.query({ vector, topK: 10 })).matches;
        const truthScores = new Map(truth.map((match) => [match.id, match.score]));
        for (const match of approximate) {
          if (!truthScores.has(match.id)) continue;
          found += 1;
          expect(match.score).toBeCloseTo(truthScores.get(match.id)!, 4);
        }
      }
      expect(found / 200).toBeGreaterThanOrEqual(0.9);
    }
  });
});

// The dense retriever over the HNSW store honours the Retriever contract too.
describeRetrieverContract(
  'dense (mock embedder, HNSW store)',
  async () => {
    const embedder = createMockEmbedder({ dimensions: 64 });
    const retriever = createDenseRetriever({ embedder, store: createHnswVectorStore({ dimensions: 64 }) });
    await retriever.index({
      documents: [
        { id: 'd1', title: 'Vitamin D', text: 'Vitamin D deficiency is common in northern countries during winter.', source: { name: 'contract corpus' } },
        { id: 'd2', text: 'The Eiffel Tower is in Paris, the capital of France.' },
        { id: 'd3', text: 'Aspirin reduces the risk of heart attack in some adults.' },
        { id: 'd4', text: 'Cats sleep for most of the day.', metadata: { shelf: 'pets' } },
      ],
    });
    return retriever;
  },
  { query: 'vitamin d deficiency in winter', expectedId: 'd1' },
);
