import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptDataError, FactkitError, InvalidArgumentError } from '@factkit/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileVectorSource, writeVectorFile } from './file-vector-source.js';
import { createQuantizedFlatIndex, type VectorRowSource } from './quantized-flat-index.js';

const directory = mkdtempSync(join(tmpdir(), 'factkit-vector-file-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let fileCount = 0;
const nextPath = () => join(directory, `rows-${(fileCount += 1)}.f32`);

const coordinate = fc.oneof(fc.integer({ min: -2, max: 2 }), fc.float({ min: -1000, max: 1000, noNaN: true }), fc.float({ min: Math.fround(-1e-3), max: Math.fround(1e-3), noNaN: true }));

describe('writeVectorFile / createFileVectorSource', () => {
  it('reads back any requested rows, in request order, adjacent or not', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 9 })
          .chain((dimensions) => fc.tuple(fc.constant(dimensions), fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 30 }))),
        ([dimensions, rows, picks]) => {
          const path = nextPath();
          const vectors = rows.map((row) => Float32Array.from(row));
          expect(writeVectorFile(path, vectors, { dimensions })).toBe(vectors.length);
          const source = createFileVectorSource(path, { dimensions });
          try {
            expect(source.rows).toBe(vectors.length);
            const wanted = Int32Array.from(picks.map((pick) => pick % vectors.length));
            const out = new Float32Array(wanted.length * dimensions + 3).fill(-7);
            source.read(wanted, wanted.length, out);
            wanted.forEach((row, k) => expect(Array.from(out.subarray(k * dimensions, (k + 1) * dimensions))).toEqual(Array.from(vectors[row] as Float32Array)));
            expect(Array.from(out.subarray(wanted.length * dimensions))).toEqual([-7, -7, -7]);
          } finally {
            source.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads a run of adjacent rows with one positioned read', () => {
    const path = nextPath();
    writeVectorFile(
      path,
      Array.from({ length: 10 }, (_, r) => Float32Array.of(r, -r)),
      { dimensions: 2 },
    );
    const source = createFileVectorSource(path, { dimensions: 2 });
    const out = new Float32Array(12);
    source.read(Int32Array.of(2, 3, 4, 7, 8, 0), 6, out);
    expect(Array.from(out)).toEqual([2, -2, 3, -3, 4, -4, 7, -7, 8, -8, 0, -0]);
    expect(source.reads).toBe(3);
    source.close();
    expect(() => source.read(Int32Array.of(0), 1, out)).toThrow(InvalidArgumentError);
  });

  it('typed errors: truncated file, other dimensions, rows outside the file, short output, bad vectors', () => {
    const path = nextPath();
    writeVectorFile(path, [Float32Array.of(1, 2, 3), Float32Array.of(4, 5, 6)], { dimensions: 3 });
    expect(() => createFileVectorSource(path, { dimensions: 4 })).toThrow(CorruptDataError);
    const truncated = nextPath();
    writeFileSync(truncated, new Uint8Array(3 * 4 * 2 - 1));
    expect(() => createFileVectorSource(truncated, { dimensions: 3 })).toThrow(/not a whole number/);
    expect(() => createFileVectorSource(path, { dimensions: 0 })).toThrow(InvalidArgumentError);
    const source = createFileVectorSource(path, { dimensions: 3 });
    expect(() => source.read(Int32Array.of(2), 1, new Float32Array(3))).toThrow(/outside the file's 2 rows/);
    expect(() => source.read(Int32Array.of(0, 1), 2, new Float32Array(5))).toThrow(InvalidArgumentError);
    source.close();
    expect(() => writeVectorFile(nextPath(), [Float32Array.of(1, 2)], { dimensions: 3 })).toThrow(InvalidArgumentError);
    expect(() => writeVectorFile(nextPath(), [Float32Array.of(1, Number.NaN, 3)], { dimensions: 3 })).toThrow(InvalidArgumentError);
  });
});

