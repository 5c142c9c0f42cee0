import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDocIdStore } from './doc-id-store.js';
import { buildDocIdTable, createDocIdTable } from './doc-id-table.js';

describe('createDocIdTable', () => {
  it('behaves like a Map<string, number> under random sets, deletes and re-adds (growth, tombstones, collisions)', () => {
    const key = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer({ min: 0, max: 60 }).map((n) => `d${n}`),
      fc.constantFrom('é', 'é1', '核', '😀'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'get'), key), { maxLength: 300 }), (operations) => {
        const ids = createDocIdStore();
        const table = createDocIdTable(ids);
        const reference = new Map<string, number>();
        for (const [operation, id] of operations) {
          if (operation === 'set') {
            const doc = ids.push(id); // like the index: the id is stored at its new document number first
            table.set(id, doc);
            reference.set(id, doc);
          } else if (operation === 'delete') {
            expect(table.delete(id)).toBe(reference.delete(id));
          } else {
            expect(table.get(id)).toBe(reference.get(id));
          }
          expect(table.size).toBe(reference.size);
        }
        for (const [id, doc] of reference) expect(table.get(id)).toBe(doc);
        for (const id of ids.toArray()) expect(table.has(id)).toBe(reference.has(id));
      }),
      { numRuns: 300 },
    );
  });
  it('add() maps a stored id by number and reports the earlier document of a repeated id (after deletes too)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 40 }).map((n) => `d${n}`),
            fc.string({ maxLength: 2 }),
          ),
          { maxLength: 200 },
        ),
        (list) => {
          const ids = createDocIdStore();
          for (const id of list) ids.push(id);
          const { table, duplicate } = buildDocIdTable(ids, ids.length);
          const firstRepeat = list.findIndex((id, position) => list.indexOf(id) !== position);
          expect(duplicate).toBe(firstRepeat);
          if (firstRepeat < 0) {
            list.forEach((id, doc) => expect(table.get(id)).toBe(doc));
            // Delete half, re-add them by number: tombstones are reused, nothing is lost.
            list.forEach((id, doc) => doc % 2 === 0 && expect(table.delete(id)).toBe(true));
            list.forEach((id, doc) => doc % 2 === 0 && expect(table.add(doc)).toBe(-1));
            list.forEach((id, doc) => expect(table.add(doc)).toBe(doc));
            list.forEach((id, doc) => expect(table.get(id)).toBe(doc));
            expect(table.size).toBe(list.length);
          } else {
            expect(table.add(firstRepeat)).toBe(list.indexOf(list[firstRepeat] as string));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
