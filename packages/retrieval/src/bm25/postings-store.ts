import type { Document } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import type { Analyzer } from '../analysis/analyzer.js';
import type { AddDocumentsOptions, AddDocumentsResult } from './bm25-index.js';
import { type DocIdStore, createDocIdStore } from './doc-id-store.js';
import { type DocIdKeys, type DocIdTable, buildDocIdTable } from './doc-id-table.js';
import { GrowableUint, GrowableUint32 } from './growable.js';
import type { TfArray } from './search-kernel.js';
import { capacityOf, resizedView, shared32, shared32WithCapacity, sharedTfWithCapacity } from './shared-arrays.js';
import type { RetrievalProblem } from '../problem-codes.js';

/** One field's postings in CSR form: term → [termOffsets[t], termOffsets[t+1]) of (doc, tf), plus document lengths. */
export interface CompactedField {
  termOffsets: Uint32Array;
  postingDocs: Uint32Array;
  postingTfs: TfArray;
  lengths: Uint32Array;
}

/** A whole compacted index state (what serialization writes and restores). */
export interface PostingsSnapshot {
  terms: string[];
  ids: DocIdStore;
  /** The id → number table over `ids` (see `buildDocIdTable`; the loader builds it to find duplicate ids). */
  idTable: DocIdTable;
  fields: CompactedField[];
  documents?: (Document | undefined)[];
}

interface PendingField {
  termIds: GrowableUint32;
  tfs: GrowableUint;
  /** Start of each pending document's postings in termIds/tfs (+ final end). */
  starts: GrowableUint32;
  lengths: GrowableUint32;
}

/**
 * The postings of an index: vocabulary, document ids, compact CSR arrays per field, and a buffer of documents added
 * since the last compaction. Additions are analysed at once and merged into the CSR arrays by {@link PostingsStore.compact}
 * (called before any read); removals are dropped at the next compaction. `version` changes whenever the postings do,
 * so derived state (scoring statistics, the forward index) knows when to rebuild.
 */
export interface PostingsStore {
  readonly terms: string[];
  readonly termIds: ReadonlyMap<string, number>;
  /** Document number → id (compacted and pending documents; removed ones until the next compaction). */
  readonly ids: DocIdStore;
  readonly idToDoc: Pick<DocIdTable, 'get' | 'has' | 'size'>;
  readonly fields: CompactedField[];
  readonly compactedCount: number;
  /** Documents held after the next compaction (compacted + pending − removed). */
  readonly liveCount: number;
  readonly documents: (Document | undefined)[] | undefined;
  readonly version: number;
  addDocuments(documents: Iterable<Document>, options?: AddDocumentsOptions): AddDocumentsResult;
  removeDocument(id: string): boolean;
  compact(): void;
  restore(snapshot: PostingsSnapshot): void;
  /**
   * Marks the postings' memory as read by someone outside a synchronous call (a worker batch in flight): until the
   * returned release is called, compaction writes new arrays instead of merging into the current ones in place.
   */
  retain(): () => void;
}

/** Room reserved when small postings arrays are (re)allocated: a multiple of what is needed, so later merges fit in place. */
const CAPACITY_GROWTH = 8;
/** Up to this many elements the reserve is {@link CAPACITY_GROWTH}× what is needed (2²⁶). */
const GROWTH_LIMIT = 2 ** 26;
/**
 * Past {@link GROWTH_LIMIT}, one reserve of 2²⁸ elements (1 GiB of u32 doc ids, 256 MiB of u8 tfs: address space,
 * resident only once written), so a growing index meets its last copying merge (which holds old and new arrays
 * together) at ≤ 2²⁶ postings, wherever its first merge fell, and no single reservation exceeds 1 GiB.
 */
const LARGE_RESERVE = 2 ** 28;
/**
 * Elements to allocate for `needed`: 8× while small, then {@link LARGE_RESERVE}; beyond that (an index of ≥ 268M
 * postings) twice what is needed.
 */
