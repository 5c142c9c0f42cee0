import { assertPositiveInteger, InvalidArgumentError, sha256Hex, type VectorMatch, type VectorStore } from '@factkit/core';
import type { VectorMetric } from '../dense/flat-index.js';
import { checkStoreIds, checkStoreMetric, checkStoreRecords, checkStoreTopK, checkStoreVector, onceUntilFailure } from './validate-records.js';

/** A Qdrant point as this store writes it. */
export interface QdrantPoint {
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}

/**
 * The methods the store uses from `@qdrant/js-client-rest`'s `QdrantClient` (pass `new QdrantClient({ url })`).
 * Declared structurally so this package does not import the client.
 */
export interface QdrantClientLike {
  collectionExists(collection: string): Promise<{ exists: boolean }>;
  createCollection(collection: string, request: { vectors: { size: number; distance: 'Cosine' | 'Dot' } }): Promise<unknown>;
  upsert(collection: string, request: { wait?: boolean; points: QdrantPoint[] }): Promise<unknown>;
  query(collection: string, request: { query: number[]; limit?: number; with_payload?: boolean }): Promise<{ points: { id: string | number; score: number; payload?: Record<string, unknown> | null }[] }>;
  delete(collection: string, request: { wait?: boolean; points: string[] }): Promise<unknown>;
  count(collection: string, request?: { exact?: boolean }): Promise<{ count: number }>;
}

export interface QdrantVectorStoreOptions {
  readonly client: QdrantClientLike;
  readonly collection: string;
  readonly dimensions: number;
  /** 'cosine' → Qdrant `Cosine`, 'inner-product' → `Dot`. @default 'cosine' */
  readonly metric?: VectorMetric;
  /** Create the collection when missing. @default true */
  readonly createCollection?: boolean;
  /** Points per upsert request. @default 256 */
  readonly batchSize?: number;
  /** @default `qdrant(${collection})` */
  readonly id?: string;
}

/** Payload key holding the caller's id (Qdrant point ids must be integers or UUIDs). */
export const QDRANT_ID_KEY = 'factkit_id';
/** Payload key holding the caller's metadata. */
export const QDRANT_METADATA_KEY = 'factkit_metadata';

/** A deterministic UUID (RFC 4122 layout, version 8 'custom') from the SHA-256 of the caller's id. */
export async function toQdrantPointId(id: string): Promise<string> {
  const hex = (await sha256Hex(`factkit:${id}`)).slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20, 32)}`;
}

/**
 * Creates a VectorStore on a Qdrant collection through `@qdrant/js-client-rest` (optional peer dependency).
 * String ids are mapped to UUID point ids (`toQdrantPointId`) and kept in the payload, with the metadata.
 * Qdrant's own search is HNSW (approximate) unless the collection is small or configured for exact search.
 * @throws InvalidArgumentError for bad options; FactkitError('load_failed') when the collection cannot be created.
 * @example
 * const store = createQdrantVectorStore({ client: new QdrantClient({ url: 'http://127.0.0.1:6333' }), collection: 'passages', dimensions: 384 });
 */
export function createQdrantVectorStore(options: QdrantVectorStoreOptions): VectorStore {
  const where = 'createQdrantVectorStore';
  const { client, collection, dimensions, metric = 'cosine', createCollection = true, batchSize = 256 } = options;
  if (!client || typeof client.query !== 'function' || typeof client.upsert !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'client', message: 'must be a QdrantClient from @qdrant/js-client-rest' });
  }
  if (typeof collection !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(collection)) {
    throw new InvalidArgumentError({ where, argument: 'collection', message: `must be 1-255 letters, digits, '_' or '-' (got ${JSON.stringify(collection)})` });
  }
  assertPositiveInteger('dimensions', dimensions, where);
  checkStoreMetric(metric, where);
  assertPositiveInteger('batchSize', batchSize, where);
  const { id = `qdrant(${collection})` } = options;

  const ensureReady = onceUntilFailure(async () => {
    if (!createCollection) return;
    const { exists } = await client.collectionExists(collection);
    if (!exists) await client.createCollection(collection, { vectors: { size: dimensions, distance: metric === 'cosine' ? 'Cosine' : 'Dot' } });
  }, `${id}: could not open or create the Qdrant collection`);

  return {
    id,
    dimensions,
    metric,
    async upsert({ records, abortSignal }) {
      abortSignal?.throwIfAborted();
      const checked = checkStoreRecords(records, dimensions, `${id}.upsert`);
      await ensureReady();
      for (let start = 0; start < checked.length; start += batchSize) {
        abortSignal?.throwIfAborted();
        const points: QdrantPoint[] = await Promise.all(
          checked.slice(start, start + batchSize).map(async (record) => ({
            id: await toQdrantPointId(record.id),
            vector: Array.from(record.vector),
            payload: { [QDRANT_ID_KEY]: record.id, ...(record.metadata === undefined ? {} : { [QDRANT_METADATA_KEY]: record.metadata }) },
          })),
        );
        await client.upsert(collection, { wait: true, points });
      }
    },
    async query({ vector, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      checkStoreVector(vector, dimensions, `${id}.query`, 'vector');
      checkStoreTopK(topK, `${id}.query`);
      if (topK === 0) return { matches: [] };
      await ensureReady();
      const { points } = await client.query(collection, { query: Array.from(vector), limit: topK, with_payload: true });
      abortSignal?.throwIfAborted();
      const matches: VectorMatch[] = points.map((point) => {
        const payload = point.payload ?? {};
        const metadata = payload[QDRANT_METADATA_KEY];
        const recordId = payload[QDRANT_ID_KEY];
        return {
          id: typeof recordId === 'string' ? recordId : String(point.id),
          score: point.score,
          ...(metadata !== null && typeof metadata === 'object' ? { metadata: metadata as Record<string, unknown> } : {}),
        };
      });
      matches.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return { matches };
    },
    async delete({ ids, abortSignal }) {
      abortSignal?.throwIfAborted();
      checkStoreIds(ids, `${id}.delete`);
      if (ids.length === 0) return;
      await ensureReady();
      await client.delete(collection, { wait: true, points: await Promise.all(ids.map(toQdrantPointId)) });
    },
    async count() {
      await ensureReady();
      return (await client.count(collection, { exact: true })).count;
    },
  };
}
