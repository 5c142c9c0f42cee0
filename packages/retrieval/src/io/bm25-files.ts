import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { assertNonEmptyString, CorruptDataError, InvalidArgumentError, type ProgressCallback } from '@factkit/core';
import { type Bm25Index, type Bm25IndexOptions, createBm25Index } from '../bm25/bm25-index.js';
import { getIndexState } from '../bm25/index-state.js';
import { type DeserializeBm25IndexOptions, readBm25Index, serializeBm25IndexChunks } from '../bm25/bm25-serialization.js';
import { streamBeirCorpus } from './beir.js';
import type { RetrievalProblem } from '../problem-codes.js';

const IO_PIECE = 64 << 20;

/**
 * Writes an index to a file atomically (temporary file + rename), streaming each section from the index's own arrays
 * (the file's bytes are never assembled in memory). The bytes are exactly those of `serializeBm25Index` (main entry).
 */
export async function saveBm25Index(index: Bm25Index, path: string): Promise<void> {
  assertNonEmptyString('path', path, 'saveBm25Index');
  const chunks = serializeBm25IndexChunks(index, 'saveBm25Index');
  const temporary = `${path}.${process.pid}.tmp`;
  const descriptor = openSync(temporary, 'w');
  try {
    for (const chunk of chunks) {
      for (let start = 0; start < chunk.byteLength; ) {
        const piece = chunk.subarray(start, Math.min(chunk.byteLength, start + IO_PIECE));
        let written = 0;
        while (written < piece.byteLength) written += writeSync(descriptor, piece, written, piece.byteLength - written);
        start += piece.byteLength;
      }
    }
  } catch (error) {
    closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(descriptor);
  try {
    renameSync(temporary, path);
  } catch (error) {
    // A failed write leaves nothing behind (e.g. `path` is a directory): no temporary file next to it.
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Reads an index written by {@link saveBm25Index} (or `serializeBm25Index` bytes saved to a file), reading each
 * section straight into its final buffer (the whole file is never held beside the index).
 * @throws CorruptDataError naming the file when it is truncated, damaged, or of another format/version.
 */
export async function loadBm25Index(path: string, options: Omit<DeserializeBm25IndexOptions, 'source'> = {}): Promise<Bm25Index> {
  let descriptor: number;
  let byteLength: number;
  try {
    descriptor = openSync(path, 'r');
    byteLength = fstatSync(descriptor).size;
  } catch (cause) {
    throw new InvalidArgumentError({ where: 'loadBm25Index', argument: 'path', message: `cannot be read (${path})`, cause });
  }
  try {
    const read = (target: Uint8Array, position: number): void => {
      for (let done = 0; done < target.byteLength; ) {
        const count = readSync(descriptor, target, done, Math.min(IO_PIECE, target.byteLength - done), position + done);
        if (count === 0) throw new CorruptDataError({ source: path, message: 'is truncated (ended while reading)' });
        done += count;
      }
    };
    return readBm25Index({ byteLength, read }, { ...options, source: path });
  } finally {
    closeSync(descriptor);
  }
}

export interface BuildBm25IndexFromJsonlOptions extends Bm25IndexOptions {
  readonly abortSignal?: AbortSignal;
  /** @default 'error' */
  readonly onDuplicate?: 'error' | 'skip' | 'replace';
  /**
   * Core progress, called every `progressEvery` documents and once at the end. The corpus is a stream, so its size is
   * unknown until the last line: each call reports `total` = `completed` = documents read so far, and the last call
   * (after the last line, also for an empty file: 0 of 0) carries the final count. Not repeated when the last
   * periodic call already reported it.
   */
  readonly onProgress?: ProgressCallback;
  /** @default 10000 */
  readonly progressEvery?: number;
}

/**
 * Builds an index from a streaming BEIR/JSONL corpus (`.gz` detected): each line is analysed and dropped,
 * so the raw text is held at most once (in the stored documents, unless `storeDocuments: false`).
 * @throws CorruptDataError naming file and line (bad JSON, missing id, duplicate id, gzip ending early).
 */
export async function buildBm25IndexFromJsonl(path: string, options: BuildBm25IndexFromJsonlOptions = {}): Promise<{ index: Bm25Index; problems: RetrievalProblem[] }> {
  const { abortSignal, onDuplicate = 'error', onProgress, progressEvery = 10_000, ...indexOptions } = options;
  const index = createBm25Index(indexOptions);
  const problems: RetrievalProblem[] = [];
  let count = 0;
  for await (const document of streamBeirCorpus(path, { ...(abortSignal ? { abortSignal } : {}) })) {
    if (onDuplicate === 'error' && index.hasDocument(document.id)) throw new CorruptDataError({ source: path, message: `has duplicate document id "${document.id}"` });
    const result = index.addDocument(document, { onDuplicate: onDuplicate === 'error' ? 'skip' : onDuplicate });
    for (const problem of result.problems) problems.push({ ...problem, index: count });
    count++;
    if (onProgress && count % progressEvery === 0) onProgress({ completed: count, total: count });
  }
  if (onProgress && (count === 0 || count % progressEvery !== 0)) onProgress({ completed: count, total: count });
  getIndexState(index, 'buildBm25IndexFromJsonl').compact();
  return { index, problems };
}
