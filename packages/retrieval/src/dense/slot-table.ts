import { assertNonEmptyString, InvalidArgumentError } from '@factkit/core';
import { checkStoreVector } from '../stores/validate-records.js';

/**
 * Removes ids from a dense slot table (unknown ids ignored), moving the last slot into each hole so the rows stay
 * contiguous: `moveRow(slot, last)` copies the row data of slot `last` into `slot` before the ids are updated.
 * Returns how many were removed. Shared by the flat and the quantized index.
 */
export function removeBySwap(idBySlot: string[], slotById: Map<string, number>, ids: readonly string[], moveRow: (slot: number, last: number) => void): number {
  let removed = 0;
  for (const id of ids) {
    const slot = slotById.get(id);
    if (slot === undefined) continue;
    const last = idBySlot.length - 1;
    if (slot !== last) {
      const lastId = idBySlot[last] as string;
      moveRow(slot, last);
      idBySlot[slot] = lastId;
      slotById.set(lastId, slot);
    }
    idBySlot.pop();
    slotById.delete(id);
    removed += 1;
  }
  return removed;
}

/**
 * Checks an upsert batch before anything changes (an array; non-empty ids, none repeated within the call; vectors of
 * `dimensions` finite numbers) and returns how many of its ids are new. Shared by the flat and the quantized index.
 */
export function checkUpsertBatch(entries: readonly { readonly id: string; readonly vector: Float32Array }[], dimensions: number, slotById: ReadonlyMap<string, number>, where: string): number {
  if (!Array.isArray(entries)) throw new InvalidArgumentError({ where, argument: 'entries', message: 'must be an array' });
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    assertNonEmptyString(`entries[${index}].id`, entry?.id, where);
    if (seen.has(entry.id)) {
      throw new InvalidArgumentError({ where, argument: `entries[${index}].id`, message: `duplicates id "${entry.id}" within one call` });
    }
    seen.add(entry.id);
    checkStoreVector(entry.vector, dimensions, where, `entries[${index}].vector`);
  });
  let added = 0;
  for (const entry of entries) if (!slotById.has(entry.id)) added += 1;
  return added;
}

/** The slot of `id`, appended at the end when new (`onNew(slot)` is then called). */
export function slotFor(idBySlot: string[], slotById: Map<string, number>, id: string, onNew?: (slot: number) => void): number {
  let slot = slotById.get(id);
  if (slot === undefined) {
    slot = idBySlot.length;
    idBySlot.push(id);
    slotById.set(id, slot);
    onNew?.(slot);
  }
  return slot;
}
