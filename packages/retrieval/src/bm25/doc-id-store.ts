/**
 * The document ids of an index, for millions of documents, outside the JS heap: every id's UTF-16 code units in one
 * buffer (one byte a unit while every unit so far is below 256, i.e. Latin-1; two bytes a unit from the first id
 * that needs more) and a Uint32 start offset per document, instead of millions of JS strings (a short id such as
 * `doc4999999` costs ~40 heap bytes as a string plus its array slot, ~14 bytes here). Ids are compared and hashed in
 * place ({@link DocIdStore.equals}, {@link DocIdStore.hashAt}) so the id → number table never builds strings, and
 * materialised only when read ({@link DocIdStore.at}: search hits, exports).
 *
 * Both buffers grow by doubling; the spare room of a large zero-filled buffer is address space, not resident memory,
 * until written (as for the postings arrays).
 */
export interface DocIdStore {
  /** Number of ids (document numbers 0 … length − 1). */
  readonly length: number;
  /** The id of document `doc` (a new string each call). */
  at(doc: number): string;
  /** Whether document `doc`'s id is exactly `id` (no string built). */
  equals(doc: number, id: string): boolean;
  /** Whether documents `a` and `b` have the same id (no string built). */
  sameIds(a: number, b: number): boolean;
  /** {@link hashDocId} of document `doc`'s id (no string built). */
  hashAt(doc: number): number;
  /** Appends an id; returns its document number. */
  push(id: string): number;
  /** The code units of every id, back to back (a view: copy before mutating the store). One byte a unit, or two. */
  units(): Uint8Array | Uint16Array;
  /** `length + 1` offsets into {@link DocIdStore.units}: id `doc` is units [offsets[doc], offsets[doc + 1]) (a view). */
  offsets(): Uint32Array;
  /** A new store with the ids of the documents kept, in order (`keep(doc)` true), e.g. after removals. */
  filter(keep: (doc: number) => boolean): DocIdStore;
  /** Every id as a string array (small indexes, JSON export). */
  toArray(): string[];
}

/** FNV-1a over UTF-16 code units (the hash {@link DocIdStore.hashAt} computes in place). */
export function hashDocId(id: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < id.length; position++) hash = Math.imul(hash ^ id.charCodeAt(position), 0x01000193);
  return hash >>> 0;
}

/** Code units handed to String.fromCharCode at once (stays far below engines' argument-count limits). */
const DECODE_PIECE = 4096;

function decode(units: Uint8Array | Uint16Array, start: number, end: number): string {
  if (end - start <= 24) {
    // Short ids (the usual case): appending code units beats `apply` over a subarray (no view, no argument copy).
    let out = '';
    for (let position = start; position < end; position++) out += String.fromCharCode(units[position] as number);
    return out;
  }
  if (end - start <= DECODE_PIECE) return String.fromCharCode.apply(null, units.subarray(start, end) as unknown as number[]);
  let out = '';
  for (let position = start; position < end; position += DECODE_PIECE) out += String.fromCharCode.apply(null, units.subarray(position, Math.min(end, position + DECODE_PIECE)) as unknown as number[]);
  return out;
}

const MAX_UNITS = 2 ** 32 - 1;

/**
 * An empty store, or one adopting `units` and `offsets` as they are (a loaded index; the caller has checked them with
 * {@link checkDocIdStoreArrays}). `expected` presizes the offsets for that many ids.
 */