describe('createQuantizedFlatIndex({ floatVectors: row source })', () => {
  it('equals the in-memory index (same hits and scores) under upserts and deletes, prefilter none and binary', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }).chain((dimensions) =>
          fc.record({
            dimensions: fc.constant(dimensions),
            vectors: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 60 }),
            deletes: fc.array(fc.nat(), { maxLength: 15 }),
            queries: fc.array(fc.array(coordinate, { minLength: dimensions, maxLength: dimensions }), { minLength: 1, maxLength: 4 }),
            topK: fc.integer({ min: 1, max: 12 }),
            metric: fc.constantFrom('cosine' as const, 'inner-product' as const),
            prefilter: fc.constantFrom('none' as const, 'binary' as const),
            prefilterShortlist: fc.integer({ min: 1, max: 70 }),
            batches: fc.integer({ min: 1, max: 4 }),
          }),
        ),
        ({ dimensions, vectors, deletes, queries, topK, metric, prefilter, prefilterShortlist, batches }) => {
          const entries = vectors.map((row, r) => ({ id: `d${r}`, vector: Float32Array.from(row) }));
          const path = nextPath();
          writeVectorFile(
            path,
            entries.map((entry) => entry.vector),
            { dimensions },
          );
          const source = createFileVectorSource(path, { dimensions });
          try {
            const common = { dimensions, metric, prefilter, prefilterShortlist, initialCapacity: 2, kernel: 'js' as const };
            const memory = createQuantizedFlatIndex(common);
            const fromFile = createQuantizedFlatIndex({ ...common, floatVectors: source });
            expect(fromFile.floatVectors).toBe('source');
            const per = Math.ceil(entries.length / batches);
            for (let start = 0; start < entries.length; start += per) {
              memory.upsert(entries.slice(start, start + per));
              fromFile.upsert(entries.slice(start, start + per));
            }
            const gone = deletes.map((pick) => `d${pick % entries.length}`);
            expect(fromFile.delete(gone)).toBe(memory.delete(gone));
            const queryVectors = queries.map((query) => Float32Array.from(query));
            expect(fromFile.searchBatch(queryVectors, { topK })).toEqual(memory.searchBatch(queryVectors, { topK }));
            for (const query of queryVectors) expect(fromFile.search(query, { topK, shortlist: 3 })).toEqual(memory.search(query, { topK, shortlist: 3 }));
            for (const id of memory.ids()) expect(fromFile.getVector(id)).toEqual(memory.getVector(id));
            expect(fromFile.memoryUsage().floatBytes).toBe(0);
          } finally {
            source.close();
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('typed errors: source of other dimensions, rows beyond the source, replacing a vector', () => {
    const path = nextPath();
    writeVectorFile(path, [Float32Array.of(1, 0), Float32Array.of(0, 1)], { dimensions: 2 });
    const source = createFileVectorSource(path, { dimensions: 2 });
    expect(() => createQuantizedFlatIndex({ dimensions: 3, floatVectors: source })).toThrow(InvalidArgumentError);
    expect(() => createQuantizedFlatIndex({ dimensions: 2, floatVectors: {} as unknown as VectorRowSource })).toThrow(InvalidArgumentError);
    const index = createQuantizedFlatIndex({ dimensions: 2, floatVectors: source });
    expect(index.shortlist).toBe('exact');
    index.upsert([{ id: 'a', vector: Float32Array.of(1, 0) }]);
    let caught: unknown;
    try {
      index.upsert([{ id: 'a', vector: Float32Array.of(0.5, 0.5) }]);
    } catch (error) {
      caught = error;
    }
    expect(FactkitError.isInstance(caught) && caught.code).toBe('unsupported');
    index.upsert([{ id: 'b', vector: Float32Array.of(0, 1) }]);
    expect(() => index.upsert([{ id: 'c', vector: Float32Array.of(1, 1) }])).toThrow(/holds only 2 rows/);
    expect(index.size).toBe(2);
    // Deleting frees the id, not the row: re-adding needs a row the source does not have.
    index.delete(['a']);
    expect(() => index.upsert([{ id: 'a', vector: Float32Array.of(1, 0) }])).toThrow(InvalidArgumentError);
    expect(index.search(Float32Array.of(0, 1), { topK: 5 })).toEqual([{ id: 'b', score: 1 }]);
    source.close();
  });
});
