// Byte format of a saved dense (flat) index. Browser-safe: no Node imports (file helpers are in io/dense-files.ts).
import { InvalidArgumentError, type Embedder } from '@factkit/core';
import { type SectionPayload, decodeSectionContainer, encodeSectionContainer, isLittleEndian } from '../internal/section-container.js';
import { checkStoreMetric } from '../stores/validate-records.js';
import { createInMemoryVectorStore } from '../stores/in-memory-vector-store.js';
import { createDenseRetriever, type DenseRetriever } from './dense-retriever.js';
import type { FlatIndex, VectorMetric } from './flat-index.js';

/** First 8 bytes of a saved dense index: `FKDENS` + CR LF (catches text-mode transfer damage). */
const DENSE_INDEX_MAGIC = new Uint8Array([0x46, 0x4b, 0x44, 0x45, 0x4e, 0x53, 0x0d, 0x0a]);
/** Binary format version written by {@link serializeDenseIndex}. */
export const DENSE_INDEX_FORMAT_VERSION = 1;

import { type DenseStoredDocument, storedDocumentMetadata } from './stored-document.js';

export type { DenseStoredDocument };

/**
 * A dense flat index as plain data: one vector per id (row-major in `vectors`), the similarity, and which embedder made
 * the vectors (queries must be embedded by the same one). What {@link serializeDenseIndex} writes.
 */
export interface DenseIndexSnapshot {
  /** `Embedder.id` of the model that embedded the documents. */
  readonly embedderId: string;
  readonly dimensions: number;
  readonly metric: VectorMetric;
  readonly ids: readonly string[];
  /** `ids.length × dimensions` floats, row i = vector of `ids[i]`. */
  readonly vectors: Float32Array;
  /** Stored text (and title, metadata) per id, same order as `ids`; null where none was kept. */
  readonly documents?: readonly (DenseStoredDocument | null)[];
}

type SectionKind = 'f32' | 'json';

interface Header {
  format: 'factkit-dense';
  embedderId: string;
  dimensions: number;
  metric: VectorMetric;
  count: number;
  storeDocuments: boolean;
}

/** Checks a snapshot's shape; `fail` decides the error type (bad argument on save, corrupt data on load). */
function checkSnapshot(snapshot: DenseIndexSnapshot, fail: (argument: string, message: string) => never): void {
  if (typeof snapshot !== 'object' || snapshot === null) fail('snapshot', 'must be an object');
  const { embedderId, dimensions, metric, ids, vectors, documents } = snapshot;
  if (typeof embedderId !== 'string' || embedderId.length === 0) fail('embedderId', 'must be a non-empty string');
  if (!Number.isInteger(dimensions) || dimensions < 1) fail('dimensions', `must be a positive integer (got ${String(dimensions)})`);
  if (metric !== 'cosine' && metric !== 'inner-product') fail('metric', `must be 'cosine' or 'inner-product' (got ${String(metric)})`);
  if (!Array.isArray(ids)) fail('ids', 'must be an array of strings');
  const seen = new Set<string>();
  ids.forEach((id, position) => {
    if (typeof id !== 'string' || id.length === 0) fail(`ids[${position}]`, 'must be a non-empty string');
    if (seen.has(id)) fail(`ids[${position}]`, `duplicates id "${id}"`);
    seen.add(id);
  });
  if (!(vectors instanceof Float32Array)) fail('vectors', 'must be a Float32Array');
  if (vectors.length !== ids.length * dimensions) fail('vectors', `has ${vectors.length} floats; ${ids.length} ids × ${dimensions} dimensions need ${ids.length * dimensions}`);
  for (let position = 0; position < vectors.length; position++) {
    if (!Number.isFinite(vectors[position])) fail('vectors', `row ${Math.floor(position / dimensions)} ("${ids[Math.floor(position / dimensions)]}") has a non-finite value`);
  }
  if (documents !== undefined) {
    if (!Array.isArray(documents) || documents.length !== ids.length) fail('documents', `must be an array of ${ids.length} entries (one per id)`);
    documents.forEach((document, position) => {
      if (document === null) return;
      if (typeof document !== 'object' || typeof document.text !== 'string') fail(`documents[${position}]`, 'must be null or { text, title?, source?, metadata? }');
      if (document.title !== undefined && typeof document.title !== 'string') fail(`documents[${position}].title`, 'must be a string');
    });
  }
}

