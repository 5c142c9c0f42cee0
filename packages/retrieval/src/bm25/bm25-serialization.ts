import type { Document } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { type Analyzer, createChineseAnalyzer, createEnglishAnalyzer } from '../analysis/analyzer.js';
import type { Bm25Parameters } from './bm25-scoring.js';
import { type Bm25Index, createBm25Index } from './bm25-index.js';
import { getIndexState } from './index-state.js';
import type { CompactedField } from './postings-store.js';
import { type DocIdStore, checkDocIdStoreArrays, createDocIdStore, docIdStoreFromStrings } from './doc-id-store.js';
import { buildDocIdTable } from './doc-id-table.js';
import { type DecodedSectionContainer, type RandomAccessBytes, type SectionPayload, decodeSectionContainer, encodeSectionContainer, isLittleEndian, readSectionContainer, sectionContainerChunks } from '../internal/section-container.js';
import type { TfArray } from './search-kernel.js';

/** First 8 bytes of a saved index: `FKBM25` + CR LF (catches text-mode transfer damage). */
export const BM25_INDEX_MAGIC: Uint8Array = new Uint8Array([0x46, 0x4b, 0x42, 0x4d, 0x32, 0x35, 0x0d, 0x0a]);
/**
 * Binary format version written by {@link serializeBm25Index}. Version 2 stores the document ids as two typed sections
 * (`ids.units`: every id's UTF-16 code units back to back, one byte each when all are below 256; `ids.offsets`: u32
 * starts, one per document + the end); version 1 stored them as a JSON array of strings (`ids`) and is still read.
 */
export const BM25_INDEX_FORMAT_VERSION = 2;
/** Versions {@link deserializeBm25Index} and `loadBm25Index` read besides the current one. */
const OLDER_VERSIONS: readonly number[] = [1];

type SectionKind = 'u8' | 'u16' | 'u32' | 'json';

interface Header {
  format: 'factkit-bm25';
  analyzer: string;
  parameters: Bm25Parameters;
  fieldNames: string[];
  fieldWeights: number[];
  documentCount: number;
  vocabularySize: number;
  storeDocuments: boolean;
}

function kindOf(array: TfArray | Uint32Array): 'u8' | 'u16' | 'u32' {
  return array instanceof Uint8Array ? 'u8' : array instanceof Uint16Array ? 'u16' : 'u32';
}

/**
 * Encodes an index as bytes: magic, version, a JSON header with a section table, 8-byte-aligned
 * little-endian typed-array sections, and a CRC-32 + length footer.
 * @example await writeFile('scifact.bm25', serializeBm25Index(index))
 */
export function serializeBm25Index(index: Bm25Index): Uint8Array {
  const { header, payloads } = bm25Sections(index, 'serializeBm25Index');
  return encodeSectionContainer(BM25_INDEX_MAGIC, BM25_INDEX_FORMAT_VERSION, header, payloads);
}

/**
 * The pieces of {@link serializeBm25Index}'s bytes, in order, without assembling them (the typed-array sections are
 * views of the index's own arrays): a file writer streams them.
 */
export function serializeBm25IndexChunks(index: Bm25Index, where = 'saveBm25Index'): Generator<Uint8Array, void, undefined> {
  const { header, payloads } = bm25Sections(index, where);
  return sectionContainerChunks(BM25_INDEX_MAGIC, BM25_INDEX_FORMAT_VERSION, header, payloads);
}

