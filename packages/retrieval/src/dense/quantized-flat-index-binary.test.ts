import { cosineSimilarity, dotProduct, InvalidArgumentError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlatSearchHit, VectorMetric } from './flat-index.js';
import { createInt8Kernel } from './kernel/load-int8-kernel.js';
import { createQuantizedFlatIndex } from './quantized-flat-index.js';

/** Independent truth: float64 brute force over the float32 inputs, ties by id. */
function referenceSearch(entries: readonly { id: string; vector: Float32Array }[], query: Float32Array, topK: number, metric: VectorMetric): FlatSearchHit[] {
  const scored = entries.map(({ id, vector }) => ({ id, score: metric === 'inner-product' ? dotProduct(vector, query) : cosineSimilarity(vector, query) }));
  scored.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return scored.slice(0, topK);
}

/** Independent first stage: the `keep` entries whose sign patterns differ from the query's in the fewest positions (ties: earlier entry). */
function hammingShortlist(entries: readonly { id: string; vector: Float32Array }[], query: Float32Array, keep: number) {
  const distance = (vector: Float32Array) => vector.reduce((sum, value, i) => sum + (value > 0 !== (query[i] as number) > 0 ? 1 : 0), 0);
  return entries
    .map((entry, position) => ({ entry, position, distance: distance(entry.vector) }))
    .sort((x, y) => x.distance - y.distance || x.position - y.position)
    .slice(0, keep)
    .map(({ entry }) => entry);
}

const coordinate = fc.oneof(fc.integer({ min: -2, max: 2 }), fc.float({ min: -1000, max: 1000, noNaN: true }), fc.float({ min: Math.fround(-1e-3), max: Math.fround(1e-3), noNaN: true }));