export const capacityFor = (needed: number): number => {
  const grown = Math.ceil(needed * CAPACITY_GROWTH);
  if (grown <= GROWTH_LIMIT) return grown;
  if (needed < LARGE_RESERVE) return LARGE_RESERVE;
  return Math.min(needed * 2, needed + 2 ** 30);
};
const tfFits = (array: TfArray, maxTf: number): boolean => maxTf < (array instanceof Uint8Array ? 256 : array instanceof Uint16Array ? 65536 : 2 ** 32);

export interface PostingsStoreOptions {
  readonly analyzer: Analyzer;
  readonly fieldNames: readonly string[];
  readonly flat: boolean;
  readonly storeDocuments: boolean;
  /** Pending postings (all fields) at which `addDocuments` merges at once. */
  readonly mergePendingAt: number;
  /** Text of a named field other than `title` / `text`. */
  readonly fieldText?: (document: Document, field: string) => string;
}

function validateDocument(document: unknown, index: number): string | undefined {
  if (typeof document !== 'object' || document === null) return `item ${index} is not a document object`;
  const candidate = document as Partial<Document>;
  if (typeof candidate.id !== 'string' || candidate.id.length === 0) return `item ${index} has no string "id"`;
  if (typeof candidate.text !== 'string') return `document "${candidate.id}" has no string "text"`;
  if (candidate.title !== undefined && typeof candidate.title !== 'string') return `document "${candidate.id}" has a non-string "title"`;
  return undefined;
}

/**
 * The mutable state of a postings store: the vocabulary, the document ids and id table, the compacted CSR postings per
 * field, the pending (not yet merged) postings, removals, stored documents and counters. The steps below read and
 * replace its fields; the id table reads `ids` through `keys`, so it always sees the current store.
 */
interface PostingsState {
  readonly options: PostingsStoreOptions;
  terms: string[];
  readonly termIds: Map<string, number>;
  ids: DocIdStore;
  readonly keys: DocIdKeys;
  idToDoc: DocIdTable;
  compactedCount: number;
  compacted: CompactedField[];
  readonly deleted: Set<number>;
  documents: (Document | undefined)[] | undefined;
  pendingCount: number;
  pending: PendingField[];
  /** Per field, the largest tf in the compacted postings (−1: not known yet, e.g. after a restore). */
  compactedMaxTf: number[];
  countsScratch: Uint32Array;
  version: number;
  readers: number;
}

const newPending = (fieldNames: readonly string[]): PendingField[] => fieldNames.map(() => ({ termIds: new GrowableUint32(4096), tfs: new GrowableUint(4096), starts: new GrowableUint32(64), lengths: new GrowableUint32(64) }));

function createPostingsState(options: PostingsStoreOptions): PostingsState {
  const { fieldNames, storeDocuments } = options;
  const state: PostingsState = {
    options,
    terms: [],
    termIds: new Map(),
    ids: createDocIdStore(),
    keys: { equals: (doc, id) => state.ids.equals(doc, id), hashAt: (doc) => state.ids.hashAt(doc), sameIds: (a, b) => state.ids.sameIds(a, b) },
    idToDoc: undefined as unknown as DocIdTable,
    compactedCount: 0,
    compacted: fieldNames.map(() => ({ termOffsets: new Uint32Array(1), postingDocs: new Uint32Array(0), postingTfs: new Uint8Array(0), lengths: new Uint32Array(0) })),
    deleted: new Set(),
    documents: storeDocuments ? [] : undefined,
    pendingCount: 0,
    pending: newPending(fieldNames),
    compactedMaxTf: fieldNames.map(() => 0),
    countsScratch: new Uint32Array(1024),
    version: 0,
    readers: 0,
  };
  state.idToDoc = buildDocIdTable(state.keys, 0).table;
  return state;
}

