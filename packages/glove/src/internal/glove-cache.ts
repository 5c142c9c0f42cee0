import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { CorruptDataError } from '@factkit/core';
import { createGloveVectors, isSortedVocabulary, sortGloveVectors } from '../glove-vectors.js';
import type { GloveVectors } from '../glove-vectors.js';

/**
 * Binary cache layout (little-endian):
 *   0  8 bytes  magic "FKGLOVE\0"
 *   8  uint32   format version (2)
 *  12  uint32   dimensions
 *  16  uint32   vocabulary size (rows)
 *  20  uint32   byte length of the vocabulary block
 *  24  uint32   CRC-32 of everything after the 32-byte header
 *  28  uint32   reserved (0)
 *  32  vocabulary: UTF-8 words in ascending UTF-16 code-unit order, joined by "\n", zero-padded to a multiple of 4 bytes
 *  ..  float32 matrix, rows × dimensions
 */
const MAGIC = 'FKGLOVE\0';
const FORMAT_VERSION = 2;
const HEADER_BYTES = 32;

function align4(value: number): number {
  return (value + 3) & ~3;
}

/**
 * Serializes a vector table to the binary cache format, rows sorted by word so loading needs no hash map.
 * Words must not contain "\n" (GloVe words never do; `parseWinkEmbeddings` rejects them).
 */
export function encodeGloveCache(vectors: GloveVectors): Uint8Array {
  const { words, matrix, dimensions } = sortGloveVectors(vectors);
  const vocabulary = new TextEncoder().encode(words.join('\n'));
  const vocabularyPadded = align4(vocabulary.byteLength);
  const total = HEADER_BYTES + vocabularyPadded + matrix.byteLength;
  const bytes = new Uint8Array(total);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  bytes.set(vocabulary, HEADER_BYTES);
  bytes.set(new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength), HEADER_BYTES + vocabularyPadded);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, FORMAT_VERSION, true);
  view.setUint32(12, dimensions, true);
  view.setUint32(16, words.length, true);
  view.setUint32(20, vocabulary.byteLength, true);
  view.setUint32(24, crc32(bytes.subarray(HEADER_BYTES)), true);
  view.setUint32(28, 0, true);
  return bytes;
}

/**
 * Parses and validates a binary cache. Checks magic, version, sizes against the file length and the CRC-32.
 * @throws CorruptDataError when the bytes are truncated, corrupt or of another format/version.
 */
export function decodeGloveCache(bytes: Uint8Array, source = 'glove cache'): GloveVectors {
  const fail = (message: string): never => {
    throw new CorruptDataError({ source, message });
  };
  if (bytes.byteLength < HEADER_BYTES) fail(`file is ${bytes.byteLength} bytes, shorter than the ${HEADER_BYTES}-byte header (truncated?)`);
  if (new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) fail('not a factkit GloVe cache (bad magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== FORMAT_VERSION) fail(`unsupported format version ${version} (expected ${FORMAT_VERSION})`);
  const dimensions = view.getUint32(12, true);
  const rows = view.getUint32(16, true);
  const vocabularyBytes = view.getUint32(20, true);
  const expectedCrc = view.getUint32(24, true);
  if (dimensions === 0) fail('dimensions is 0');
  const matrixOffset = HEADER_BYTES + align4(vocabularyBytes);
  const expectedLength = matrixOffset + rows * dimensions * 4;
  if (bytes.byteLength !== expectedLength) {
    fail(`file is ${bytes.byteLength} bytes, header says ${expectedLength} (${rows} rows × ${dimensions} dims; truncated or corrupt)`);
  }
  if (crc32(bytes.subarray(HEADER_BYTES)) !== expectedCrc) fail('checksum mismatch (corrupt)');
  const words = rows === 0 ? [] : new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + vocabularyBytes)).split('\n');
  if (words.length !== rows) fail(`vocabulary has ${words.length} words, header says ${rows}`);
  if (!isSortedVocabulary(words)) fail('vocabulary is not sorted');
  // Float32Array needs 4-byte alignment of the absolute offset; copy when the buffer does not give it.
  const absolute = bytes.byteOffset + matrixOffset;
  const matrix = absolute % 4 === 0 ? new Float32Array(bytes.buffer, absolute, rows * dimensions) : new Float32Array(bytes.slice(matrixOffset, expectedLength).buffer);
  return createGloveVectors(words, matrix, dimensions);
}

/** Reads and validates a cache file. @throws CorruptDataError (bad content); fs errors (e.g. ENOENT) pass through. */
/** Format version written into (and required of) cache files. */
export const GLOVE_CACHE_FORMAT_VERSION = FORMAT_VERSION;

export async function readGloveCache(path: string): Promise<GloveVectors> {
  const bytes = await readFile(path);
  return decodeGloveCache(bytes, path);
}

/** Writes a cache file atomically (temp file + rename), so concurrent writers and crashes never leave a partial file. */
export async function writeGloveCache(path: string, vectors: GloveVectors): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, encodeGloveCache(vectors));
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
