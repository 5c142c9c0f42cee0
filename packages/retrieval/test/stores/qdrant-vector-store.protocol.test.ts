import { QdrantClient } from '@qdrant/js-client-rest';
import { FactkitError } from '@factkit/core';
import { describeVectorStoreContract } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QDRANT_ID_KEY, QDRANT_METADATA_KEY, createQdrantVectorStore, toQdrantPointId } from '../../src/stores/qdrant-vector-store.js';
import { type ScriptedQdrantServer, startScriptedQdrantServer } from './scripted-qdrant-server.js';

// PROTOCOL tests: no Qdrant server can be obtained here, so the real @qdrant/js-client-rest talks HTTP to a scripted
// local server (test/stores/scripted-qdrant-server.ts) that speaks Qdrant's REST protocol and searches exactly. They
// check what the adapter sends and how it reads the replies, not Qdrant itself (the live suite in
// qdrant-vector-store.test.ts does that when QDRANT_URL is set).
let server: ScriptedQdrantServer;
beforeAll(async () => {
  server = await startScriptedQdrantServer();
});
afterAll(async () => {
  await server.close();
});

let collections = 0;
const store = (metric: 'cosine' | 'inner-product', extra: { batchSize?: number; createCollection?: boolean } = {}) => {
  collections += 1;
  const client = new QdrantClient({ url: server.url, checkCompatibility: false });
  return { collection: `protocol_${collections}`, store: createQdrantVectorStore({ client, collection: `protocol_${collections}`, dimensions: 4, metric, ...extra }) };
};

describe('Qdrant adapter (protocol, scripted REST server)', () => {
  describeVectorStoreContract('qdrant protocol (cosine)', () => store('cosine').store);
  describeVectorStoreContract('qdrant protocol (inner product)', () => store('inner-product').store);

  it('creates the collection once, then upserts, queries, counts and deletes with the documented requests', async () => {
    const { collection, store: qdrant } = store('inner-product', { batchSize: 2 });
    const from = server.requests.length;
    await qdrant.upsert({
      records: [
        { id: 'a', vector: new Float32Array([1, 0, 0, 0]), metadata: { title: 'A' } },
        { id: 'b', vector: new Float32Array([0, 1, 0, 0]) },
        { id: 'c', vector: new Float32Array([0.5, 0.5, 0, 0]) },
      ],
    });
    const { matches } = await qdrant.query({ vector: new Float32Array([1, 0.25, 0, 0]), topK: 2 });
    expect(await qdrant.count()).toBe(3);
    await qdrant.delete({ ids: ['b'] });
    const sent = server.requests.slice(from).map(({ method, path, query }) => `${method} ${path}${query['wait'] ? `?wait=${query['wait']}` : ''}`);
    expect(sent).toEqual([
      `GET /collections/${collection}/exists`,
      `PUT /collections/${collection}`,
      `PUT /collections/${collection}/points?wait=true`,
      `PUT /collections/${collection}/points?wait=true`,
      `POST /collections/${collection}/points/query`,
      `POST /collections/${collection}/points/count`,
      `POST /collections/${collection}/points/delete?wait=true`,
    ]);
    const bodies = server.requests.slice(from).map((request) => request.body);
    expect(bodies[1]).toEqual({ vectors: { size: 4, distance: 'Dot' } });
    // Batches of 2; string ids become UUIDs and travel in the payload with the metadata.
    expect(bodies[2]).toEqual({
      points: [
        { id: await toQdrantPointId('a'), vector: [1, 0, 0, 0], payload: { [QDRANT_ID_KEY]: 'a', [QDRANT_METADATA_KEY]: { title: 'A' } } },
        { id: await toQdrantPointId('b'), vector: [0, 1, 0, 0], payload: { [QDRANT_ID_KEY]: 'b' } },
      ],
    });
    expect((bodies[3] as { points: unknown[] }).points).toHaveLength(1);
    expect(bodies[4]).toEqual({ query: [1, 0.25, 0, 0], limit: 2, with_payload: true });
    expect(bodies[5]).toEqual({ exact: true });
    expect(bodies[6]).toEqual({ points: [await toQdrantPointId('b')] });
    // Dot scores: a = 1, c = 0.625, b = 0.25.
    expect(matches).toEqual([
      { id: 'a', score: 1, metadata: { title: 'A' } },
      { id: 'c', score: 0.625 },
    ]);
    expect(await qdrant.count()).toBe(2);
  });

  it('sends Cosine for the cosine metric and skips creation when told to', async () => {
    const { collection, store: qdrant } = store('cosine');
    const from = server.requests.length;
    await qdrant.count();
    expect(server.requests.slice(from).find((request) => request.method === 'PUT')?.body).toEqual({ vectors: { size: 4, distance: 'Cosine' } });
    const { store: noCreate } = store('cosine', { createCollection: false });
    const before = server.requests.length;
    await expect(noCreate.count()).rejects.toThrow();
    expect(server.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([`POST /collections/protocol_${collections}/points/count`]);
    expect(collection).not.toBe(`protocol_${collections}`);
  });

  it('reports a collection that cannot be created as load_failed, and retries creation on the next call', async () => {
    const { store: qdrant } = store('cosine');
    server.failNext(/^PUT \/collections\/[^/]+$/, 500);
    const error = await qdrant.count().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(FactkitError.isInstance(error) && error.code).toBe('load_failed');
    expect(await qdrant.count()).toBe(0);
  });
});