/** The analysed texts of a document: one (title + text) when flat, else one per field. */
function fieldTexts(options: PostingsStoreOptions, document: Document): string[] {
  const { flat, fieldNames, fieldText } = options;
  const title = typeof document.title === 'string' ? document.title : '';
  if (flat) return [title.length > 0 ? `${title} ${document.text}` : document.text];
  return fieldNames.map((name) => {
    if (fieldText === undefined && name === 'title') return title;
    if (fieldText === undefined && name === 'text') return document.text;
    if (fieldText === undefined) throw new InvalidArgumentError({ where: 'Bm25Index.addDocuments', argument: 'fieldText', message: `is needed to read field "${name}" (only title and text are read from a document)` });
    const text = fieldText(document, name);
    if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'Bm25Index.addDocuments', argument: 'fieldText', message: `returned ${typeof text} for field "${name}" of "${document.id}" (must be a string)` });
    return text;
  });
}

function termIdOf(state: PostingsState, term: string): number {
  let id = state.termIds.get(term);
  if (id === undefined) {
    id = state.terms.length;
    state.terms.push(term);
    state.termIds.set(term, id);
  }
  return id;
}

function pendingPostings(state: PostingsState): number {
  let total = 0;
  for (const buffer of state.pending) total += buffer.termIds.length;
  return total;
}

/** Analyses a document into the pending postings (term ids and tfs per field) and gives it the next number. */
function appendPending(state: PostingsState, document: Document): void {
  const { analyzer, fieldNames } = state.options;
  const texts = fieldTexts(state.options, document);
  let countsScratch = state.countsScratch;
  for (let field = 0; field < fieldNames.length; field++) {
    const buffer = state.pending[field] as PendingField;
    const tokens = analyzer.analyze(texts[field] as string);
    buffer.starts.push(buffer.termIds.length);
    buffer.lengths.push(tokens.length);
    const touched: number[] = [];
    for (const token of tokens) {
      const id = termIdOf(state, token);
      if (id >= countsScratch.length) {
        const next = new Uint32Array(Math.max(id + 1, countsScratch.length * 2));
        next.set(countsScratch);
        countsScratch = next;
      }
      if (countsScratch[id] === 0) touched.push(id);
      countsScratch[id] = (countsScratch[id] as number) + 1;
    }
    for (const id of touched) {
      buffer.termIds.push(id);
      buffer.tfs.push(countsScratch[id] as number);
      countsScratch[id] = 0;
    }
  }
  state.countsScratch = countsScratch;
  const docNumber = state.ids.push(document.id);
  state.idToDoc.set(document.id, docNumber);
  if (state.documents) state.documents[docNumber] = { ...document };
  state.pendingCount++;
  state.version++;
}

function addDocumentsTo(state: PostingsState, input: Iterable<Document>, addOptions: AddDocumentsOptions = {}): AddDocumentsResult {
  const { onDuplicate = 'error' } = addOptions;
  if (onDuplicate !== 'error' && onDuplicate !== 'skip' && onDuplicate !== 'replace')
    throw new InvalidArgumentError({ where: 'Bm25Index.addDocuments', argument: 'onDuplicate', message: `must be 'error', 'skip' or 'replace' (got ${String(onDuplicate)})` });
  if (input === null || typeof input !== 'object' || typeof (input as Iterable<Document>)[Symbol.iterator] !== 'function')
    throw new InvalidArgumentError({ where: 'Bm25Index.addDocuments', argument: 'documents', message: 'must be an iterable of documents' });
  const batch = Array.isArray(input) ? (input as Document[]) : [...input];
  const problems: RetrievalProblem[] = [];
  if (onDuplicate === 'error') {
    const seen = new Set<string>();
    batch.forEach((document, index) => {
      const problem = validateDocument(document, index);
      if (problem) throw new InvalidArgumentError({ where: 'Bm25Index.addDocuments', argument: 'documents', message: problem });
      if (state.idToDoc.has(document.id) || seen.has(document.id))
        throw new InvalidArgumentError({ where: 'Bm25Index.addDocuments', argument: 'documents', message: `has duplicate id "${document.id}" (item ${index}); pass onDuplicate: 'skip' or 'replace' to allow it` });
      seen.add(document.id);
    });
  }
  let added = 0;
  batch.forEach((document, index) => {
    const problem = validateDocument(document, index);
    if (problem) {
      problems.push({ index, code: 'invalid-document', message: problem });
      return;
    }
    if (state.idToDoc.has(document.id)) {
      if (onDuplicate === 'skip') {
        problems.push({ index, id: document.id, code: 'duplicate-id', message: `duplicate id "${document.id}" skipped` });
        return;
      }
      removeFrom(state, document.id);
    }
    appendPending(state, document);
    added++;
    if (pendingPostings(state) >= state.options.mergePendingAt) compactPostings(state);
  });
  return { added, problems };
}