function bm25Sections(index: Bm25Index, where: string): { header: Record<string, unknown>; payloads: SectionPayload<SectionKind>[] } {
  if (!isLittleEndian) throw new InvalidArgumentError({ where, argument: 'index', message: 'can only be serialized on little-endian platforms' });
  const { terms, ids, fields, documents } = getIndexState(index, where);
  const encoder = new TextEncoder();
  const payloads: SectionPayload<SectionKind>[] = [];
  const json = (name: string, value: unknown): void => {
    payloads.push({ name, kind: 'json', bytes: encoder.encode(JSON.stringify(value)) });
  };
  const typed = (name: string, array: TfArray | Uint32Array): void => {
    payloads.push({ name, kind: kindOf(array), bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength) });
  };
  json('terms', terms);
  typed('ids.units', ids.units());
  typed('ids.offsets', ids.offsets());
  if (documents)
    json(
      'documents',
      documents.map((document) => document ?? null),
    );
  fields.forEach((field, fieldIndex) => {
    typed(`field${fieldIndex}.termOffsets`, field.termOffsets);
    typed(`field${fieldIndex}.postingDocs`, field.postingDocs);
    typed(`field${fieldIndex}.postingTfs`, field.postingTfs);
    typed(`field${fieldIndex}.lengths`, field.lengths);
  });
  const header: Header = {
    format: 'factkit-bm25',
    analyzer: index.analyzer.id,
    parameters: index.parameters,
    fieldNames: [...index.fieldNames],
    fieldWeights: [...index.fieldWeights],
    documentCount: ids.length,
    vocabularySize: terms.length,
    storeDocuments: documents !== undefined,
  };
  return { header: { ...header }, payloads };
}

export interface DeserializeBm25IndexOptions {
  /** Needed when the index was built with a custom analyzer; its `id` must match the saved one. */
  readonly analyzer?: Analyzer;
  /** Names the data in error messages (e.g. a file path). @default 'bm25 index' */
  readonly source?: string;
}

function resolveAnalyzer(savedId: string, provided: Analyzer | undefined, where: string): Analyzer {
  if (provided) {
    if (provided.id !== savedId) throw new InvalidArgumentError({ where, argument: 'analyzer', message: `has id "${provided.id}" but the index was built with "${savedId}"` });
    return provided;
  }
  if (savedId === 'lucene-english') return createEnglishAnalyzer();
  if (savedId === 'lucene-cjk') return createChineseAnalyzer();
  throw new InvalidArgumentError({ where, argument: 'analyzer', message: `must be given: the index was built with the custom analyzer "${savedId}"` });
}

function copyShared<T extends TfArray | Uint32Array>(make: (buffer: ArrayBufferLike, length: number) => T, bytes: Uint8Array, bytesPerElement: number): T {
  const buffer = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(Math.max(1, bytes.byteLength)) : new ArrayBuffer(Math.max(1, bytes.byteLength));
  new Uint8Array(buffer).set(bytes);
  return make(buffer, bytes.byteLength / bytesPerElement);
}

/** Checks the CSR invariants so a damaged file can never produce silently wrong scores. */
function validateStructure(fields: CompactedField[], documentCount: number, vocabularySize: number, fail: (message: string) => never): void {
  fields.forEach((field, fieldIndex) => {
    const { termOffsets, postingDocs, postingTfs, lengths } = field;
    if (termOffsets.length !== vocabularySize + 1) fail(`field ${fieldIndex}: ${termOffsets.length} term offsets for ${vocabularySize} terms`);
    if (lengths.length !== documentCount) fail(`field ${fieldIndex}: ${lengths.length} lengths for ${documentCount} documents`);
    if (postingTfs.length !== postingDocs.length) fail(`field ${fieldIndex}: ${postingTfs.length} frequencies for ${postingDocs.length} postings`);
    if (termOffsets[0] !== 0 || termOffsets[vocabularySize] !== postingDocs.length) fail(`field ${fieldIndex}: term offsets do not span the postings`);
    const tfSums = new Float64Array(documentCount);
    for (let term = 0; term < vocabularySize; term++) {
      const start = termOffsets[term] as number;
      const end = termOffsets[term + 1] as number;
      if (end < start) fail(`field ${fieldIndex}: term offsets decrease at term ${term}`);
      let previous = -1;
      for (let position = start; position < end; position++) {
        const doc = postingDocs[position] as number;
        if (doc >= documentCount || doc <= previous) fail(`field ${fieldIndex}: posting list of term ${term} is out of order or out of range`);
        const tf = postingTfs[position] as number;
        if (tf === 0) fail(`field ${fieldIndex}: zero term frequency in term ${term}`);
        tfSums[doc] = (tfSums[doc] as number) + tf;
        previous = doc;
      }
    }
    for (let doc = 0; doc < documentCount; doc++) if ((tfSums[doc] as number) > (lengths[doc] as number)) fail(`field ${fieldIndex}: document ${doc} has more term occurrences than its length`);
  });
}

