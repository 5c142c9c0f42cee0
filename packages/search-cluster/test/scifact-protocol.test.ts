/**
 * PROTOCOL TEST on a real corpus: the 5,183 SciFact abstracts streamed from the data root's scifact/ through the bulk indexer
 * (async input, so backpressure applies) into the scripted server, with some items rejected (429) on their first two
 * attempts; then 40 test queries compared with @factkit/retrieval's top 10. The server scores with retrieval's BM25, so
 * this checks the indexing and request path at corpus scale, not a real cluster (bench/scifact.ts runs the full
 * evaluation against one when OPENSEARCH_URL / ELASTICSEARCH_URL is set).
 */
import { describeWithData } from '@factkit/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBm25Retriever } from '@factkit/retrieval';
import { loadBeirCorpus, loadBeirDataset, streamBeirCorpus } from '@factkit/retrieval/node';
import { createSearchClusterRetriever } from '../src/index.js';
import { createOfficialClient } from './clients.js';
import { type ScriptedClusterServer, startScriptedClusterServer } from './scripted-cluster-server.js';

describeWithData('scifact', 'protocol tests: SciFact corpus through the bulk indexer and the scripted server', (scifact) => {
  let server: ScriptedClusterServer;
  let client: ReturnType<typeof createOfficialClient>;
  beforeAll(async () => {
    // Every 97th document (by id hash) is rejected on its first two attempts.
    server = await startScriptedClusterServer({ flavor: 'opensearch', bulkItemStatus: ({ id, attempt }) => (Number.parseInt(id, 10) % 97 === 0 && attempt <= 2 ? 429 : undefined) });
    client = createOfficialClient('opensearch', server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('indexes all 5,183 documents (retrying the rejected ones) and ranks 40 queries like @factkit/retrieval', async () => {
    const dataset = await loadBeirDataset(scifact, { split: 'test' });
    const retriever = createSearchClusterRetriever({ client, index: 'scifact', batchSize: 400, concurrency: 3, retryDelayMs: 1 });
    await retriever.ensureIndex();
    const result = await retriever.indexDocuments(streamBeirCorpus(dataset.corpusPath));
    const corpus = await loadBeirCorpus(dataset.corpusPath);
    const rejected = corpus.filter((document) => Number.parseInt(document.id, 10) % 97 === 0).length;
    expect(rejected).toBeGreaterThan(10);
    expect(result).toMatchObject({ read: 5183, indexed: 5183, failed: 0, retried: rejected * 2, problems: [], complete: true });
    const local = createBm25Retriever(corpus);
    for (const query of dataset.queries.slice(0, 40)) {
      const [remote, expected] = await Promise.all([retriever.retrieve({ query, topK: 10 }), local.retrieve({ query, topK: 10 })]);
      expect(
        remote.evidence.map((item) => item.documentId),
        query.text,
      ).toEqual(expected.evidence.map((item) => item.documentId));
    }
  }, 120_000);
});