export function createDocIdStore(initial?: { units: Uint8Array | Uint16Array; offsets: Uint32Array }, expected = 0): DocIdStore {
  let units: Uint8Array | Uint16Array = initial ? initial.units : new Uint8Array(Math.max(64, expected * 8));
  let offsets: Uint32Array = initial ? initial.offsets : new Uint32Array(Math.max(16, expected + 1));
  let length = initial ? initial.offsets.length - 1 : 0;
  let used = initial ? (offsets[length] as number) : 0;

  const ensure = (id: string): void => {
    let wide = units instanceof Uint16Array;
    if (!wide) {
      for (let position = 0; position < id.length; position++) {
        if (id.charCodeAt(position) > 0xff) {
          wide = true;
          break;
        }
      }
    }
    const needed = used + id.length;
    if (needed > MAX_UNITS) throw new RangeError(`document ids exceed ${MAX_UNITS} code units in total`);
    if (needed > units.length || wide !== units instanceof Uint16Array) {
      const capacity = needed > units.length ? Math.min(MAX_UNITS, Math.max(needed, units.length * 2)) : units.length;
      const next = wide ? new Uint16Array(capacity) : new Uint8Array(capacity);
      next.set(units.subarray(0, used));
      units = next;
    }
    if (length + 2 > offsets.length) {
      const next = new Uint32Array(offsets.length * 2);
      next.set(offsets.subarray(0, length + 1));
      offsets = next;
    }
  };

  const store: DocIdStore = {
    get length() {
      return length;
    },
    at: (doc) => decode(units, offsets[doc] as number, offsets[doc + 1] as number),
    equals(doc, id) {
      const start = offsets[doc] as number;
      if ((offsets[doc + 1] as number) - start !== id.length) return false;
      for (let position = 0; position < id.length; position++) if (units[start + position] !== id.charCodeAt(position)) return false;
      return true;
    },
    sameIds(a, b) {
      const startA = offsets[a] as number;
      const startB = offsets[b] as number;
      const size = (offsets[a + 1] as number) - startA;
      if ((offsets[b + 1] as number) - startB !== size) return false;
      for (let position = 0; position < size; position++) if (units[startA + position] !== units[startB + position]) return false;
      return true;
    },
    hashAt(doc) {
      let hash = 0x811c9dc5;
      const end = offsets[doc + 1] as number;
      for (let position = offsets[doc] as number; position < end; position++) hash = Math.imul(hash ^ (units[position] as number), 0x01000193);
      return hash >>> 0;
    },
    push(id) {
      ensure(id);
      for (let position = 0; position < id.length; position++) units[used + position] = id.charCodeAt(position);
      used += id.length;
      length++;
      offsets[length] = used;
      return length - 1;
    },
    units: () => units.subarray(0, used),
    offsets: () => offsets.subarray(0, length + 1),
    filter(keep) {
      let keptUnits = 0;
      let keptCount = 0;
      for (let doc = 0; doc < length; doc++) {
        if (!keep(doc)) continue;
        keptUnits += (offsets[doc + 1] as number) - (offsets[doc] as number);
        keptCount++;
      }
      const nextUnits = units instanceof Uint16Array ? new Uint16Array(Math.max(64, keptUnits)) : new Uint8Array(Math.max(64, keptUnits));
      const nextOffsets = new Uint32Array(keptCount + 1);
      let write = 0;
      let target = 0;
      for (let doc = 0; doc < length; doc++) {
        if (!keep(doc)) continue;
        const start = offsets[doc] as number;
        const end = offsets[doc + 1] as number;
        nextUnits.set(units.subarray(start, end), write);
        write += end - start;
        nextOffsets[++target] = write;
      }
      return createDocIdStore({ units: nextUnits, offsets: nextOffsets });
    },
    toArray() {
      const out = new Array<string>(length);
      for (let doc = 0; doc < length; doc++) out[doc] = store.at(doc);
      return out;
    },
  };
  return store;
}

/** A store holding `ids` in order. */
export function docIdStoreFromStrings(ids: readonly string[]): DocIdStore {
  let total = 0;
  let wide = false;
  for (const id of ids) {
    total += id.length;
    if (!wide) for (let position = 0; position < id.length; position++) if (id.charCodeAt(position) > 0xff) wide = true;
  }
  if (total > MAX_UNITS) throw new RangeError(`document ids exceed ${MAX_UNITS} code units in total`);
  const units = wide ? new Uint16Array(total) : new Uint8Array(total);
  const offsets = new Uint32Array(ids.length + 1);
  let write = 0;
  ids.forEach((id, doc) => {
    for (let position = 0; position < id.length; position++) units[write + position] = id.charCodeAt(position);
    write += id.length;
    offsets[doc + 1] = write;
  });
  return createDocIdStore({ units, offsets });
}

/**
 * Why `units`/`offsets` (e.g. read from a file) cannot form a store of `count` ids, or undefined when they can:
 * `count + 1` offsets from 0, non-decreasing, ending at the number of units, and no empty id.
 */
export function checkDocIdStoreArrays(units: Uint8Array | Uint16Array, offsets: Uint32Array, count: number): string | undefined {
  if (offsets.length !== count + 1) return `${offsets.length} id offsets for ${count} documents`;
  if (offsets[0] !== 0 || offsets[count] !== units.length) return 'id offsets do not span the id characters';
  for (let doc = 0; doc < count; doc++) if ((offsets[doc + 1] as number) <= (offsets[doc] as number)) return `document ${doc} has an empty or out-of-order id`;
  return undefined;
}
