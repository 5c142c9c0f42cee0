import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDocIdStoreArrays, createDocIdStore, docIdStoreFromStrings, hashDocId } from './doc-id-store.js';

// Ids with every kind of UTF-16 content: ASCII, Latin-1 (one byte a unit), BMP beyond Latin-1 and surrogate pairs
// (two bytes a unit), lone surrogates (JS strings may hold them), and long ids (decoded in pieces).
const anyId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 6 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 6 }),
  fc.integer({ min: 0, max: 9_999_999 }).map((n) => `doc${n}`),
  fc.integer({ min: 4000, max: 9000 }).map((length) => 'é'.repeat(length)),
);

describe('createDocIdStore', () => {
  it('round-trips every id in order (at, toArray), compares and hashes them in place like the strings', () => {
    fc.assert(
      fc.property(fc.array(anyId, { maxLength: 60 }), fc.string({ maxLength: 8 }), (ids, probe) => {
        const store = createDocIdStore();
        ids.forEach((id, doc) => expect(store.push(id)).toBe(doc));
        expect(store.length).toBe(ids.length);
        expect(store.toArray()).toEqual(ids);
        ids.forEach((id, doc) => {
          expect(store.at(doc)).toBe(id);
          expect(store.equals(doc, id)).toBe(true);
          expect(store.equals(doc, probe)).toBe(probe === id);
          expect(store.hashAt(doc)).toBe(hashDocId(id));
          ids.forEach((other, otherDoc) => expect(store.sameIds(doc, otherDoc)).toBe(other === id));
        });
        const wide = ids.some((id) => [...id].some((character) => character.charCodeAt(0) > 0xff || character.length > 1));
        expect(store.units().BYTES_PER_ELEMENT).toBe(wide ? 2 : 1);
        expect(store.units().length).toBe(ids.reduce((sum, id) => sum + id.length, 0));
        expect(docIdStoreFromStrings(ids).toArray()).toEqual(ids);
      }),
      { numRuns: 150 },
    );
  });
  it('filter keeps the chosen ids in order; a store adopted from its arrays reads the same and keeps growing', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyId, fc.boolean()), { maxLength: 40 }), fc.array(anyId, { maxLength: 10 }), (entries, more) => {
        const store = docIdStoreFromStrings(entries.map(([id]) => id));
        const kept = store.filter((doc) => (entries[doc] as [string, boolean])[1]);
        expect(kept.toArray()).toEqual(entries.filter(([, keep]) => keep).map(([id]) => id));
        const adopted = createDocIdStore({ units: store.units().slice(), offsets: store.offsets().slice() });
        expect(checkDocIdStoreArrays(store.units(), store.offsets(), store.length)).toBeUndefined();
        for (const id of more) adopted.push(id);
        expect(adopted.toArray()).toEqual([...entries.map(([id]) => id), ...more]);
        expect(store.toArray()).toEqual(entries.map(([id]) => id)); // the copy grew, not the original
      }),
      { numRuns: 150 },
    );
  });
  it('checkDocIdStoreArrays names what is wrong with arrays read from a file', () => {
    const units = new Uint8Array([97, 98, 99]);
    expect(checkDocIdStoreArrays(units, new Uint32Array([0, 1, 3]), 2)).toBeUndefined();
    expect(checkDocIdStoreArrays(units, new Uint32Array([0, 1, 3]), 3)).toMatch(/3 id offsets for 3 documents/);
    expect(checkDocIdStoreArrays(units, new Uint32Array([0, 1, 2]), 2)).toMatch(/do not span/);
    expect(checkDocIdStoreArrays(units, new Uint32Array([1, 1, 3]), 2)).toMatch(/do not span/);
    expect(checkDocIdStoreArrays(units, new Uint32Array([0, 2, 1, 3]), 3)).toMatch(/document 1 has an empty or out-of-order id/);
    expect(checkDocIdStoreArrays(units, new Uint32Array([0, 0, 3]), 2)).toMatch(/document 0/);
  });
});
