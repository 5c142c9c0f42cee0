import { assertNonEmptyString, assertPositiveInteger, InvalidArgumentError, type VectorMatch, type VectorStore } from '@factkit/core';
import { createFlatIndex, type FlatIndex, type VectorMetric } from '../dense/flat-index.js';
import { createQuantizedFlatIndex, type QuantizationOptions } from '../dense/quantized-flat-index.js';
import { checkStoreIds, checkStoreRecords, checkStoreTopK, checkStoreVector } from './validate-records.js';

export interface InMemoryVectorStoreOptions {
  readonly dimensions: number;
  /** @default 'cosine' */
  readonly metric?: VectorMetric;
  /** @default 'memory' */
  readonly id?: string;
  /** Threads scanning the float32 matrix per query (Node.js); call `close()` when above 1. Not with `quantized`. @default 1 */
  readonly threads?: number;
  /**
   * Keep int8 codes (one scale per vector, WebAssembly SIMD int8 kernel, ¼ of the bytes scanned) instead of the float32
   * matrix: `true` for the defaults (exact results: a float32 copy re-ranks a proven-bound shortlist in float64), or
   * the choices of {@link QuantizationOptions} (`floatVectors: 'drop'` or a file, `shortlist`, `prefilter: 'binary'`).
   * @default false (exact float32 flat index)
   */
  readonly quantized?: boolean | QuantizationOptions;
}

/** The default VectorStore: an exact flat index in memory, plus direct access to stored vectors. */
export interface InMemoryVectorStore extends VectorStore {
  /** A copy of a stored vector (Rocchio feedback reads vectors from here instead of re-embedding). */
  getVector(id: string): Float32Array | undefined;
  /** Stops worker threads when `threads` > 1. */
  close(): Promise<void>;
}

/** The flat index behind a store: float32 (optionally threaded) or int8 (`quantized`). */
function createStoreIndex(options: InMemoryVectorStoreOptions, dimensions: number, metric: VectorMetric, quantized: boolean | QuantizationOptions): FlatIndex {
  if (quantized === false) return createFlatIndex({ dimensions, metric, threads: options.threads ?? 1 });
  if (quantized === true || (typeof quantized === 'object' && quantized !== null)) {
    if (options.threads !== undefined && options.threads !== 1)
      throw new InvalidArgumentError({ where: 'createInMemoryVectorStore', argument: 'threads', message: `must be 1 with quantized (the int8 index scans on the calling thread; got ${String(options.threads)})` });
    return createQuantizedFlatIndex({ ...(quantized === true ? {} : quantized), dimensions, metric });
  }
  throw new InvalidArgumentError({ where: 'createInMemoryVectorStore', argument: 'quantized', message: `must be a boolean or an options object (got ${String(quantized)})` });
}

/**
 * Creates an in-memory VectorStore on an exact flat float32 index (WebAssembly SIMD kernel), or an int8 one with `quantized`.
 * @throws InvalidArgumentError for bad options; upsert/query reject bad vectors, duplicate ids and bad topK.
 * @example
 * const store = createInMemoryVectorStore({ dimensions: 384 });
 * await store.upsert({ records: [{ id: 'd1', vector }] });
 * const { matches } = await store.query({ vector, topK: 5 });
 */
export function createInMemoryVectorStore(options: InMemoryVectorStoreOptions): InMemoryVectorStore {
  const { dimensions, metric = 'cosine', id = 'memory', quantized = false } = options;
  const where = `VectorStore(${id})`;
  assertNonEmptyString('id', id, 'createInMemoryVectorStore');
  assertPositiveInteger('dimensions', dimensions, 'createInMemoryVectorStore');
  const index = createStoreIndex(options, dimensions, metric, quantized);
  const threads = index.threads;
  const metadataById = new Map<string, Readonly<Record<string, unknown>>>();
  // With worker threads a search runs across an await; writes wait for it (and each other) so nothing moves mid-scan.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    if (threads <= 1) return task();
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    id,
    dimensions,
    metric,
    async upsert({ records, abortSignal }) {
      abortSignal?.throwIfAborted();
      const checked = checkStoreRecords(records, dimensions, `${where}.upsert`);
      const metadata = checked.map((record, index) => {
        if (record.metadata === undefined) return undefined;
        try {
          return structuredClone(record.metadata);
        } catch (error) {
          throw new InvalidArgumentError({ where: `${where}.upsert`, argument: `records[${index}].metadata`, message: 'must be plain data (JSON-like)', cause: error });
        }
      });
      await exclusive(async () => {
        index.upsert(checked.map((record) => ({ id: record.id, vector: record.vector })));
        checked.forEach((record, i) => {
          const copy = metadata[i];
          if (copy === undefined) metadataById.delete(record.id);
          else metadataById.set(record.id, copy);
        });
      });
    },
    async query({ vector, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      checkStoreVector(vector, dimensions, `${where}.query`, 'vector');
      checkStoreTopK(topK, `${where}.query`);
      const matches = await exclusive(async () => {
        const hits = threads > 1 ? await index.searchAsync(vector, { topK }) : index.search(vector, { topK });
        return hits.map((hit): VectorMatch => {
          const metadata = metadataById.get(hit.id);
          return metadata === undefined ? { id: hit.id, score: hit.score } : { id: hit.id, score: hit.score, metadata };
        });
      });
      abortSignal?.throwIfAborted();
      return { matches };
    },
    async delete({ ids, abortSignal }) {
      abortSignal?.throwIfAborted();
      checkStoreIds(ids, `${where}.delete`);
      await exclusive(async () => {
        index.delete(ids);
        for (const recordId of ids) metadataById.delete(recordId);
      });
    },
    async count() {
      return index.size;
    },
    getVector(recordId) {
      return index.getVector(recordId);
    },
    close() {
      return index.close();
    },
  };
}
