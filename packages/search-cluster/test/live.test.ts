/**
 * LIVE TESTS against a real cluster: run only when OPENSEARCH_URL and/or ELASTICSEARCH_URL is set (e.g.
 * OPENSEARCH_URL=http://localhost:9200). Creates a uniquely named index, fills it, runs the Retriever contract and a
 * ranking comparison with @factkit/retrieval, and deletes the index afterwards. Skipped (with the reason printed)
 * otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { describeRetrieverContract } from '@factkit/test-utils';
import { type SearchClusterRetriever, createSearchClusterRetriever } from '../src/index.js';
import { FLAVORS, createOfficialClient } from './clients.js';
import { CORPUS, QUERIES } from './fixtures/corpus.js';
import { RETRIEVAL_SCIFACT, runSciFact } from './scifact-run.js';

const URLS = { opensearch: process.env['OPENSEARCH_URL'], elasticsearch: process.env['ELASTICSEARCH_URL'] } as const;

for (const flavor of FLAVORS) {
  const url = URLS[flavor];
  const variable = flavor === 'opensearch' ? 'OPENSEARCH_URL' : 'ELASTICSEARCH_URL';
  if (!url) console.info(`[search-cluster] live ${flavor} tests skipped: ${variable} is not set (protocol tests still ran against the scripted server)`);
  describe.skipIf(!url)(`live tests against a real ${flavor} cluster at ${variable}${url ? '' : ' (skipped: not set)'}`, () => {
    let retriever: SearchClusterRetriever;
    let client: ReturnType<typeof createOfficialClient>;
    beforeAll(async () => {
      client = createOfficialClient(flavor, url as string);
      retriever = createSearchClusterRetriever({ client, index: `factkit-live-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}` });
      expect((await retriever.ensureIndex()).created).toBe(true);
      const result = await retriever.indexDocuments(CORPUS);
      expect(result).toMatchObject({ indexed: CORPUS.length, failed: 0, complete: true });
    }, 60_000);
    afterAll(async () => {
      await retriever?.deleteIndex();
      await client?.close();
    });

    describeRetrieverContract(`search-cluster on a live ${flavor} cluster`, () => retriever, { query: 'vitamin D in winter', expectedId: 'd01' });

    it('ranks like @factkit/retrieval BM25 (same top-5 ids; scores within 1e-4)', async () => {
      const local = createBm25Retriever(CORPUS);
      for (const text of QUERIES) {
        const [remote, expected] = await Promise.all([retriever.retrieve({ query: { text }, topK: 5 }), local.retrieve({ query: { text }, topK: 5 })]);
        expect(
          remote.evidence.map((item) => item.documentId),
          text,
        ).toEqual(expected.evidence.map((item) => item.documentId));
        remote.evidence.forEach((item, position) => expect(item.score).toBeCloseTo((expected.evidence[position] as Evidence).score, 4));
      }
    });

    it('finds the index it created unchanged', async () => {
      expect(await retriever.ensureIndex()).toEqual({ created: false, problems: [] });
    });

    it("gives @factkit/retrieval's SciFact nDCG@10 / R@100 / MAP within 1e-3 (5,183 documents, 240 queries)", async () => {
      const scifact = createSearchClusterRetriever({ client, index: `${retriever.index}-scifact` });
      try {
        const result = await runSciFact(scifact);
        expect(result.indexing).toMatchObject({ indexed: 5183, failed: 0, complete: true });
        for (const metric of Object.keys(RETRIEVAL_SCIFACT) as (keyof typeof RETRIEVAL_SCIFACT)[]) expect(Math.abs(result.metrics[metric] - RETRIEVAL_SCIFACT[metric]), metric).toBeLessThan(1e-3);
      } finally {
        await scifact.deleteIndex();
      }
    }, 600_000);
  });
}
