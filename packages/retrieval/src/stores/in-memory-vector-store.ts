import { assertNonEmptyString, InvalidArgumentError, type VectorMatch, type VectorStore } from '@factkit/core';
import { createFlatIndex, type FlatIndex, type VectorMetric } from '../dense/flat-index.js';
import { checkStoreIds, checkStoreRecords, checkStoreTopK, checkStoreVector } from './validate-records.js';

export interface InMemoryVectorStoreOptions {
  readonly dimensions: number;
  /** @default 'cosine' */
  readonly metric?: VectorMetric;
  /** @default 'memory' */
  readonly id?: string;
  /** Threads scanning the matrix per query (see `createFlatIndex`); call `close()` when above 1. @default 1 */
  readonly threads?: number;
  /**
   * The index to store vectors in, empty, with the same `dimensions` and `metric` (e.g. `createQuantizedFlatIndex`).
   * @default createFlatIndex({ dimensions, metric, threads })
   */
  readonly index?: FlatIndex;
}

/** The default VectorStore: an exact flat index in memory, plus direct access to stored vectors. */
export interface InMemoryVectorStore extends VectorStore {
  /** A copy of a stored vector (Rocchio feedback reads vectors from here instead of re-embedding). */
  getVector(id: string): Float32Array | undefined;
  /** Stops worker threads when `threads` > 1. */
  close(): Promise<void>;
}

/**
 * Creates an in-memory VectorStore backed by `createFlatIndex` (exact search, WebAssembly SIMD kernel).
 * @throws InvalidArgumentError for bad options; upsert/query reject bad vectors, duplicate ids and bad topK.
 * @example
 * const store = createInMemoryVectorStore({ dimensions: 384 });
 * await store.upsert({ records: [{ id: 'd1', vector }] });
 * const { matches } = await store.query({ vector, topK: 5 });
 */
export function createInMemoryVectorStore(options: InMemoryVectorStoreOptions): InMemoryVectorStore {
  const { dimensions, metric = 'cosine', id = 'memory' } = options;
  // A given index brings its own threads.
  const threads = options.index ? options.index.threads : (options.threads ?? 1);
  const where = `VectorStore(${id})`;
  assertNonEmptyString('id', id, 'createInMemoryVectorStore');
  const index: FlatIndex = options.index ?? createFlatIndex({ dimensions, metric, threads });
  if (options.index !== undefined && (index.dimensions !== dimensions || index.metric !== metric || index.size !== 0)) {
    throw new InvalidArgumentError({
      where: 'createInMemoryVectorStore',
      argument: 'index',
      message: `must be empty with ${dimensions} dimensions and metric '${metric}' (got ${index.dimensions}, '${index.metric}', ${index.size} vectors)`,
    });
  }
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