function removeFrom(state: PostingsState, id: string): boolean {
  let docNumber = state.idToDoc.get(id);
  if (docNumber === undefined) return false;
  if (docNumber >= state.compactedCount) {
    // A pending document: merge pending ones first so it has a compacted number (rare path).
    compactPostings(state);
    docNumber = state.idToDoc.get(id) as number;
  }
  state.idToDoc.delete(id);
  state.deleted.add(docNumber);
  state.version++;
  return true;
}

/** How a compaction renumbers the compacted documents: old number → new (−1: removed), and how many are kept. */
interface Renumbering {
  readonly newDocOf: Int32Array | undefined;
  readonly kept: number;
  readonly newCount: number;
}

const renumberDoc = (plan: Renumbering, doc: number): number => (plan.newDocOf ? (plan.newDocOf[doc] as number) : doc);

/** Without removals every document keeps its number. */
function planRenumbering(state: PostingsState): Renumbering {
  const { compactedCount, deleted } = state;
  const newDocOf = deleted.size > 0 ? new Int32Array(compactedCount) : undefined;
  let kept = compactedCount;
  if (newDocOf) {
    kept = 0;
    for (let doc = 0; doc < compactedCount; doc++) newDocOf[doc] = deleted.has(doc) ? -1 : kept++;
  }
  return { newDocOf, kept, newCount: kept + state.pendingCount };
}

/** Document frequency per term after the merge (kept old postings + pending ones), and the tf maxima. */
function countMergedFrequencies(state: PostingsState, field: number, plan: Renumbering, vocabularySize: number): { df: Uint32Array; compactedMax: number; pendingMax: number } {
  const { newDocOf } = plan;
  const old = state.compacted[field] as CompactedField;
  const buffer = state.pending[field] as PendingField;
  const df = new Uint32Array(vocabularySize + 1);
  const oldVocabulary = old.termOffsets.length - 1;
  for (let term = 0; term < oldVocabulary; term++) {
    const start = old.termOffsets[term] as number;
    const end = old.termOffsets[term + 1] as number;
    if (!newDocOf) df[term] = end - start;
    else for (let position = start; position < end; position++) if ((newDocOf[old.postingDocs[position] as number] as number) >= 0) df[term] = (df[term] as number) + 1;
  }
  // The largest tf of the compacted postings is tracked (a full scan only after a restore), not rescanned per merge.
  let compactedMax = state.compactedMaxTf[field] as number;
  if (compactedMax < 0) {
    compactedMax = 0;
    for (let position = 0; position < old.postingTfs.length; position++) if ((old.postingTfs[position] as number) > compactedMax) compactedMax = old.postingTfs[position] as number;
  }
  let pendingMax = 0;
  const pendingTerms = buffer.termIds.view();
  const pendingTfs = buffer.tfs.view();
  for (let position = 0; position < pendingTerms.length; position++) {
    df[pendingTerms[position] as number] = (df[pendingTerms[position] as number] as number) + 1;
    if ((pendingTfs[position] as number) > pendingMax) pendingMax = pendingTfs[position] as number;
  }
  return { df, compactedMax, pendingMax };
}

/**
 * Places the kept old postings of a field at their new offsets: in place in the spare room when nothing is removed and
 * no reader holds the arrays, else into new arrays. Returns the arrays, each term's write cursor and the kept tf maximum.
 */