/**
 * Encodes a dense index as bytes: magic, version, a JSON header (embedder id, dimensions, metric, count, section
 * table), 8-byte-aligned sections (ids as JSON, vectors as little-endian float32, stored documents as JSON) and a
 * CRC-32 + length footer. Works in browsers (no Node APIs).
 * @throws InvalidArgumentError naming the field of a malformed snapshot (duplicate id, wrong vector length, NaN).
 * @example await writeFile('corpus.dense', serializeDenseIndex(snapshotFlatIndex(index, { embedderId: embedder.id })))
 */
export function serializeDenseIndex(snapshot: DenseIndexSnapshot): Uint8Array {
  const where = 'serializeDenseIndex';
  if (!isLittleEndian) throw new InvalidArgumentError({ where, argument: 'snapshot', message: 'can only be serialized on little-endian platforms' });
  checkSnapshot(snapshot, (argument, message) => {
    throw new InvalidArgumentError({ where, argument, message });
  });
  const encoder = new TextEncoder();
  const payloads: SectionPayload<SectionKind>[] = [
    { name: 'ids', kind: 'json', bytes: encoder.encode(JSON.stringify(snapshot.ids)) },
    { name: 'vectors', kind: 'f32', bytes: new Uint8Array(snapshot.vectors.buffer, snapshot.vectors.byteOffset, snapshot.vectors.byteLength) },
  ];
  if (snapshot.documents) payloads.push({ name: 'documents', kind: 'json', bytes: encoder.encode(JSON.stringify(snapshot.documents)) });
  const header: Header = {
    format: 'factkit-dense',
    embedderId: snapshot.embedderId,
    dimensions: snapshot.dimensions,
    metric: snapshot.metric,
    count: snapshot.ids.length,
    storeDocuments: snapshot.documents !== undefined,
  };
  return encodeSectionContainer(DENSE_INDEX_MAGIC, DENSE_INDEX_FORMAT_VERSION, { ...header }, payloads);
}

export interface DeserializeDenseIndexOptions {
  /** Names the data in error messages (e.g. a file path). @default 'dense index' */
  readonly source?: string;
}

/**
 * Decodes bytes written by {@link serializeDenseIndex}, verifying magic, version, length, CRC-32 and the shape
 * (ids unique, `count × dimensions` finite floats). Works in browsers.
 * @throws CorruptDataError naming the source when the bytes are truncated, damaged or of another format/version.
 */
export function deserializeDenseIndex(bytes: Uint8Array, options: DeserializeDenseIndexOptions = {}): DenseIndexSnapshot {
  const { source = 'dense index' } = options;
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError({ where: 'deserializeDenseIndex', argument: 'bytes', message: 'must be a Uint8Array' });
  const { header, fail, readJson, section } = decodeSectionContainer<Header, SectionKind>(bytes, {
    magic: DENSE_INDEX_MAGIC,
    version: DENSE_INDEX_FORMAT_VERSION,
    format: 'factkit-dense',
    label: 'dense index',
    source,
  });
  const vectorSection = section('vectors');
  if (!vectorSection || vectorSection.kind !== 'f32' || vectorSection.bytes.byteLength % 4 !== 0) return fail('section "vectors" is missing or not float32');
  // Copy into a fresh, aligned buffer (the section may sit at any offset of the caller's bytes).
  const vectors = new Float32Array(vectorSection.bytes.byteLength / 4);
  new Uint8Array(vectors.buffer).set(vectorSection.bytes);
  const ids = readJson<string[]>('ids');
  if (!Array.isArray(ids) || ids.length !== header.count) fail(`has ${Array.isArray(ids) ? ids.length : 'no'} ids; the header says ${String(header.count)}`);
  const documents = header.storeDocuments ? readJson<(DenseStoredDocument | null)[]>('documents') : undefined;
  const snapshot: DenseIndexSnapshot = {
    embedderId: header.embedderId,
    dimensions: header.dimensions,
    metric: header.metric,
    ids,
    vectors,
    ...(documents === undefined ? {} : { documents }),
  };
  checkSnapshot(snapshot, (argument, message) => fail(`${argument} ${message}`));
  return snapshot;
}

