import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { assertNonEmptyString, assertPositiveInteger, CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { checkStoreVector } from '../stores/validate-records.js';
import type { VectorRowSource } from './quantized-flat-index.js';

/** A `VectorRowSource` over a float32 row file, holding an open file descriptor. */
export interface FileVectorSource extends VectorRowSource {
  readonly path: string;
  readonly rows: number;
  /** Positioned reads issued so far (one per run of adjacent rows). */
  readonly reads: number;
  /** Closes the file; later reads throw. */
  close(): void;
}

export interface FileVectorSourceOptions {
  /** Length of every row; the file size must be a multiple of `dimensions × 4` bytes. */
  readonly dimensions: number;
}

const checkDimensions = (dimensions: unknown, where: string): number => {
  assertPositiveInteger('dimensions', dimensions, where);
  return dimensions;
};

/**
 * Writes vectors as a float32 row file (no header; row r at byte `r · dimensions · 4`, platform byte order — little-endian
 * on every platform Node supports), the format `createFileVectorSource` reads. Write the vectors in the order they will be
 * upserted into a `createQuantizedFlatIndex({ floatVectors: source })` (row r = the r-th new id). Synchronous; rows are
 * buffered and written in chunks of about 4 MB.
 * @returns the number of rows written.
 * @throws InvalidArgumentError for bad dimensions or a vector of another length or with a non-finite value.
 * @example
 * writeVectorFile('vectors.f32', entries.map((entry) => entry.vector), { dimensions: 384 });
 */
export function writeVectorFile(path: string, vectors: Iterable<Float32Array>, options: FileVectorSourceOptions & { /** Append to an existing file. @default false */ readonly append?: boolean }): number {
  const where = 'writeVectorFile';
  const dimensions = checkDimensions(options?.dimensions, where);
  const chunkRows = Math.max(1, Math.floor((4 << 20) / (dimensions * 4)));
  const chunk = new Float32Array(chunkRows * dimensions);
  const bytes = new Uint8Array(chunk.buffer);
  const fd = openSync(path, options.append ? 'a' : 'w');
  let written = 0;
  let buffered = 0;
  const flush = () => {
    let offset = 0;
    const length = buffered * dimensions * 4;
    while (offset < length) offset += writeSync(fd, bytes, offset, length - offset);
    buffered = 0;
  };
  try {
    for (const vector of vectors) {
      checkStoreVector(vector, dimensions, where, `vectors[${written}]`);
      chunk.set(vector, buffered * dimensions);
      buffered += 1;
      written += 1;
      if (buffered === chunkRows) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return written;
}

/**
 * Opens a float32 row file (written by `writeVectorFile`) as a synchronous row source for
 * `createQuantizedFlatIndex({ floatVectors: source })`: the float vectors stay on disk (the OS page cache may hold them,
 * which is not process memory) and each search reads only its re-ranked rows, with one `readSync` per run of adjacent
 * rows. `rows` is counted when the file is opened: after appending (`writeVectorFile(..., { append: true })`), open a new
 * source (an index's source is fixed at creation, so growing past `rows` needs a rebuilt index). Call `close()` when done.
 * @throws InvalidArgumentError for bad dimensions; CorruptDataError when the file size is not a whole number of rows.
 * @example
 * const source = createFileVectorSource('vectors.f32', { dimensions: 384 });
 * const index = createQuantizedFlatIndex({ dimensions: 384, prefilter: 'binary', floatVectors: source });
 */
export function createFileVectorSource(path: string, options: FileVectorSourceOptions): FileVectorSource {
  const where = 'createFileVectorSource';
  const dimensions = checkDimensions(options?.dimensions, where);
  assertNonEmptyString('path', path, where);
  const rowBytes = dimensions * 4;
  const fd = openSync(path, 'r');
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (size % rowBytes !== 0) {
    closeSync(fd);
    throw new CorruptDataError({ source: path, message: `${size} bytes is not a whole number of ${dimensions}-dimension float32 rows (${rowBytes} bytes each): truncated, or written with other dimensions` });
  }
  const rows = size / rowBytes;
  let open = true;
  let reads = 0;
  const readExactly = (out: Float32Array, at: number, count: number, row: number) => {
    const target = new Uint8Array(out.buffer, out.byteOffset + at * rowBytes, count * rowBytes);
    let done = 0;
    while (done < target.length) {
      const got = readSync(fd, target, done, target.length - done, row * rowBytes + done);
      reads += 1;
      if (got === 0) throw new CorruptDataError({ source: path, message: `ended while reading rows ${row}..${row + count - 1} (the file shrank after it was opened)` });
      done += got;
    }
  };
  return {
    path,
    dimensions,
    rows,
    get reads() {
      return reads;
    },
    read(rowNumbers, count, out) {
      if (!open) throw new InvalidArgumentError({ where: 'FileVectorSource.read', argument: 'this', message: `the source for ${path} is closed` });
      if (out.length < count * dimensions) {
        throw new InvalidArgumentError({ where: 'FileVectorSource.read', argument: 'out', message: `holds ${out.length} values, ${count} rows need ${count * dimensions}` });
      }
      let k = 0;
      while (k < count) {
        const first = rowNumbers[k] as number;
        if (!Number.isInteger(first) || first < 0 || first >= rows) {
          throw new InvalidArgumentError({ where: 'FileVectorSource.read', argument: 'rows', message: `row ${first} is outside the file's ${rows} rows` });
        }
        // A run: rows that follow each other both in the request and in the file are read with one call.
        let run = 1;
        while (k + run < count && rowNumbers[k + run] === first + run && first + run < rows) run += 1;
        readExactly(out, k, run, first);
        k += run;
      }
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