/**
 * Decodes bytes written by {@link serializeBm25Index}, verifying magic, version, length, CRC-32 and the postings' structure.
 * @throws CorruptDataError when the bytes are truncated, damaged or of an unknown format/version.
 * @throws InvalidArgumentError when a custom analyzer is needed but missing or mismatched.
 */
export function deserializeBm25Index(bytes: Uint8Array, options: DeserializeBm25IndexOptions = {}): Bm25Index {
  const { source = 'bm25 index' } = options;
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError({ where: 'deserializeBm25Index', argument: 'bytes', message: 'must be a Uint8Array' });
  const container = decodeSectionContainer<Header, SectionKind>(bytes, { magic: BM25_INDEX_MAGIC, version: BM25_INDEX_FORMAT_VERSION, olderVersions: OLDER_VERSIONS, format: 'factkit-bm25', label: 'BM25 index', source });
  return indexFromContainer(container, options, false);
}

/**
 * Streaming {@link deserializeBm25Index} over bytes read by position (a file): each typed section is read straight into
 * its final SharedArrayBuffer, so the whole file is never held beside the index. Same checks and errors.
 */
export function readBm25Index(input: RandomAccessBytes, options: DeserializeBm25IndexOptions = {}): Bm25Index {
  const { source = 'bm25 index' } = options;
  const container = readSectionContainer<Header, SectionKind>(
    input,
    { magic: BM25_INDEX_MAGIC, version: BM25_INDEX_FORMAT_VERSION, olderVersions: OLDER_VERSIONS, format: 'factkit-bm25', label: 'BM25 index', source },
    // Postings sections go to SharedArrayBuffers (worker threads read them); JSON and the ids stay in plain buffers.
    (section) =>
      section.kind !== 'json' && !section.name.startsWith('ids.') && typeof SharedArrayBuffer === 'function'
        ? new Uint8Array(new SharedArrayBuffer(Math.max(1, section.byteLength)), 0, section.byteLength)
        : new Uint8Array(section.byteLength),
  );
  return indexFromContainer(container, options, true);
}

