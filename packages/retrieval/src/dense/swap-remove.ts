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
