import { type DocIdStore, hashDocId } from './doc-id-store.js';

/**
 * Document id → document number, for millions of ids: an open-addressing hash table of document numbers in an
 * Int32Array (4 bytes a slot, outside the JS heap), comparing against the ids the caller owns (`keys`: usually the
 * index's {@link DocIdStore}, compared and hashed in place) instead of a `Map<string, number>` (~45 heap bytes an
 * entry plus its rehash copies). Hash: FNV-1a over UTF-16 code units ({@link hashDocId}); linear probing; tombstones
 * for deletions; load factor at most 1/2.
 */
export interface DocIdTable {
  readonly size: number;
  get(id: string): number | undefined;
  has(id: string): boolean;
  /** Maps `id` to `doc` (replacing an earlier mapping of the same id). `keys` must already hold `id` at `doc`. */
  set(id: string, doc: number): void;
  /**
   * Maps document `doc`'s id (read from `keys`, no string built) to `doc`, unless another document with the same id is
   * already mapped: then nothing changes and that document's number is returned (else −1). Builds the table of a
   * loaded index, finding duplicate ids on the way.
   */
  add(doc: number): number;
  delete(id: string): boolean;
}

/** How the table reads the id of a document number it holds. */
export type DocIdKeys = Pick<DocIdStore, 'equals' | 'hashAt' | 'sameIds'>;

const EMPTY = -1;
const DELETED = -2;
const hashOf = hashDocId;

export function createDocIdTable(keys: DocIdKeys, expected = 0): DocIdTable {
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
      if (doc !== DELETED && keys.equals(doc, id)) return slot;
    }
  };
  const insert = (table: Int32Array, mask: number, doc: number): void => {
    let slot = keys.hashAt(doc) & mask;
    while ((table[slot] as number) >= 0) slot = (slot + 1) & mask;
    table[slot] = doc;
  };
  const grow = (): void => {
    const next = size * 2 >= capacity / 2 ? capacity * 2 : capacity; // else only tombstones to clear
    const table = new Int32Array(next).fill(EMPTY);
    for (let slot = 0; slot < capacity; slot++) {
      const doc = slots[slot] as number;
      if (doc >= 0) insert(table, next - 1, doc);
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
    add(doc) {
      if ((used + 1) * 2 > capacity) grow();
      const mask = capacity - 1;
      let target = -1;
      for (let slot = keys.hashAt(doc) & mask; ; slot = (slot + 1) & mask) {
        const held = slots[slot] as number;
        if (held === EMPTY) {
          if (target < 0) {
            target = slot;
            used++;
          }
          break;
        }
        if (held === DELETED) {
          if (target < 0) target = slot;
        } else if (keys.sameIds(held, doc)) return held;
      }
      slots[target] = doc;
      size++;
      return -1;
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

/**
 * The table of every document of `keys` (numbers 0 … count − 1), sized for them; `duplicate` is the first document
 * whose id an earlier one already has (−1 when the ids are unique), in which case the table is incomplete.
 */
export function buildDocIdTable(keys: DocIdKeys, count: number): { table: DocIdTable; duplicate: number } {
  const table = createDocIdTable(keys, count);
  for (let doc = 0; doc < count; doc++) if (table.add(doc) >= 0) return { table, duplicate: doc };
  return { table, duplicate: -1 };
}