function placeOldPostings(
  state: PostingsState,
  old: CompactedField,
  plan: Renumbering,
  termOffsets: Uint32Array,
  total: number,
  maxTf: number,
  compactedMax: number,
): { postingDocs: Uint32Array; postingTfs: TfArray; cursor: Uint32Array; keptMax: number } {
  const removals = plan.newDocOf !== undefined;
  const oldVocabulary = old.termOffsets.length - 1;
  const cursor = termOffsets.slice(0, termOffsets.length - 1);
  let keptMax = compactedMax;
  let postingDocs: Uint32Array;
  let postingTfs: TfArray;
  if (!removals && state.readers === 0 && capacityOf(old.postingDocs) >= total && capacityOf(old.postingTfs) >= total && tfFits(old.postingTfs, maxTf)) {
    // In place: every old term's postings move up to its new start (never down, as lists only grow), last term
    // first so no list is overwritten before it moves; the new postings then fill the gap after each list. No
    // second copy of the postings is ever held.
    postingDocs = resizedView(old.postingDocs, total);
    postingTfs = resizedView(old.postingTfs, total);
    for (let term = oldVocabulary - 1; term >= 0; term--) {
      const start = old.termOffsets[term] as number;
      const end = old.termOffsets[term + 1] as number;
      const target = termOffsets[term] as number;
      if (target !== start && end > start) {
        postingDocs.copyWithin(target, start, end);
        postingTfs.copyWithin(target, start, end);
      }
      cursor[term] = target + (end - start);
    }
  } else {
    postingDocs = shared32WithCapacity(total, capacityFor(total));
    postingTfs = sharedTfWithCapacity(total, capacityFor(total), maxTf);
    if (removals) keptMax = 0;
    for (let term = 0; term < oldVocabulary; term++) {
      const start = old.termOffsets[term] as number;
      const end = old.termOffsets[term + 1] as number;
      let write = cursor[term] as number;
      for (let position = start; position < end; position++) {
        const doc = renumberDoc(plan, old.postingDocs[position] as number);
        if (doc < 0) continue;
        const tf = old.postingTfs[position] as number;
        postingDocs[write] = doc;
        postingTfs[write] = tf;
        if (tf > keptMax) keptMax = tf;
        write++;
      }
      cursor[term] = write;
    }
  }
  return { postingDocs, postingTfs, cursor, keptMax };
}

/** Merges one field: frequencies, offsets, the old postings moved or copied, then lengths and the pending postings. */
function compactField(state: PostingsState, field: number, plan: Renumbering, vocabularySize: number): CompactedField {
  const { kept, newCount } = plan;
  const removals = plan.newDocOf !== undefined;
  const { compactedCount, pendingCount } = state;
  const old = state.compacted[field] as CompactedField;
  const buffer = state.pending[field] as PendingField;
  buffer.starts.push(buffer.termIds.length);
  const { df, compactedMax, pendingMax } = countMergedFrequencies(state, field, plan, vocabularySize);
  const maxTf = Math.max(compactedMax, pendingMax);
  const termOffsets = shared32(vocabularySize + 1);
  let total = 0;
  for (let term = 0; term < vocabularySize; term++) {
    termOffsets[term] = total;
    total += df[term] as number;
  }
  termOffsets[vocabularySize] = total;
  const { postingDocs, postingTfs, cursor, keptMax } = placeOldPostings(state, old, plan, termOffsets, total, maxTf, compactedMax);
  state.compactedMaxTf[field] = Math.max(keptMax, pendingMax);
  // Lengths: appended in place in the spare room when nothing moves, like the postings.
  let lengths: Uint32Array;
  if (!removals && state.readers === 0 && capacityOf(old.lengths) >= newCount) {
    lengths = resizedView(old.lengths, newCount);
  } else {
    lengths = shared32WithCapacity(newCount, capacityFor(newCount));
    for (let doc = 0; doc < compactedCount; doc++) {
      const target = renumberDoc(plan, doc);
      if (target >= 0) lengths[target] = old.lengths[doc] as number;
    }
  }
  const pendingTerms = buffer.termIds.view();
  const pendingTfs = buffer.tfs.view();
  for (let pendingDoc = 0; pendingDoc < pendingCount; pendingDoc++) {
    const doc = kept + pendingDoc;
    lengths[doc] = buffer.lengths.get(pendingDoc);
    const start = buffer.starts.get(pendingDoc);
    const end = buffer.starts.get(pendingDoc + 1);
    for (let position = start; position < end; position++) {
      const term = pendingTerms[position] as number;
      const write = cursor[term] as number;
      postingDocs[write] = doc;
      postingTfs[write] = pendingTfs[position] as number;
      cursor[term] = write + 1;
    }
  }
  return { termOffsets, postingDocs, postingTfs, lengths };
}