/**
 * Reads a FlatIndex out into a {@link DenseIndexSnapshot} (ids in storage order, vectors copied).
 * @throws InvalidArgumentError when `embedderId` is empty or `documents` lacks an id of the index.
 * @example const bytes = serializeDenseIndex(snapshotFlatIndex(index, { embedderId: 'use-lite' }))
 */
export function snapshotFlatIndex(index: FlatIndex, options: { readonly embedderId: string; readonly documents?: ReadonlyMap<string, DenseStoredDocument> }): DenseIndexSnapshot {
  const { embedderId, documents } = options;
  const ids = index.ids();
  const vectors = new Float32Array(ids.length * index.dimensions);
  ids.forEach((id, row) => vectors.set(index.getVector(id) as Float32Array, row * index.dimensions));
  const stored = documents
    ? ids.map((id) => {
        const document = documents.get(id);
        if (document === undefined) throw new InvalidArgumentError({ where: 'snapshotFlatIndex', argument: 'documents', message: `has no entry for id "${id}"` });
        return document;
      })
    : undefined;
  const snapshot: DenseIndexSnapshot = { embedderId, dimensions: index.dimensions, metric: index.metric, ids, vectors, ...(stored ? { documents: stored } : {}) };
  checkSnapshot(snapshot, (argument, message) => {
    throw new InvalidArgumentError({ where: 'snapshotFlatIndex', argument, message });
  });
  return snapshot;
}

export interface RestoreDenseRetrieverOptions {
  /** Embeds queries; its `id` and `dimensions` must match the snapshot's. */
  readonly embedder: Embedder;
  /** @default `dense(${embedder.id})` */
  readonly id?: string;
}

/**
 * Turns a loaded snapshot back into a searchable DenseRetriever over an in-memory flat store; stored documents become
 * the evidence text and title.
 * @throws InvalidArgumentError when the embedder's id or dimensions differ from those that made the vectors.
 * @example const retriever = await restoreDenseRetriever(deserializeDenseIndex(bytes), { embedder })
 */
export async function restoreDenseRetriever(snapshot: DenseIndexSnapshot, options: RestoreDenseRetrieverOptions): Promise<DenseRetriever> {
  const where = 'restoreDenseRetriever';
  const { embedder } = options;
  if (embedder?.id !== snapshot.embedderId) {
    throw new InvalidArgumentError({ where, argument: 'embedder', message: `has id "${String(embedder?.id)}" but the index was embedded with "${snapshot.embedderId}"` });
  }
  if (embedder.dimensions !== snapshot.dimensions) {
    throw new InvalidArgumentError({ where, argument: 'embedder', message: `has ${embedder.dimensions} dimensions but the index has ${snapshot.dimensions}` });
  }
  checkStoreMetric(snapshot.metric, where);
  const store = createInMemoryVectorStore({ dimensions: snapshot.dimensions, metric: snapshot.metric });
  const { dimensions } = snapshot;
  const records = snapshot.ids.map((id, row) => {
    const document = snapshot.documents?.[row];
    return {
      id,
      vector: snapshot.vectors.subarray(row * dimensions, (row + 1) * dimensions),
      ...(document ? { metadata: storedDocumentMetadata(document) } : {}),
    };
  });
  if (records.length > 0) await store.upsert({ records });
  return createDenseRetriever({ embedder, store, ...(options.id === undefined ? {} : { id: options.id }) });
}