/** Builds the index from decoded sections; `adopt`: typed sections already sit in their own buffers (no copy). */
function indexFromContainer(container: DecodedSectionContainer<Header, SectionKind>, options: DeserializeBm25IndexOptions, adopt: boolean): Bm25Index {
  const { header, fail } = container;
  if (!Array.isArray(header.fieldNames)) fail('header is not a factkit BM25 index header');
  const readJson = <T>(name: string): T => container.readJson<T>(name);
  const readTyped = (name: string): TfArray | Uint32Array => {
    const section = container.section(name);
    if (!section) return fail(`section "${name}" is missing`);
    const width = section.kind === 'u8' ? 1 : section.kind === 'u16' ? 2 : section.kind === 'u32' ? 4 : 0;
    if (width === 0 || section.bytes.byteLength % width !== 0) return fail(`section "${name}" has a bad element type or size`);
    if (adopt && section.bytes.byteOffset === 0) {
      const { buffer } = section.bytes;
      if (width === 1) return new Uint8Array(buffer, 0, section.bytes.byteLength);
      if (width === 2) return new Uint16Array(buffer, 0, section.bytes.byteLength / 2);
      return new Uint32Array(buffer, 0, section.bytes.byteLength / 4);
    }
    if (width === 1) return copyShared((buffer, length) => new Uint8Array(buffer, 0, length), section.bytes, 1);
    if (width === 2) return copyShared((buffer, length) => new Uint16Array(buffer, 0, length), section.bytes, 2);
    return copyShared((buffer, length) => new Uint32Array(buffer, 0, length), section.bytes, 4);
  };
  const terms = readJson<string[]>('terms');
  if (!Array.isArray(terms) || terms.length !== header.vocabularySize || terms.some((term) => typeof term !== 'string')) fail('vocabulary does not match the header');
  if (!Number.isInteger(header.documentCount) || header.documentCount < 0) fail('header has a bad document count');
  let ids: DocIdStore;
  if (container.version === 1) {
    const strings = readJson<string[]>('ids');
    if (!Array.isArray(strings) || strings.length !== header.documentCount || strings.some((id) => typeof id !== 'string')) fail('document ids do not match the header');
    ids = docIdStoreFromStrings(strings);
  } else {
    const units = readTyped('ids.units');
    const offsets = readTyped('ids.offsets');
    if (units instanceof Uint32Array || !(offsets instanceof Uint32Array)) return fail('document id sections have a bad element type');
    const problem = checkDocIdStoreArrays(units, offsets, header.documentCount);
    if (problem) fail(`document ids do not match the header (${problem})`);
    ids = createDocIdStore({ units, offsets });
  }
  const { table: idTable, duplicate } = buildDocIdTable(ids, ids.length);
  if (duplicate >= 0) fail(`document ids are not unique ("${ids.at(duplicate)}" repeats)`);
  const documents = header.storeDocuments ? readJson<(Document | null)[]>('documents') : undefined;
  if (documents && (!Array.isArray(documents) || documents.length !== ids.length)) fail('stored documents do not match the ids');
  const fields: CompactedField[] = header.fieldNames.map((_, fieldIndex) => {
    const termOffsets = readTyped(`field${fieldIndex}.termOffsets`);
    const postingDocs = readTyped(`field${fieldIndex}.postingDocs`);
    const lengths = readTyped(`field${fieldIndex}.lengths`);
    if (!(termOffsets instanceof Uint32Array) || !(postingDocs instanceof Uint32Array) || !(lengths instanceof Uint32Array)) return fail(`field ${fieldIndex} has a bad element type`);
    return { termOffsets, postingDocs, postingTfs: readTyped(`field${fieldIndex}.postingTfs`), lengths };
  });
  validateStructure(fields, ids.length, terms.length, fail);
  const analyzer = resolveAnalyzer(header.analyzer, options.analyzer, 'deserializeBm25Index');
  const fieldsOption = header.fieldNames.length === 1 && header.fieldNames[0] === 'contents' ? 'flat' : Object.fromEntries(header.fieldNames.map((name, position) => [name, header.fieldWeights[position] as number]));
  const index = createBm25Index({
    analyzer,
    fields: fieldsOption,
    k1: header.parameters.k1,
    b: header.parameters.b,
    variant: header.parameters.variant,
    delta: header.parameters.delta,
    lengthEncoding: header.parameters.lengthEncoding,
    storeDocuments: header.storeDocuments,
  });
  getIndexState(index, 'deserializeBm25Index').restore({ terms, ids, idTable, fields, ...(documents ? { documents: documents.map((document) => document ?? undefined) } : {}) });
  return index;
}

/** JSON form of an index: readable, diffable, and loadable with {@link importBm25IndexJson}. */
export interface Bm25IndexJson {
  readonly format: 'factkit-bm25-json';
  readonly version: 1;
  readonly analyzer: string;
  readonly parameters: Bm25Parameters;
  readonly fields: ReadonlyArray<{
    readonly name: string;
    readonly weight: number;
    /** Per document (same order as `ids`). */
    readonly lengths: readonly number[];
    /** term → [[document position in `ids`, tf], …] ascending by position. */
    readonly postings: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>>;
  }>;
  readonly ids: readonly string[];
  readonly documents?: readonly (Document | null)[];
}

/** Exports an index as plain JSON (see {@link Bm25IndexJson}). */
export function exportBm25IndexJson(index: Bm25Index): Bm25IndexJson {
  const { terms, ids, fields, documents } = getIndexState(index, 'exportBm25IndexJson');
  return {
    format: 'factkit-bm25-json',
    version: 1,
    analyzer: index.analyzer.id,
    parameters: index.parameters,
    fields: fields.map((field, fieldIndex) => {
      const postings: Record<string, [number, number][]> = {};
      terms.forEach((term, termId) => {
        const start = field.termOffsets[termId] as number;
        const end = field.termOffsets[termId + 1] as number;
        if (end <= start) return;
        const list: [number, number][] = [];
        for (let position = start; position < end; position++) list.push([field.postingDocs[position] as number, field.postingTfs[position] as number]);
        postings[term] = list;
      });
      return { name: index.fieldNames[fieldIndex] as string, weight: index.fieldWeights[fieldIndex] as number, lengths: Array.from(field.lengths), postings };
    }),
    ids: ids.toArray(),
    ...(documents ? { documents: documents.map((document) => document ?? null) } : {}),
  };
}

