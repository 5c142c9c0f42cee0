import { cosineSimilarity, dotProduct, InvalidArgumentError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFlatIndex, type FlatSearchHit, type VectorMetric } from './flat-index.js';

/** Independent truth: float64 brute force over the float32 inputs, ties by id. */
function referenceSearch(entries: readonly { id: string; vector: Float32Array }[], query: Float32Array, topK: number, metric: VectorMetric): FlatSearchHit[] {
  const scored = entries.map(({ id, vector }) => {
    const score = metric === 'inner-product' ? dotProduct(vector, query) : cosineSimilarity(vector, query);
    return { id, score };
  });
  scored.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return scored.slice(0, topK);
}

// Fixed seed: the property runs are the same on every machine.
fc.configureGlobal({ seed: 20261122 });

const vec = (...values: number[]) => Float32Array.from(values);

describe('createFlatIndex', () => {
  it('hand-checked cosine and inner-product example', () => {
    for (const kernel of ['wasm', 'js'] as const) {
      const cosine = createFlatIndex({ dimensions: 2, kernel });
      cosine.upsert([
        { id: 'x', vector: vec(1, 0) },
        { id: 'diag', vector: vec(3, 3) },
        { id: 'y', vector: vec(0, 2) },
      ]);
      const hits = cosine.search(vec(2, 1), { topK: 3 });
      // cos((2,1),(1,0)) = 2/√5 ≈ 0.8944; cos((2,1),(1,1)) = 3/√10 ≈ 0.9487; cos((2,1),(0,1)) = 1/√5 ≈ 0.4472
      expect(hits.map((hit) => hit.id)).toEqual(['diag', 'x', 'y']);
      expect(hits[0]!.score).toBeCloseTo(3 / Math.sqrt(10), 12);
      expect(hits[1]!.score).toBeCloseTo(2 / Math.sqrt(5), 12);
      expect(hits[2]!.score).toBeCloseTo(1 / Math.sqrt(5), 12);

      const inner = createFlatIndex({ dimensions: 2, metric: 'inner-product', kernel });
      inner.upsert([
        { id: 'x', vector: vec(1, 0) },
        { id: 'diag', vector: vec(3, 3) },
        { id: 'y', vector: vec(0, 2) },
      ]);
      // (2,1)·(3,3) = 9; ·(1,0) = 2; ·(0,2) = 2 → tie between x and y broken by id
      expect(inner.search(vec(2, 1), { topK: 3 })).toEqual([
        { id: 'diag', score: 9 },
        { id: 'x', score: 2 },
        { id: 'y', score: 2 },
      ]);
    }
  });

  it('uses the WebAssembly SIMD kernel on Node 20', () => {
    expect(createFlatIndex({ dimensions: 8 }).kernel).toBe('wasm-simd');
  });

  it('matches a float64 brute force exactly (property, both kernels, single and batched)', () => {
    const entryArb = fc.integer({ min: 1, max: 13 }).chain((dimensions) =>
      fc.record({
        dimensions: fc.constant(dimensions),
        // small integer grid values create many exact ties and zero vectors; scaled floats cover the rest
        rows: fc.array(fc.array(fc.oneof(fc.integer({ min: -2, max: 2 }), fc.float({ min: -1000, max: 1000, noNaN: true })), { minLength: dimensions, maxLength: dimensions }), {
          minLength: 1,
          maxLength: 60,
        }),
        queries: fc.array(fc.array(fc.oneof(fc.integer({ min: -2, max: 2 }), fc.float({ min: -1000, max: 1000, noNaN: true })), { minLength: dimensions, maxLength: dimensions }), {
          minLength: 1,
          maxLength: 20,
        }),
        topK: fc.integer({ min: 0, max: 70 }),
        metric: fc.constantFrom<VectorMetric>('cosine', 'inner-product'),
        kernel: fc.constantFrom('wasm' as const, 'js' as const),
        blockRows: fc.integer({ min: 1, max: 40 }),
        singleQueryScan: fc.constantFrom('bfloat16' as const, 'float32' as const),
      }),
    );
    fc.assert(
      fc.property(entryArb, ({ dimensions, rows, queries, topK, metric, kernel, blockRows, singleQueryScan }) => {
        const index = createFlatIndex({ dimensions, metric, kernel, blockRows, singleQueryScan, initialCapacity: 1 });
        const entries = rows.map((row, i) => ({ id: `doc-${String(i).padStart(3, '0')}`, vector: Float32Array.from(row) }));
        index.upsert(entries);
        const queryVectors = queries.map((query) => Float32Array.from(query));
        const batched = index.searchBatch(queryVectors, { topK });
        queryVectors.forEach((query, q) => {
          const expected = referenceSearch(entries, query, topK, metric);
          const single = index.search(query, { topK });
          expect(single.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
          single.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 9));
          expect(batched[q]).toEqual(single);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('finds the exact top 10 among 3,000 near-duplicate 384-d vectors (ties within float32 noise)', () => {
    const dimensions = 384;
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const base = Float32Array.from({ length: dimensions }, random);
    // every row is base plus a perturbation of about 1e-6: float32 dot products alone cannot order them
    const entries = Array.from({ length: 3000 }, (_, i) => ({ id: `n${i}`, vector: Float32Array.from(base, (value) => value + random() * 2e-6) }));
    const index = createFlatIndex({ dimensions });
    index.upsert(entries);
    for (const metric of ['cosine', 'inner-product'] as const) {
      for (const singleQueryScan of ['bfloat16', 'float32'] as const) {
        const metricIndex = createFlatIndex({ dimensions, metric, singleQueryScan });
        metricIndex.upsert(entries);
        const query = Float32Array.from(base, (value) => value + random() * 1e-3);
        const expected = referenceSearch(entries, query, 10, metric).map((hit) => hit.id);
        expect(metricIndex.search(query, { topK: 10 }).map((hit) => hit.id)).toEqual(expected);
        expect(metricIndex.searchBatch([query, query], { topK: 10 }).map((hits) => hits.map((hit) => hit.id))).toEqual([expected, expected]);
      }
    }
    expect(index.size).toBe(3000);
  });

  it('stays exact where bfloat16 rounding reorders close scores (perturbations of 1e-2 … 1e-4)', () => {
    const dimensions = 384;
    let seed = 99;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const base = Float32Array.from({ length: dimensions }, random);
    for (const scale of [1e-2, 3e-3, 1e-3, 1e-4]) {
      const entries = Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}`, vector: Float32Array.from(base, (value) => value + random() * scale) }));
      for (const metric of ['cosine', 'inner-product'] as const) {
        const index = createFlatIndex({ dimensions, metric, singleQueryScan: 'bfloat16' });
        index.upsert(entries);
        for (let q = 0; q < 3; q += 1) {
          const query = Float32Array.from(base, (value) => value + random() * scale);
          expect(index.search(query, { topK: 10 }).map((hit) => hit.id)).toEqual(referenceSearch(entries, query, 10, metric).map((hit) => hit.id));
        }
      }
    }
  });

  it('overwrites on upsert, deletes by moving the last row, and returns copies', () => {
    const index = createFlatIndex({ dimensions: 3, initialCapacity: 2 });
    index.upsert([
      { id: 'a', vector: vec(1, 0, 0) },
      { id: 'b', vector: vec(0, 1, 0) },
      { id: 'c', vector: vec(0, 0, 1) },
    ]);
    expect(index.size).toBe(3);
    index.upsert([{ id: 'a', vector: vec(0, 0, 5) }]);
    expect(index.size).toBe(3);
    expect(Array.from(index.getVector('a')!)).toEqual([0, 0, 5]);
    expect(index.delete(['a', 'missing'])).toBe(1);
    expect(index.ids()).toEqual(['c', 'b']);
    expect(index.has('a')).toBe(false);
    expect(index.search(vec(0, 0, 1), { topK: 5 }).map((hit) => hit.id)).toEqual(['c', 'b']);
    const copy = index.getVector('c')!;
    copy[2] = 99;
    expect(index.getVector('c')![2]).toBe(1);
  });

  it('returns documented empty results for an empty index or topK 0', async () => {
    const index = createFlatIndex({ dimensions: 4 });
    expect(index.search(vec(1, 2, 3, 4))).toEqual([]);
    expect(index.searchBatch([vec(1, 2, 3, 4), vec(0, 0, 0, 1)])).toEqual([[], []]);
    expect(await index.searchAsync(vec(1, 2, 3, 4))).toEqual([]);
    index.upsert([{ id: 'a', vector: vec(1, 0, 0, 0) }]);
    expect(index.search(vec(1, 2, 3, 4), { topK: 0 })).toEqual([]);
    expect(index.searchBatch([])).toEqual([]);
  });

  it('rejects bad input with InvalidArgumentError naming the argument, changing nothing', () => {
    const index = createFlatIndex({ dimensions: 3 });
    index.upsert([{ id: 'keep', vector: vec(1, 1, 1) }]);
    const expectInvalid = (run: () => unknown, argument: string, pattern: RegExp) => {
      try {
        run();
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        expect((error as InvalidArgumentError).argument).toBe(argument);
        expect((error as Error).message).toMatch(pattern);
        return;
      }
      throw new Error('expected an InvalidArgumentError');
    };
    expectInvalid(
      () =>
        index.upsert([
          { id: 'ok', vector: vec(1, 2, 3) },
          { id: 'nan', vector: vec(1, Number.NaN, 3) },
        ]),
      'entries[1].vector',
      /NaN/,
    );
    expectInvalid(() => index.upsert([{ id: 'short', vector: vec(1, 2) }]), 'entries[0].vector', /2 dimensions, expected 3/);
    expectInvalid(
      () =>
        index.upsert([
          { id: 'dup', vector: vec(1, 2, 3) },
          { id: 'dup', vector: vec(3, 2, 1) },
        ]),
      'entries[1].id',
      /duplicates id "dup"/,
    );
    expectInvalid(() => index.upsert([{ id: '', vector: vec(1, 2, 3) }]), 'entries[0].id', /non-empty/);
    expectInvalid(() => index.search(vec(1, 2)), 'query', /dimension/);
    expectInvalid(() => index.search(vec(Number.POSITIVE_INFINITY, 0, 0)), 'query', /NaN or Infinity/);
    expectInvalid(() => index.search(vec(1, 2, 3), { topK: -1 }), 'topK', />= 0/);
    expectInvalid(() => index.searchBatch([vec(1, 2, 3), vec(1, 2)]), 'queries[1]', /dimension/);
    expectInvalid(() => createFlatIndex({ dimensions: 0 }), 'dimensions', /an integer >= 1 \(got 0\)/);
    expectInvalid(() => createFlatIndex({ dimensions: 3, metric: 'l2' as VectorMetric }), 'metric', /cosine/);
    expectInvalid(() => createFlatIndex({ dimensions: 3, threads: 0 }), 'threads', /1 to 64/);
    // the failed calls changed nothing
    expect(index.ids()).toEqual(['keep']);
  });

  it('gives the same results with two threads (workers over shared memory) as single-threaded', async () => {
    const dimensions = 37;
    let seed = 3;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const entries = Array.from({ length: 500 }, (_, i) => ({ id: `r${i}`, vector: Float32Array.from({ length: dimensions }, random) }));
    const queries = Array.from({ length: 21 }, () => Float32Array.from({ length: dimensions }, random));
    const threaded = createFlatIndex({ dimensions, threads: 2, blockRows: 16 });
    const single = createFlatIndex({ dimensions, blockRows: 16 });
    threaded.upsert(entries.slice(0, 200));
    single.upsert(entries.slice(0, 200));
    try {
      expect(threaded.threads).toBe(2);
      expect(await threaded.searchBatchAsync(queries, { topK: 7 })).toEqual(single.searchBatch(queries, { topK: 7 }));
      // growing the matrix moves it to a new memory; workers must follow
      threaded.upsert(entries.slice(200));
      single.upsert(entries.slice(200));
      expect(await threaded.searchAsync(queries[0]!, { topK: 12 })).toEqual(single.search(queries[0]!, { topK: 12 }));
      expect(await threaded.searchBatchAsync(queries, { topK: 3 })).toEqual(queries.map((query) => referenceSearch(entries, query, 3, 'cosine').map((hit) => ({ id: hit.id, score: expect.closeTo(hit.score, 12) as unknown as number }))));
    } finally {
      await threaded.close();
    }
  });
});
