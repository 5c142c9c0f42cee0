import { cosineSimilarity, dotProduct, InvalidArgumentError } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryVectorStore } from '../stores/in-memory-vector-store.js';
import { createDenseRetriever } from './dense-retriever.js';
import { createFlatIndex, type FlatSearchHit, type VectorMetric } from './flat-index.js';
import { createQuantizedFlatIndex } from './quantized-flat-index.js';

/** Independent truth: float64 brute force over the float32 inputs, ties by id. */
function referenceSearch(entries: readonly { id: string; vector: Float32Array }[], query: Float32Array, topK: number, metric: VectorMetric): FlatSearchHit[] {
  const scored = entries.map(({ id, vector }) => ({ id, score: metric === 'inner-product' ? dotProduct(vector, query) : cosineSimilarity(vector, query) }));
  scored.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return scored.slice(0, topK);
}

const vec = (...values: number[]) => Float32Array.from(values);

function gaussianSource(seed: number) {
  let state = seed;
  const uniform = () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

const coordinate = fc.oneof(fc.integer({ min: -2, max: 2 }), fc.float({ min: -1000, max: 1000, noNaN: true }), fc.float({ min: Math.fround(-1e-3), max: Math.fround(1e-3), noNaN: true }));

describe('createQuantizedFlatIndex', () => {
  it('uses the WebAssembly SIMD int8 kernel on Node 20 and reports its memory (codes ¼ of float32)', () => {
    const index = createQuantizedFlatIndex({ dimensions: 384, initialCapacity: 10 });
    expect(index.kernel).toBe('wasm-simd');
    const random = gaussianSource(5);
    index.upsert(Array.from({ length: 10 }, (_, i) => ({ id: `v${i}`, vector: Float32Array.from({ length: 384 }, random) })));
    const memory = index.memoryUsage();
    expect(memory.scannedBytes).toBe(10 * 384);
    expect(memory.floatBytes).toBe(10 * 384 * 4);
    expect(memory.totalBytes).toBe(10 * 384 + 10 * 24 + 10 * 384 * 4);
    const dropped = createQuantizedFlatIndex({ dimensions: 384, floatVectors: 'drop' });
    dropped.upsert([{ id: 'a', vector: new Float32Array(384).fill(1) }]);
    expect(dropped.memoryUsage().floatBytes).toBe(0);
  });

  it('equals a float64 brute force when the shortlist is the whole set, and in exact mode (property, both kernels and metrics, single and batched)', () => {
    const arbitrary = fc.integer({ min: 1, max: 40 }).chain((dimensions) =>
      fc.record({
        dimensions: fc.constant(dimensions),
        rows: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 50 }),
        queries: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 20 }),
        topK: fc.integer({ min: 0, max: 60 }),
        metric: fc.constantFrom<VectorMetric>('cosine', 'inner-product'),
        kernel: fc.constantFrom('wasm' as const, 'js' as const),
        blockRows: fc.integer({ min: 1, max: 40 }),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ dimensions, rows, queries, topK, metric, kernel, blockRows }) => {
        const index = createQuantizedFlatIndex({ dimensions, metric, kernel, blockRows, initialCapacity: 1, shortlist: rows.length });
        const exact = createQuantizedFlatIndex({ dimensions, metric, kernel, blockRows, initialCapacity: 1 });
        const entries = rows.map((row, i) => ({ id: `doc-${String(i).padStart(3, '0')}`, vector: Float32Array.from(row) }));
        index.upsert(entries);
        exact.upsert(entries);
        const queryVectors = queries.map((query) => Float32Array.from(query));
        const batched = index.searchBatch(queryVectors, { topK });
        const exactBatched = exact.searchBatch(queryVectors, { topK });
        queryVectors.forEach((query, q) => {
          const expected = referenceSearch(entries, query, topK, metric);
          const single = index.search(query, { topK });
          expect(single.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
          single.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 9));
          expect(batched[q]).toEqual(single);
          // 'exact' (the default) re-ranks only the rows its error bound cannot exclude, with the same result
          expect(exact.search(query, { topK })).toEqual(single);
          expect(exactBatched[q]).toEqual(single);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('the wasm and js kernels give identical results for any shortlist (exact integer sums, property)', () => {
    const arbitrary = fc.integer({ min: 1, max: 70 }).chain((dimensions) =>
      fc.record({
        dimensions: fc.constant(dimensions),
        rows: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 60 }),
        query: fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }),
        shortlist: fc.integer({ min: 1, max: 20 }),
        metric: fc.constantFrom<VectorMetric>('cosine', 'inner-product'),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ dimensions, rows, query, shortlist, metric }) => {
        const entries = rows.map((row, i) => ({ id: `r${i}`, vector: Float32Array.from(row) }));
        const wasm = createQuantizedFlatIndex({ dimensions, metric, kernel: 'wasm', shortlist, blockRows: 7 });
        const js = createQuantizedFlatIndex({ dimensions, metric, kernel: 'js', shortlist, blockRows: 7 });
        wasm.upsert(entries);
        js.upsert(entries);
        const queryVector = Float32Array.from(query);
        expect(wasm.search(queryVector, { topK: 5 })).toEqual(js.search(queryVector, { topK: 5 }));
        expect(wasm.searchBatch([queryVector, queryVector, queryVector, queryVector, queryVector], { topK: 5 })[4]).toEqual(js.search(queryVector, { topK: 5 }));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the top 10 of random Gaussian data with the default shortlist, and int8 estimates alone rank well', () => {
    const dimensions = 96;
    const random = gaussianSource(20261122);
    const entries = Array.from({ length: 4000 }, (_, i) => ({ id: `g${i}`, vector: Float32Array.from({ length: dimensions }, random) }));
    const queries = Array.from({ length: 40 }, () => Float32Array.from({ length: dimensions }, random));
    for (const metric of ['cosine', 'inner-product'] as const) {
      const index = createQuantizedFlatIndex({ dimensions, metric });
      index.upsert(entries);
      let identical = 0;
      let foundTight = 0;
      const defaults = index.searchBatch(queries, { topK: 10, shortlist: 100 });
      const tight = index.searchBatch(queries, { topK: 10, shortlist: 10 });
      queries.forEach((query, q) => {
        const expected = referenceSearch(entries, query, 10, metric).map((hit) => hit.id);
        if (JSON.stringify(defaults[q]!.map((hit) => hit.id)) === JSON.stringify(expected)) identical += 1;
        const expectedSet = new Set(expected);
        foundTight += tight[q]!.filter((hit) => expectedSet.has(hit.id)).length;
      });
      // Shortlist 100: the true top 10 survive the int8 scan on every query (exact re-ranking orders them).
      expect(identical).toBe(queries.length);
      // Exact mode: identical by construction, re-ranking far fewer rows than the whole set.
      expect(index.searchBatch(queries, { topK: 10 })).toEqual(queries.map((query) => index.search(query, { topK: 10, shortlist: entries.length })));
      expect(index.lastReranked).toBeLessThan(entries.length * queries.length * 0.2);
      // Shortlist 10 (no slack: the int8 estimates choose the 10 alone): still most of the true top 10.
      expect(foundTight / (10 * queries.length)).toBeGreaterThan(0.85);
    }
  });

  it('returns the same hits as createFlatIndex on clustered 384-d data', () => {
    const dimensions = 384;
    const random = gaussianSource(77);
    const centroids = Array.from({ length: 20 }, () => Float32Array.from({ length: dimensions }, random));
    const point = () => {
      const centroid = centroids[Math.floor(Math.abs(random() * 1e6)) % centroids.length]!;
      return Float32Array.from(centroid, (value) => value + 0.6 * random());
    };
    const entries = Array.from({ length: 3000 }, (_, i) => ({ id: `c${i}`, vector: point() }));
    const queries = Array.from({ length: 20 }, point);
    const flat = createFlatIndex({ dimensions });
    const quantized = createQuantizedFlatIndex({ dimensions });
    flat.upsert(entries);
    quantized.upsert(entries);
    expect(quantized.searchBatch(queries, { topK: 10 })).toEqual(flat.searchBatch(queries, { topK: 10 }));
  });

  it('stays exact in exact mode where int8 rounding cannot order the rows (near-duplicates 1e-6 … 1e-2 apart)', () => {
    const dimensions = 384;
    const random = gaussianSource(99);
    const base = Float32Array.from({ length: dimensions }, random);
    for (const scale of [1e-2, 1e-3, 1e-4, 1e-6]) {
      const entries = Array.from({ length: 1500 }, (_, i) => ({ id: `p${i}`, vector: Float32Array.from(base, (value) => value + random() * scale) }));
      for (const metric of ['cosine', 'inner-product'] as const) {
        const index = createQuantizedFlatIndex({ dimensions, metric });
        index.upsert(entries);
        for (let q = 0; q < 2; q += 1) {
          const query = Float32Array.from(base, (value) => value + random() * scale);
          expect(index.search(query, { topK: 10 }).map((hit) => hit.id)).toEqual(referenceSearch(entries, query, 10, metric).map((hit) => hit.id));
        }
      }
    }
  });

  it('computes integer dot products at the 32-bit limit exactly (512 dimensions of ±127 codes and full-scale queries)', () => {
    const dimensions = 512;
    // All rows are the same direction, so codes are all ±127; the query is full scale: the sums reach ~2.1e9 < 2^31.
    const row = Float32Array.from({ length: dimensions }, (_, i) => (i % 3 === 0 ? -1 : 1));
    const entries = [
      { id: 'same', vector: row },
      { id: 'opposite', vector: Float32Array.from(row, (value) => -value) },
      { id: 'half', vector: Float32Array.from(row, (value, i) => (i < dimensions / 2 ? value : -value)) },
    ];
    for (const kernel of ['wasm', 'js'] as const) {
      const index = createQuantizedFlatIndex({ dimensions, metric: 'inner-product', kernel, shortlist: 1 });
      index.upsert(entries);
      expect(index.search(row, { topK: 1 })).toEqual([{ id: 'same', score: dimensions }]);
      expect(
        index.search(
          Float32Array.from(row, (value) => -value),
          { topK: 1 },
        ),
      ).toEqual([{ id: 'opposite', score: dimensions }]);
    }
  });

  it('overwrites on upsert, deletes by moving the last row, grows, and returns copies', () => {
    const index = createQuantizedFlatIndex({ dimensions: 3, initialCapacity: 2 });
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
    for (let i = 0; i < 100; i += 1) index.upsert([{ id: `x${i}`, vector: vec(i, 1, -i) }]);
    expect(index.size).toBe(102);
    expect(index.search(vec(0, 0, 1), { topK: 1 })).toEqual([{ id: 'c', score: 1 }]);
  });

  it("with floatVectors 'drop' re-scores against dequantized rows (error within the int8 step)", () => {
    const dimensions = 64;
    const random = gaussianSource(11);
    const entries = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, vector: Float32Array.from({ length: dimensions }, random) }));
    for (const metric of ['cosine', 'inner-product'] as const) {
      const index = createQuantizedFlatIndex({ dimensions, metric, floatVectors: 'drop', shortlist: 300 });
      index.upsert(entries);
      const original = entries[7]!.vector;
      const restored = index.getVector('d7')!;
      const step = Math.max(...Array.from(original, Math.abs)) / 127;
      original.forEach((value, i) => expect(Math.abs(restored[i]! - value)).toBeLessThanOrEqual(step / 2 + 1e-6));
      const query = Float32Array.from({ length: dimensions }, random);
      const expected = referenceSearch(entries, query, 10, metric);
      const hits = index.search(query, { topK: 10 });
      const expectedScore = new Map(referenceSearch(entries, query, 300, metric).map((hit) => [hit.id, hit.score]));
      for (const hit of hits) expect(Math.abs(hit.score - expectedScore.get(hit.id)!)).toBeLessThan(metric === 'cosine' ? 0.01 : 0.1);
      const overlap = hits.filter((hit) => expected.some((item) => item.id === hit.id)).length;
      expect(overlap).toBeGreaterThanOrEqual(8);
    }
  });

  it('returns documented empty results for an empty index or topK 0, and handles zero vectors', async () => {
    const index = createQuantizedFlatIndex({ dimensions: 4 });
    expect(index.search(vec(1, 2, 3, 4))).toEqual([]);
    expect(index.searchBatch([vec(1, 2, 3, 4), vec(0, 0, 0, 1)])).toEqual([[], []]);
    expect(await index.searchAsync(vec(1, 2, 3, 4))).toEqual([]);
    index.upsert([
      { id: 'a', vector: vec(1, 0, 0, 0) },
      { id: 'zero', vector: vec(0, 0, 0, 0) },
    ]);
    expect(index.search(vec(1, 2, 3, 4), { topK: 0 })).toEqual([]);
    expect(index.searchBatch([])).toEqual([]);
    expect(index.search(vec(0, 0, 0, 0), { topK: 2 })).toEqual([
      { id: 'a', score: 0 },
      { id: 'zero', score: 0 },
    ]);
    expect(await index.searchBatchAsync([vec(-1, 0, 0, 0)], { topK: 1 })).toEqual([[{ id: 'zero', score: 0 }]]);
  });

  it('rejects bad input with InvalidArgumentError naming the argument, changing nothing', () => {
    const index = createQuantizedFlatIndex({ dimensions: 3 });
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
    expectInvalid(() => index.upsert('nope' as never), 'entries', /array/);
    expectInvalid(() => index.search(vec(1, 2)), 'query', /dimension/);
    expectInvalid(() => index.search([1, 2, 3] as unknown as Float32Array), 'query', /Float32Array/);
    expectInvalid(() => index.search(vec(Number.POSITIVE_INFINITY, 0, 0)), 'query', /NaN or Infinity/);
    expectInvalid(() => index.search(vec(1, 2, 3), { topK: -1 }), 'topK', />= 0/);
    expectInvalid(() => index.search(vec(1, 2, 3), { shortlist: 0 }), 'shortlist', /positive/);
    expectInvalid(() => index.search(vec(1, 2, 3), { shortlist: 'approximate' as never }), 'shortlist', /'exact' or a positive integer/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, floatVectors: 'drop', shortlist: 'exact' }), 'shortlist', /needs floatVectors 'keep'/);
    expectInvalid(() => index.searchBatch([vec(1, 2, 3), vec(1, 2)]), 'queries[1]', /dimension/);
    expectInvalid(() => index.delete('keep' as never), 'ids', /array/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 0 }), 'dimensions', /an integer >= 1 \(got 0\)/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 200_000 }), 'dimensions', /at most 133136/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, metric: 'l2' as VectorMetric }), 'metric', /cosine/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, shortlist: 2.5 }), 'shortlist', /positive integer/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, floatVectors: 'disk' as never }), 'floatVectors', /'keep' or 'drop'/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, kernel: 'gpu' as never }), 'kernel', /'auto', 'wasm' or 'js'/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, blockRows: 0 }), 'blockRows', /an integer >= 1/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, initialCapacity: -1 }), 'initialCapacity', /an integer >= 1 \(got -1\)/);
    // the failed calls changed nothing
    expect(index.ids()).toEqual(['keep']);
    expect(index.search(vec(1, 1, 1), { topK: 1 })).toEqual([{ id: 'keep', score: expect.closeTo(1, 12) as unknown as number }]);
  });

  it('serves a dense retriever through createInMemoryVectorStore({ quantized })', async () => {
    const embedder = createMockEmbedder({ dimensions: 32 });
    const documents = Array.from({ length: 40 }, (_, i) => ({ id: `doc${i}`, text: `document ${i} about ${['vitamin d', 'bone density', 'sleep', 'caffeine'][i % 4]} number ${i * 7}` }));
    const plain = createDenseRetriever({ embedder });
    await plain.index({ documents });
    const expected = await plain.retrieve({ query: { text: 'vitamin d and bone density' }, topK: 5 });
    for (const quantized of [true, { shortlist: 'exact' as const }, { prefilter: 'binary' as const, prefilterShortlist: 64 }]) {
      const store = createInMemoryVectorStore({ dimensions: 32, quantized });
      const retriever = createDenseRetriever({ embedder, store });
      await retriever.index({ documents });
      expect((await retriever.retrieve({ query: { text: 'vitamin d and bone density' }, topK: 5 })).evidence).toEqual(expected.evidence);
      expect(await store.count()).toBe(40);
    }
    // 'drop' keeps only the int8 codes: getVector returns the dequantized vector, not the upserted one.
    const dropped = createInMemoryVectorStore({ dimensions: 3, quantized: { floatVectors: 'drop' } });
    await dropped.upsert({ records: [{ id: 'a', vector: vec(0.3, -0.7, 0.11) }] });
    expect(dropped.getVector('a')).not.toEqual(vec(0.3, -0.7, 0.11));
    expect(() => createInMemoryVectorStore({ dimensions: 16, quantized: true, threads: 2 })).toThrow(/threads.*must be 1 with quantized/);
    expect(() => createInMemoryVectorStore({ dimensions: 16, quantized: 'int8' as never })).toThrow(/quantized.*must be a boolean or an options object/);
  });
});