/**
 * Rebuilds an index from {@link exportBm25IndexJson} output, validating it like the binary loader.
 * @throws CorruptDataError when the JSON is not a consistent factkit BM25 export.
 */
export function importBm25IndexJson(json: Bm25IndexJson, options: DeserializeBm25IndexOptions = {}): Bm25Index {
  const { source = 'bm25 index json' } = options;
  const fail = (message: string): never => {
    throw new CorruptDataError({ source, message });
  };
  if (typeof json !== 'object' || json === null || json.format !== 'factkit-bm25-json') fail('is not a factkit BM25 JSON export');
  if (json.version !== 1) fail(`has version ${String(json.version)}; this library reads version 1`);
  if (!Array.isArray(json.ids) || !Array.isArray(json.fields) || json.fields.length === 0) fail('lacks ids or fields');
  const terms: string[] = [];
  const termIds = new Map<string, number>();
  for (const field of json.fields) for (const term of Object.keys(field.postings ?? {})) if (!termIds.has(term)) termIds.set(term, terms.push(term) - 1);
  const fields: CompactedField[] = json.fields.map((field) => {
    if (!Array.isArray(field.lengths)) return fail(`field "${field.name}" lacks lengths`);
    const counts = new Uint32Array(terms.length + 1);
    let total = 0;
    let maxTf = 0;
    for (const [term, list] of Object.entries(field.postings ?? {})) {
      if (!Array.isArray(list)) return fail(`postings of "${term}" are not an array`);
      counts[termIds.get(term) as number] = list.length;
      total += list.length;
      for (const entry of list) if (Array.isArray(entry) && typeof entry[1] === 'number' && entry[1] > maxTf) maxTf = entry[1];
    }
    const termOffsets = new Uint32Array(terms.length + 1);
    for (let term = 0; term < terms.length; term++) termOffsets[term + 1] = (termOffsets[term] as number) + (counts[term] as number);
    const postingDocs = new Uint32Array(total);
    const postingTfs: TfArray = maxTf < 256 ? new Uint8Array(total) : maxTf < 65536 ? new Uint16Array(total) : new Uint32Array(total);
    for (const [term, list] of Object.entries(field.postings ?? {})) {
      let write = termOffsets[termIds.get(term) as number] as number;
      for (const entry of list) {
        if (!Array.isArray(entry) || !Number.isInteger(entry[0]) || !Number.isInteger(entry[1]) || entry[0] < 0 || entry[1] < 0) return fail(`posting of "${term}" is not [document, tf]`);
        postingDocs[write] = entry[0];
        postingTfs[write] = entry[1];
        write++;
      }
    }
    return { termOffsets, postingDocs, postingTfs, lengths: Uint32Array.from(field.lengths.map((length) => (Number.isInteger(length) && length >= 0 ? length : fail(`field "${field.name}" has a bad length`)))) };
  });
  validateStructure(fields, json.ids.length, terms.length, fail);
  if (json.ids.some((id) => typeof id !== 'string')) fail('document ids are not all strings');
  const ids = docIdStoreFromStrings(json.ids);
  const { table: idTable, duplicate } = buildDocIdTable(ids, ids.length);
  if (duplicate >= 0) fail(`document ids are not unique ("${ids.at(duplicate)}" repeats)`);
  const analyzer = resolveAnalyzer(json.analyzer, options.analyzer, 'importBm25IndexJson');
  const names = json.fields.map((field) => field.name);
  const index = createBm25Index({
    analyzer,
    fields: names.length === 1 && names[0] === 'contents' ? 'flat' : Object.fromEntries(json.fields.map((field) => [field.name, field.weight])),
    k1: json.parameters.k1,
    b: json.parameters.b,
    variant: json.parameters.variant,
    delta: json.parameters.delta,
    lengthEncoding: json.parameters.lengthEncoding,
    storeDocuments: json.documents !== undefined,
  });
  getIndexState(index, 'deserializeBm25Index').restore({ terms, ids, idTable, fields, ...(json.documents ? { documents: json.documents.map((document) => document ?? undefined) } : {}) });
  return index;
}
