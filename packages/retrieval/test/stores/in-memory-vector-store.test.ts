import { describeVectorStoreContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createInMemoryVectorStore } from '../../src/stores/in-memory-vector-store.js';

describeVectorStoreContract('in-memory (cosine)', () => createInMemoryVectorStore({ dimensions: 4 }));
describeVectorStoreContract('in-memory (inner product)', () => createInMemoryVectorStore({ dimensions: 4, metric: 'inner-product' }));
describeVectorStoreContract('in-memory (384-d)', () => createInMemoryVectorStore({ dimensions: 384 }), { dimensions: 384 });
describeVectorStoreContract('in-memory int8 (quantized)', () => createInMemoryVectorStore({ dimensions: 4, quantized: true }));

describe('createInMemoryVectorStore', () => {
  it('names itself and the argument when dimensions is missing, float32 or int8', () => {
    for (const quantized of [false, true]) {
      expect(() => createInMemoryVectorStore({ quantized } as never)).toThrow(/createInMemoryVectorStore: argument "dimensions" must be an integer >= 1/);
    }
  });

  it('keeps metadata, copies it, and drops it on delete or on an upsert without metadata', async () => {
    const store = createInMemoryVectorStore({ dimensions: 2 });
    const metadata = { tags: ['a'] };
    await store.upsert({ records: [{ id: 'x', vector: Float32Array.from([1, 0]), metadata }] });
    metadata.tags.push('mutated');
    expect((await store.query({ vector: Float32Array.from([1, 0]) })).matches).toEqual([{ id: 'x', score: 1, metadata: { tags: ['a'] } }]);
    await store.upsert({ records: [{ id: 'x', vector: Float32Array.from([0, 1]) }] });
    expect((await store.query({ vector: Float32Array.from([0, 1]) })).matches).toEqual([{ id: 'x', score: 1 }]);
    expect(Array.from(store.getVector('x')!)).toEqual([0, 1]);
  });

  it('rejects duplicate ids in one upsert, naming the record, and writes nothing', async () => {
    const store = createInMemoryVectorStore({ dimensions: 2 });
    await expect(
      store.upsert({
        records: [
          { id: 'a', vector: Float32Array.from([1, 0]) },
          { id: 'a', vector: Float32Array.from([0, 1]) },
        ],
      }),
    ).rejects.toThrow(/records\[1\]\.id.*duplicates id "a"/);
    expect(await store.count()).toBe(0);
    await expect(store.upsert({ records: [{ id: 'f', vector: Float32Array.from([1, 0]), metadata: { callback: () => 1 } }] })).rejects.toThrow(/records\[0\]\.metadata/);
    await expect(store.query({ vector: Float32Array.from([1, 0]), topK: 1.5 })).rejects.toThrow(/topK/);
  });

  it('answers the same with two threads', async () => {
    const threaded = createInMemoryVectorStore({ dimensions: 3, threads: 2 });
    const single = createInMemoryVectorStore({ dimensions: 3 });
    const records = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, vector: Float32Array.from([Math.sin(i), Math.cos(i), (i % 7) / 7]) }));
    await threaded.upsert({ records });
    await single.upsert({ records });
    try {
      const vector = Float32Array.from([0.3, -0.2, 0.9]);
      expect(await threaded.query({ vector, topK: 5 })).toEqual(await single.query({ vector, topK: 5 }));
    } finally {
      await threaded.close();
    }
  });
});

describe('createInMemoryVectorStore with threads', () => {
  it('lets writes and queries overlap without errors (they are serialized)', async () => {
    const store = createInMemoryVectorStore({ dimensions: 3, threads: 2 });
    try {
      const records = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, vector: Float32Array.from([i, 1, -i]) }));
      const vector = Float32Array.from([1, 0, 0]);
      const [, first, , second] = await Promise.all([store.upsert({ records: records.slice(0, 20) }), store.query({ vector, topK: 3 }), store.upsert({ records: records.slice(20) }), store.query({ vector, topK: 3 })]);
      expect(first.matches.map((match) => match.id)).toEqual(['r19', 'r18', 'r17']);
      expect(second.matches.map((match) => match.id)).toEqual(['r39', 'r38', 'r37']);
      await store.delete({ ids: ['r39'] });
      expect(await store.count()).toBe(39);
    } finally {
      await store.close();
    }
  });
});
