import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDocIdTable } from './doc-id-table.js';

describe('createDocIdTable', () => {
  it('behaves like a Map<string, number> under random sets, deletes and re-adds (growth, tombstones, collisions)', () => {
    const key = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 60 }).map((n) => `d${n}`));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'get'), key), { maxLength: 300 }), (operations) => {
        const ids: string[] = [];
        const table = createDocIdTable((doc) => ids[doc]);
        const reference = new Map<string, number>();
        for (const [operation, id] of operations) {
          if (operation === 'set') {
            ids.push(id); // like the index: the id is stored at its new document number first
            table.set(id, ids.length - 1);
            reference.set(id, ids.length - 1);
          } else if (operation === 'delete') {
            expect(table.delete(id)).toBe(reference.delete(id));
          } else {
            expect(table.get(id)).toBe(reference.get(id));
          }
          expect(table.size).toBe(reference.size);
        }
        for (const [id, doc] of reference) expect(table.get(id)).toBe(doc);
        for (const id of ids) expect(table.has(id)).toBe(reference.has(id));
      }),
      { numRuns: 300 },
    );
  });
});
