/**
 * Document id → document number, for millions of ids: an open-addressing hash table of document numbers in an
 * Int32Array (4 bytes a slot, outside the JS heap), comparing against the ids array the caller owns
 * (`keyAt(doc)`), instead of a `Map<string, number>` (~45 heap bytes an entry plus its rehash copies).
 * Hash: FNV-1a over UTF-16 code units; linear probing; tombstones for deletions; load factor at most 1/2.
 */
export interface DocIdTable {
  readonly size: number;
  get(id: string): number | undefined;
  has(id: string): boolean;
  /** Maps `id` to `doc` (replacing an earlier mapping of the same id). `keyAt(doc)` must already return `id`. */
  set(id: string, doc: number): void;
  delete(id: string): boolean;
}

const EMPTY = -1;
const DELETED = -2;

function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < id.length; position++) hash = Math.imul(hash ^ id.charCodeAt(position), 0x01000193);
  return hash >>> 0;
}

export function createDocIdTable(keyAt: (doc: number) => string | undefined, expected = 0): DocIdTable {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  let slots = new Int32Array(capacity).fill(EMPTY);
  let size = 0;
  let used = 0; // live + tombstones

  /** The slot holding `id`, or −1. */
  const find = (id: string): number => {
    const mask = capacity - 1;
    for (let slot = hashOf(id) & mask; ; slot = (slot + 1) & mask) {
      const doc = slots[slot] as number;
      if (doc === EMPTY) return -1;
      if (doc !== DELETED && keyAt(doc) === id) return slot;
    }
  };
  const insert = (table: Int32Array, mask: number, id: string, doc: number): void => {
    let slot = hashOf(id) & mask;
    while ((table[slot] as number) >= 0) slot = (slot + 1) & mask;
    table[slot] = doc;
  };
  const grow = (): void => {
    const next = size * 2 >= capacity / 2 ? capacity * 2 : capacity; // else only tombstones to clear
    const table = new Int32Array(next).fill(EMPTY);
    for (let slot = 0; slot < capacity; slot++) {
      const doc = slots[slot] as number;
      if (doc >= 0) insert(table, next - 1, keyAt(doc) as string, doc);
    }
    slots = table;
    capacity = next;
    used = size;
  };

  return {
    get size() {
      return size;
    },
    get(id) {
      const slot = find(id);
      return slot < 0 ? undefined : (slots[slot] as number);
    },
    has: (id) => find(id) >= 0,
    set(id, doc) {
      const slot = find(id);
      if (slot >= 0) {
        slots[slot] = doc;
        return;
      }
      if ((used + 1) * 2 > capacity) grow();
      const mask = capacity - 1;
      let target = hashOf(id) & mask;
      while ((slots[target] as number) >= 0) target = (target + 1) & mask;
      if (slots[target] === EMPTY) used++;
      slots[target] = doc;
      size++;
    },
    delete(id) {
      const slot = find(id);
      if (slot < 0) return false;
      slots[slot] = DELETED;
      size--;
      return true;
    },
  };
}
