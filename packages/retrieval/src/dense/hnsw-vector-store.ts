import { assertPositiveInteger, FactkitError, InvalidArgumentError, type VectorMatch, type VectorStore } from '@factkit/core';
import { checkStoreIds, checkStoreMetric, checkStoreRecords, checkStoreTopK, checkStoreVector } from '../stores/validate-records.js';
import type { VectorMetric } from './flat-index.js';

export interface HnswVectorStoreOptions {
  readonly dimensions: number;
  /** @default 'cosine' */
  readonly metric?: VectorMetric;
  /** Graph degree M. @default 16 */
  readonly connectivity?: number;
  /** Candidate list size while building (efConstruction). @default 128 */
  readonly expansionAdd?: number;
  /** Candidate list size while searching (ef); higher is slower and more accurate. @default 64 */
  readonly expansionSearch?: number;
  /** Threads for batch inserts (0 = all cores). @default 0 */
  readonly threads?: number;
  /** @default 'hnsw(usearch)' */
  readonly id?: string;
}

interface UsearchMatches {
  keys: BigUint64Array;
  distances: Float32Array;
}
interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): UsearchMatches;
  remove(keys: bigint): number;
  size(): number;
}
interface UsearchModule {
  Index: new (config: { dimensions: number; metric: string; connectivity: number; expansion_add: number; expansion_search: number; quantization?: string; multi?: boolean }) => UsearchIndex;
}

/**
 * Creates an approximate VectorStore on an HNSW graph (Malkov & Yashunin 2018) from the `usearch` native package,
 * an optional peer dependency loaded on first use. Scores are similarities: 1 − usearch's distance (cosine, or
 * 1 − dot for inner product). Use it where exact search (`createInMemoryVectorStore`) is too slow; measure recall.
 * @throws InvalidArgumentError for bad options; FactkitError('load_failed') on first use when `usearch` is not installed.
 * @example
 * const store = createHnswVectorStore({ dimensions: 384, expansionSearch: 128 });
 * await store.upsert({ records });
 */
export function createHnswVectorStore(options: HnswVectorStoreOptions): VectorStore {
  const where = 'createHnswVectorStore';
  const { dimensions, metric = 'cosine', connectivity = 16, expansionAdd = 128, expansionSearch = 64, threads = 0, id = 'hnsw(usearch)' } = options;
  assertPositiveInteger('dimensions', dimensions, where);
  checkStoreMetric(metric, where);
  for (const [argument, value, min] of [
    ['connectivity', connectivity, 2],
    ['expansionAdd', expansionAdd, 1],
    ['expansionSearch', expansionSearch, 1],
    ['threads', threads, 0],
  ] as const) {
    if (!Number.isInteger(value) || value < min) throw new InvalidArgumentError({ where, argument, message: `must be an integer >= ${min} (got ${value})` });
  }
  let indexPromise: Promise<UsearchIndex> | undefined;
  const load = () => {
    indexPromise ??= (async () => {
      let module: UsearchModule;
      try {
        const imported = (await import('usearch')) as unknown as UsearchModule & { default?: UsearchModule };
        module = imported.Index ? imported : (imported.default as UsearchModule);
      } catch (error) {
        indexPromise = undefined;
        throw new FactkitError('load_failed', `${where}: the optional dependency "usearch" is not installed (npm i usearch)`, { cause: error });
      }
      return new module.Index({ dimensions, metric: metric === 'cosine' ? 'cos' : 'ip', connectivity, expansion_add: expansionAdd, expansion_search: expansionSearch, quantization: 'f32' });
    })();
    return indexPromise;
  };
  const keyById = new Map<string, bigint>();
  const idByKey = new Map<bigint, string>();
  const metadataById = new Map<string, Readonly<Record<string, unknown>>>();
  let nextKey = 0n;
  // usearch removals can leave tombstones that still come back from search, so an overwritten or deleted id never
  // reuses its key, searches ask for extra results, and keys without an id are dropped.
  let removed = 0;

  return {
    id,
    dimensions,
    metric,
    async upsert({ records, abortSignal }) {
      abortSignal?.throwIfAborted();
      const checked = checkStoreRecords(records, dimensions, `${id}.upsert`);
      const index = await load();
      if (checked.length === 0) return;
      const keys = new BigUint64Array(checked.length);
      const matrix = new Float32Array(checked.length * dimensions);
      checked.forEach((record, row) => {
        const existing = keyById.get(record.id);
        if (existing !== undefined) {
          index.remove(existing);
          idByKey.delete(existing);
          removed += 1;
        }
        const key = nextKey++;
        keyById.set(record.id, key);
        idByKey.set(key, record.id);
        keys[row] = key;
        matrix.set(record.vector, row * dimensions);
        if (record.metadata === undefined) metadataById.delete(record.id);
        else metadataById.set(record.id, structuredClone(record.metadata));
      });
      index.add(keys, matrix, threads);
    },
    async query({ vector, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      checkStoreVector(vector, dimensions, `${id}.query`, 'vector');
      checkStoreTopK(topK, `${id}.query`);
      const index = await load();
      if (topK === 0 || keyById.size === 0) return { matches: [] };
      // Ask for more than topK (tombstones, and so equal scores can be ordered by id like the exact stores), then cut.
      const wanted = Math.min(Math.max(2 * topK, topK + 16) + removed, keyById.size + removed);
      const { keys, distances } = index.search(vector, wanted, 1);
      const matches: VectorMatch[] = [];
      keys.forEach((key, i) => {
        const recordId = idByKey.get(key);
        const distance = distances[i] as number;
        if (recordId === undefined || !Number.isFinite(distance)) return;
        const metadata = metadataById.get(recordId);
        matches.push({ id: recordId, score: 1 - distance, ...(metadata === undefined ? {} : { metadata }) });
      });
      matches.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (matches.length > topK) matches.length = topK;
      return { matches };
    },
    async delete({ ids, abortSignal }) {
      abortSignal?.throwIfAborted();
      checkStoreIds(ids, `${id}.delete`);
      const index = await load();
      for (const recordId of ids) {
        const key = keyById.get(recordId);
        if (key === undefined) continue;
        index.remove(key);
        removed += 1;
        keyById.delete(recordId);
        idByKey.delete(key);
        metadataById.delete(recordId);
      }
    },
    async count() {
      return keyById.size;
    },
  };
}
