import { crc32 } from 'node:zlib';
import { CorruptDataError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGloveCache, encodeGloveCache } from './glove-cache.js';
import { createGloveVectors } from '../glove-vectors.js';

const sample = createGloveVectors(['the', 'café', 'well-known'], Float32Array.from([1, 2, 3, 4, 5, 6]), 2);

function expectCorrupt(bytes: Uint8Array, pattern: RegExp): void {
  let caught: unknown;
  try {
    decodeGloveCache(bytes, 'test.bin');
  } catch (error) {
    caught = error;
  }
  expect(CorruptDataError.isInstance(caught)).toBe(true);
  expect((caught as Error).message).toMatch(pattern);
  expect((caught as CorruptDataError).source).toBe('test.bin');
}

describe('glove binary cache', () => {
  it('round-trips words and vectors exactly, rows sorted by word', () => {
    const decoded = decodeGloveCache(encodeGloveCache(sample));
    expect(decoded.words).toEqual(['café', 'the', 'well-known']);
    expect(decoded.dimensions).toBe(2);
    expect([...decoded.matrix]).toEqual([3, 4, 1, 2, 5, 6]);
    expect([...(decoded.vectorOf('the') as Float32Array)]).toEqual([1, 2]);
    expect([...(decoded.vectorOf('café') as Float32Array)]).toEqual([3, 4]);
    expect(decoded.indexOf('missing')).toBe(-1);
  });

  it('round-trips any vocabulary and matrix (property)', () => {
    const word = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => !text.includes('\n'));
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 20 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 1000 }), (words, dimensions, seed) => {
        const matrix = Float32Array.from({ length: words.length * dimensions }, (_, index) => Math.fround(Math.sin(seed + index) * 10));
        const bytes = encodeGloveCache(createGloveVectors(words, matrix, dimensions));
        // Decode from an unaligned copy too (Float32Array needs alignment; the decoder must cope).
        const unaligned = new Uint8Array(bytes.byteLength + 1).subarray(1);
        unaligned.set(bytes);
        for (const input of [bytes, unaligned]) {
          const decoded = decodeGloveCache(input);
          expect([...decoded.words].sort()).toEqual([...words].sort());
          words.forEach((word, row) => {
            expect(decoded.indexOf(word)).toBeGreaterThanOrEqual(0);
            expect([...(decoded.vectorOf(word) as Float32Array)]).toEqual([...matrix.subarray(row * dimensions, (row + 1) * dimensions)]);
          });
        }
      }),
    );
  });

  it('rejects truncated files with CorruptDataError', () => {
    const bytes = encodeGloveCache(sample);
    expectCorrupt(bytes.subarray(0, 10), /shorter than the 32-byte header/);
    expectCorrupt(bytes.subarray(0, bytes.byteLength - 4), /truncated or corrupt/);
  });

  it('rejects flipped bytes (checksum), bad magic and unknown versions', () => {
    const bytes = encodeGloveCache(sample);
    const flipped = bytes.slice();
    flipped[flipped.byteLength - 1] = (flipped[flipped.byteLength - 1] as number) ^ 0xff;
    expectCorrupt(flipped, /checksum/);
    const magic = bytes.slice();
    magic[0] = 0x58;
    expectCorrupt(magic, /bad magic/);
    const version = bytes.slice();
    new DataView(version.buffer).setUint32(8, 99, true);
    expectCorrupt(version, /version 99/);
    const unsorted = encodeGloveCache(createGloveVectors(['b', 'a'], Float32Array.from([1, 2]), 1));
    unsorted.set(new TextEncoder().encode('c'), 32); // 'a\nb' -> 'c\nb', then fix the checksum
    new DataView(unsorted.buffer).setUint32(24, crc32(unsorted.subarray(32)), true);
    expectCorrupt(unsorted, /not sorted/);
  });

  it('never throws anything but CorruptDataError on random bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (random, withMagic) => {
        const bytes = withMagic ? Uint8Array.from([...new TextEncoder().encode('FKGLOVE\0'), ...random]) : random;
        try {
          decodeGloveCache(bytes);
        } catch (error) {
          expect(CorruptDataError.isInstance(error)).toBe(true);
        }
      }),
    );
  });
});