describe("createQuantizedFlatIndex({ prefilter: 'binary' })", () => {
  it('hamming: wasm and js kernels give popcount(row xor query) per row and its histogram', () => {
    for (const kind of ['wasm', 'js'] as const) {
      for (const bstride of [8, 16, 48]) {
        const kernel = createInt8Kernel(1 << 16, kind);
        const u8 = new Uint8Array(kernel.buffer);
        const rows = 7;
        const codes = 4096;
        const query = 1024;
        const out = 2048;
        const histogram = 0;
        for (let i = 0; i < rows * bstride; i += 1) u8[codes + i] = (i * 131 + 7) % 256;
        for (let i = 0; i < bstride; i += 1) u8[query + i] = (i * 29 + 3) % 256;
        new Int32Array(kernel.buffer).fill(0, 0, 8 * bstride + 1);
        kernel.hamming(codes, rows, bstride, query, out, histogram);
        const expectedHistogram = new Map<number, number>();
        for (let r = 0; r < rows; r += 1) {
          let distance = 0;
          for (let k = 0; k < bstride; k += 1) {
            let x = (u8[codes + r * bstride + k] as number) ^ (u8[query + k] as number);
            while (x) {
              distance += x & 1;
              x >>= 1;
            }
          }
          expect(new Uint16Array(kernel.buffer)[out / 2 + r]).toBe(distance);
          expectedHistogram.set(distance, (expectedHistogram.get(distance) ?? 0) + 1);
        }
        for (let d = 0; d <= 8 * bstride; d += 1) expect(new Int32Array(kernel.buffer)[d]).toBe(expectedHistogram.get(d) ?? 0);
      }
    }
  });

  it('equals a float64 brute force when the binary shortlist holds every row (property: both kernels and metrics, upserts, deletes, growth)', () => {
    const arbitrary = fc.integer({ min: 1, max: 140 }).chain((dimensions) =>
      fc.record({
        dimensions: fc.constant(dimensions),
        rows: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 40 }),
        queries: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 8 }),
        deletions: fc.array(fc.nat({ max: 39 }), { maxLength: 10 }),
        topK: fc.integer({ min: 0, max: 45 }),
        metric: fc.constantFrom<VectorMetric>('cosine', 'inner-product'),
        kernel: fc.constantFrom('wasm' as const, 'js' as const),
        shortlist: fc.constantFrom<number | 'exact'>('exact', 40),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ dimensions, rows, queries, deletions, topK, metric, kernel, shortlist }) => {
        const index = createQuantizedFlatIndex({ dimensions, metric, kernel, initialCapacity: 1, prefilter: 'binary', prefilterShortlist: 40, shortlist });
        let entries = rows.map((row, i) => ({ id: `doc-${String(i).padStart(3, '0')}`, vector: Float32Array.from(row) }));
        index.upsert(entries);
        const removed = new Set(deletions.map((d) => `doc-${String(d).padStart(3, '0')}`));
        index.delete([...removed]);
        entries = entries.filter((entry) => !removed.has(entry.id));
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
      { numRuns: 120 },
    );
  });

  it('with a smaller binary shortlist, returns the exact top k of the rows nearest in Hamming distance (property, independent first stage)', () => {
    const arbitrary = fc.integer({ min: 1, max: 70 }).chain((dimensions) =>
      fc.record({
        dimensions: fc.constant(dimensions),
        rows: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 50 }),
        query: fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }),
        keep: fc.integer({ min: 1, max: 30 }),
        topK: fc.integer({ min: 1, max: 10 }),
        metric: fc.constantFrom<VectorMetric>('cosine', 'inner-product'),
        kernel: fc.constantFrom('wasm' as const, 'js' as const),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ dimensions, rows, query, keep, topK, metric, kernel }) => {
        const index = createQuantizedFlatIndex({ dimensions, metric, kernel, initialCapacity: 3, prefilter: 'binary' });
        const entries = rows.map((row, i) => ({ id: `doc-${String(i).padStart(3, '0')}`, vector: Float32Array.from(row) }));
        index.upsert(entries);
        const queryVector = Float32Array.from(query);
        const candidates = hammingShortlist(entries, queryVector, Math.max(keep, topK));
        const expected = referenceSearch(candidates, queryVector, topK, metric);
        const hits = index.search(queryVector, { topK, prefilterShortlist: keep });
        expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
      }),
      { numRuns: 150 },
    );
  });

  it('reports the binary codes in memoryUsage (48 bytes per 384-d row) and its settings', () => {
    const index = createQuantizedFlatIndex({ dimensions: 384, prefilter: 'binary', prefilterShortlist: 100, floatVectors: 'drop' });
    index.upsert(Array.from({ length: 5 }, (_, i) => ({ id: `v${i}`, vector: Float32Array.from({ length: 384 }, (_, k) => Math.sin(i * 7 + k)) })));
    const memory = index.memoryUsage();
    expect(memory.prefilterBytes).toBe(5 * 48);
    expect(memory.totalBytes).toBe(5 * 384 + 5 * 24 + 5 * 48);
    expect(index.prefilter).toBe('binary');
    expect(index.prefilterShortlist).toBe(100);
    expect(createQuantizedFlatIndex({ dimensions: 4 }).memoryUsage().prefilterBytes).toBe(0);
  });

  it('rejects bad prefilter options with InvalidArgumentError naming the argument', () => {
    const index = createQuantizedFlatIndex({ dimensions: 3, prefilter: 'binary' });
    index.upsert([{ id: 'keep', vector: Float32Array.from([1, -1, 1]) }]);
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
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, prefilter: 'pq' as never }), 'prefilter', /'none' or 'binary'/);
    expectInvalid(() => createQuantizedFlatIndex({ dimensions: 3, prefilterShortlist: 0 }), 'prefilterShortlist', /an integer >= 1/);
    expectInvalid(() => index.search(Float32Array.from([1, 1, 1]), { prefilterShortlist: 2.5 }), 'prefilterShortlist', /an integer >= 1/);
    expectInvalid(() => index.searchBatch([Float32Array.from([1, 1, 1])], { prefilterShortlist: -3 }), 'prefilterShortlist', /an integer >= 1/);
    expect(index.search(Float32Array.from([1, -1, 1]), { topK: 1 }).map((hit) => hit.id)).toEqual(['keep']);
  });
});