/** Merges pending additions and drops removed documents, rebuilding the CSR arrays. */
function compactPostings(state: PostingsState): void {
  if (state.pendingCount === 0 && state.deleted.size === 0) return;
  const plan = planRenumbering(state);
  const vocabularySize = state.terms.length;
  const newFields: CompactedField[] = [];
  for (let field = 0; field < state.options.fieldNames.length; field++) newFields.push(compactField(state, field, plan, vocabularySize));
  if (state.deleted.size > 0) renumberIdsAndDocuments(state, plan);
  // Without removals every document keeps its number, so ids, the id map and stored documents are already right.
  state.compacted = newFields;
  state.compactedCount = plan.newCount;
  state.deleted.clear();
  state.pendingCount = 0;
  state.pending = newPending(state.options.fieldNames);
  state.version++;
}

/** After removals: ids (kept documents in order: compacted ones by their new numbers, then the pending ones), id table, stored documents. */
function renumberIdsAndDocuments(state: PostingsState, plan: Renumbering): void {
  const { compactedCount, pendingCount, documents } = state;
  const { kept, newCount } = plan;
  const keep = (doc: number): boolean => doc >= compactedCount || renumberDoc(plan, doc) >= 0;
  const newDocuments: (Document | undefined)[] | undefined = documents ? new Array<Document | undefined>(newCount) : undefined;
  if (newDocuments && documents) {
    for (let doc = 0; doc < compactedCount + pendingCount; doc++) {
      const target = doc < compactedCount ? renumberDoc(plan, doc) : kept + (doc - compactedCount);
      if (target >= 0) newDocuments[target] = documents[doc];
    }
  }
  state.ids = state.ids.filter(keep);
  state.idToDoc = buildDocIdTable(state.keys, newCount).table;
  state.documents = newDocuments;
}

function restorePostings(state: PostingsState, snapshot: PostingsSnapshot): void {
  const { fieldNames, storeDocuments } = state.options;
  state.terms = snapshot.terms;
  state.termIds.clear();
  state.terms.forEach((term, termId) => state.termIds.set(term, termId));
  state.ids = snapshot.ids;
  state.idToDoc = snapshot.idTable;
  state.compacted = snapshot.fields;
  state.compactedMaxTf = fieldNames.map(() => -1);
  state.compactedCount = state.ids.length;
  state.documents = storeDocuments ? (snapshot.documents ?? new Array<Document | undefined>(state.ids.length)) : undefined;
  state.deleted.clear();
  state.pendingCount = 0;
  state.pending = newPending(fieldNames);
  state.version++;
}

/**
 * The postings of a BM25 index: documents are analysed into pending postings and merged into compacted CSR arrays per
 * field (`compactPostings`: renumbering plan, per-field frequencies, old postings moved in place or copied, pending
 * postings appended), with removals, restore from a snapshot and reader tracking.
 */
export function createPostingsStore(options: PostingsStoreOptions): PostingsStore {
  const state = createPostingsState(options);
  return {
    get terms() {
      return state.terms;
    },
    termIds: state.termIds,
    get ids() {
      return state.ids;
    },
    get idToDoc() {
      return state.idToDoc;
    },
    get fields() {
      return state.compacted;
    },
    get compactedCount() {
      return state.compactedCount;
    },
    get liveCount() {
      return state.compactedCount + state.pendingCount - state.deleted.size;
    },
    get documents() {
      return state.documents;
    },
    get version() {
      return state.version;
    },
    addDocuments: (input, addOptions) => addDocumentsTo(state, input, addOptions),
    removeDocument: (id) => removeFrom(state, id),
    compact: () => compactPostings(state),
    restore: (snapshot) => restorePostings(state, snapshot),
    retain() {
      state.readers++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        state.readers--;
      };
    },
  };
}
