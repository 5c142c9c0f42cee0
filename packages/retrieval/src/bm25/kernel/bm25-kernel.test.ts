import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KernelField } from '../search-kernel.js';
import { assembleBm25Kernel } from './assemble-bm25-kernel.js';
import { MIRROR_BLOCK, bm25KernelBytes, createDenseMirror } from './dense-mirror.js';

const fround = Math.fround;
const lucene = (weight: number, tf: number, factor: number): number => fround(weight - fround(weight / fround(1 + fround(tf * factor))));

function field(docs: number[], tfs: number[], factors: number[], wide: boolean, impacts?: number[]): KernelField {
  return {
    termOffsets: new Uint32Array([0, docs.length]),
    postingDocs: Uint32Array.from(docs),
    postingTfs: wide ? Uint16Array.from(tfs) : Uint8Array.from(tfs),
    documentFactors: Float32Array.from(factors),
    ...(impacts ? { impacts: Float32Array.from(impacts) } : {}),
  };
}

describe('bm25-kernel.wat', () => {
  it('the embedded bytes are exactly what bm25-kernel.wat assembles to', async () => {
    const assembled = await assembleBm25Kernel();
    expect(Buffer.from(bm25KernelBytes()).equals(Buffer.from(assembled))).toBe(true);
  });

  it('adds the same f64 sums as the JavaScript formula (u8 and wide term frequencies, impacts), and block maxima are exact', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 400 }),
        fc.float({ min: Math.fround(0.01), max: Math.fround(20), noNaN: true }),
        fc.boolean(),
        (documents, raw, weightRaw, wide) => {
          const weight = fround(weightRaw);
          const byDoc = new Map<number, number>();
          for (const [doc, tf] of raw) byDoc.set(doc % documents, wide ? tf * 200 : tf); // wide: up to 51,000 (fits the Uint16Array)
          const docs = [...byDoc.keys()].sort((a, b) => a - b);
          const tfs = docs.map((doc) => byDoc.get(doc) as number);
          const factors = Array.from({ length: documents }, (_, doc) => fround(0.2 + ((doc * 7919) % 97) / 50));
          const impacts = docs.map((doc, index) => lucene(weight, tfs[index] as number, factors[doc] as number));
          const mirror = createDenseMirror([field(docs, tfs, factors, wide, impacts)], documents);
          expect(mirror).not.toBeNull();
          if (!mirror) return;
          const place = mirror.fields[0] as (typeof mirror.fields)[number];
          expect(place.wideTfs).toBe(wide);
          const expected = new Float64Array(mirror.blocks * MIRROR_BLOCK);
          // Twice over the list: sums of two contributions, in the JavaScript order.
          for (let pass = 0; pass < 2; pass++) docs.forEach((doc, index) => (expected[doc] = (expected[doc] as number) + lucene(weight, tfs[index] as number, factors[doc] as number)));
          const call = wide ? mirror.kernel.acc_formula_u32 : mirror.kernel.acc_formula_u8;
          call(place.docs, place.tfs, place.factors, mirror.accumulatorOffset, 0, docs.length, weight);
          mirror.kernel.acc_impacts(place.docs, place.impacts, mirror.accumulatorOffset, 0, docs.length);
          expect([...mirror.accumulator]).toEqual([...expected]);
          mirror.kernel.block_max(mirror.accumulatorOffset, mirror.blocks, mirror.blockMaxOffset);
          for (let block = 0; block < mirror.blocks; block++) expect(mirror.blockMax[block]).toBe(Math.max(...expected.subarray(block * MIRROR_BLOCK, (block + 1) * MIRROR_BLOCK)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
