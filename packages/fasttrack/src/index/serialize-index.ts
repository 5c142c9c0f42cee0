import { CorruptDataError, InvalidArgumentError, type Document } from '@factkit/core';
import type { ClusterNode, ClusterTree } from '../clustering/cluster-tree.js';
import type { FastTrackIndex, LeafLabel } from './fasttrack-index.js';

/** Version of the saved index format written by `serializeFastTrackIndex`. */
export const FASTTRACK_INDEX_FORMAT_VERSION = 1;

const MAGIC = [0x46, 0x54, 0x49, 0x58]; // 'FTIX'
const PREFIX = 12; // magic, version, header length
const DIGEST = 32;

interface Header {
  readonly embedderId: string;
  readonly labellerId: string;
  readonly rows: number;
  readonly dimensions: number;
  readonly documents: readonly Document[];
  readonly tree: { k: number; maxLeafSize: number; seed: number; leaves: number[]; nodes: Array<{ id: number; parent: number; path: number[]; children: number[]; size: number; members?: number[] }> };
  readonly labels: Array<[number, LeafLabel]>;
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/**
 * Encodes an index as bytes: `FTIX`, format version, a JSON header (documents, tree, labels), the embeddings and node
 * centroids as little-endian float32, and a SHA-256 of everything before it. Write the bytes to a file with any I/O.
 */
export async function serializeFastTrackIndex(index: FastTrackIndex): Promise<Uint8Array> {
  const { embeddings, tree } = index;
  const header: Header = {
    embedderId: index.embedderId,
    labellerId: index.labellerId,
    rows: embeddings.rows,
    dimensions: embeddings.dimensions,
    documents: index.documents,
    tree: {
      k: tree.k,
      maxLeafSize: tree.maxLeafSize,
      seed: tree.seed,
      leaves: [...tree.leaves],
      nodes: tree.nodes.map((node) => ({ id: node.id, parent: node.parent, path: [...node.path], children: [...node.children], size: node.size, ...(node.members ? { members: [...node.members] } : {}) })),
    },
    labels: [...index.labels.entries()],
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const headerPadded = Math.ceil(json.length / 4) * 4;
  const floats = embeddings.data.length + tree.nodes.length * embeddings.dimensions;
  const body = new Uint8Array(PREFIX + headerPadded + floats * 4 + DIGEST);
  const view = new DataView(body.buffer);
  body.set(MAGIC, 0);
  view.setUint32(4, FASTTRACK_INDEX_FORMAT_VERSION, true);
  view.setUint32(8, json.length, true);
  body.set(json, PREFIX);
  let offset = PREFIX + headerPadded;
  for (const value of embeddings.data) {
    view.setFloat32(offset, value, true);
    offset += 4;
  }
  for (const node of tree.nodes) {
    for (const value of node.centroid) {
      view.setFloat32(offset, value, true);
      offset += 4;
    }
  }
  body.set(await sha256(body.subarray(0, offset)), offset);
  return body;
}

function corrupt(message: string, source: string | undefined, cause?: unknown): CorruptDataError {
  return new CorruptDataError({ message, ...(source ? { source } : {}), ...(cause ? { cause } : {}) });
}

/**
 * Decodes bytes written by `serializeFastTrackIndex`.
 * @throws CorruptDataError when the bytes are not a FastTrack index, were written by an unsupported format version,
 * fail the checksum, or describe an inconsistent tree.
 */
export async function deserializeFastTrackIndex(bytes: Uint8Array, options: { source?: string } = {}): Promise<FastTrackIndex> {
  const { source } = options;
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError({ where: 'deserializeFastTrackIndex', argument: 'bytes', message: 'must be a Uint8Array' });
  if (bytes.length < PREFIX + DIGEST || MAGIC.some((byte, index) => bytes[index] !== byte)) throw corrupt('not a FastTrack index (bad magic bytes or too short)', source);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== FASTTRACK_INDEX_FORMAT_VERSION) throw corrupt(`unsupported FastTrack index format version ${version} (this build reads ${FASTTRACK_INDEX_FORMAT_VERSION})`, source);
  const stored = bytes.subarray(bytes.length - DIGEST);
  const actual = await sha256(bytes.subarray(0, bytes.length - DIGEST));
  if (stored.some((byte, index) => byte !== actual[index])) throw corrupt('checksum mismatch: the file is truncated or was modified', source);
  const headerLength = view.getUint32(8, true);
  if (PREFIX + headerLength > bytes.length - DIGEST) throw corrupt('header length runs past the end of the file', source);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerLength))) as Header;
  } catch (cause) {
    throw corrupt('header is not valid UTF-8 JSON', source, cause);
  }
  const { rows, dimensions, tree } = header;
  const nodeCount = tree?.nodes?.length ?? -1;
  const start = PREFIX + Math.ceil(headerLength / 4) * 4;
  const expected = start + (rows * dimensions + nodeCount * dimensions) * 4 + DIGEST;
  if (!Number.isInteger(rows) || !Number.isInteger(dimensions) || nodeCount < 1 || expected !== bytes.length) throw corrupt('vector section size does not match the header', source);
  if (!Array.isArray(header.documents) || header.documents.length !== rows) throw corrupt(`header lists ${header.documents?.length} documents for ${rows} embeddings`, source);
  const floats = new Float32Array(rows * dimensions + nodeCount * dimensions);
  for (let index = 0; index < floats.length; index++) floats[index] = view.getFloat32(start + index * 4, true);
  const data = floats.slice(0, rows * dimensions);
  const seen = new Uint8Array(rows);
  const nodes: ClusterNode[] = tree.nodes.map((node, position) => {
    if (node.id !== position) throw corrupt(`node ${position} has id ${node.id}`, source);
    for (const row of node.members ?? []) {
      if (!Number.isInteger(row) || row < 0 || row >= rows || seen[row]) throw corrupt(`leaf ${node.id} lists row ${row} that is out of range or in another leaf`, source);
      seen[row] = 1;
    }
    const offset = rows * dimensions + position * dimensions;
    return { ...node, centroid: floats.slice(offset, offset + dimensions) };
  });
  if (seen.some((flag) => flag === 0)) throw corrupt('some documents are in no leaf', source);
  const clusterTree: ClusterTree = { k: tree.k, maxLeafSize: tree.maxLeafSize, seed: tree.seed, leaves: tree.leaves, nodes };
  return { embedderId: header.embedderId, labellerId: header.labellerId, documents: header.documents, embeddings: { rows, dimensions, data }, tree: clusterTree, labels: new Map(header.labels) };
}
