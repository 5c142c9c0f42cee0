import { QdrantClient } from '@qdrant/js-client-rest';
import { describeVectorStoreContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createQdrantVectorStore, QDRANT_ID_KEY, QDRANT_METADATA_KEY, toQdrantPointId } from '../../src/stores/qdrant-vector-store.js';

// Live contract tests need a Qdrant server: `docker run -p 6333:6333 qdrant/qdrant`, then QDRANT_URL=http://127.0.0.1:6333.
const qdrantUrl = process.env['QDRANT_URL'];
if (!qdrantUrl) {
  process.stderr.write('[qdrant] QDRANT_URL is not set: skipping the LIVE Qdrant contract tests; the protocol tests against a scripted Qdrant REST server still run (see docs/retrieval.md)\n');
}

let collections = 0;
const freshStore = (metric: 'cosine' | 'inner-product') => {
  collections += 1;
  const client = new QdrantClient({ url: qdrantUrl as string, checkCompatibility: false });
  return createQdrantVectorStore({ client, collection: `factkit_test_${Date.now()}_${process.pid}_${collections}`, dimensions: 4, metric });
};

describe.skipIf(!qdrantUrl)('Qdrant (live, QDRANT_URL)', () => {
  describeVectorStoreContract('qdrant (cosine)', () => freshStore('cosine'));
  describeVectorStoreContract('qdrant (inner product)', () => freshStore('inner-product'));
});

describe('toQdrantPointId', () => {
  it('maps any string id to a stable RFC 4122-shaped UUID', async () => {
    const a = await toQdrantPointId('doc-1');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await toQdrantPointId('doc-1')).toBe(a);
    expect(await toQdrantPointId('doc-2')).not.toBe(a);
  });

  it('the real QdrantClient satisfies the client shape the store needs (typecheck) and options are validated', () => {
    const client = new QdrantClient({ url: 'http://127.0.0.1:1', checkCompatibility: false });
    const store = createQdrantVectorStore({ client, collection: 'c', dimensions: 3 });
    expect(store.id).toBe('qdrant(c)');
    expect(() => createQdrantVectorStore({ client, collection: 'bad name', dimensions: 3 })).toThrow(/collection/);
    expect(QDRANT_ID_KEY).not.toBe(QDRANT_METADATA_KEY);
  });
});
