/**
 * PROTOCOL TEST (property): for random small corpora and queries, the retriever through the official OpenSearch client
 * and the scripted server returns the ids and scores `@factkit/retrieval`'s BM25 returns in process. The server scores
 * with retrieval's BM25 from the settings it accepted, so this checks the requests (stop words, k1/b, flat contents,
 * weighted terms, topK, sorting) and the reading of hits, not a real Lucene.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { createSearchClusterRetriever } from '../src/index.js';
import { createOfficialClient } from './clients.js';
import { type ScriptedClusterServer, startScriptedClusterServer } from './scripted-cluster-server.js';

const WORDS = ['The', 'cat', "cat's", 'cats', 'running', 'runs', 'vitamin', 'D', 'heart', 'hearts', 'and', 'of', 'is', 'not', 'Winter', 'winters', 'risk', 'risks'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((words) => words.join(' '));

describe('protocol tests (property, scripted server): same ranking as @factkit/retrieval', () => {
  let server: ScriptedClusterServer;
  let client: ReturnType<typeof createOfficialClient>;
  let run = 0;
  beforeAll(async () => {
    server = await startScriptedClusterServer({ flavor: 'opensearch' });
    client = createOfficialClient('opensearch', server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('for random corpora, text queries and weighted queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ title: fc.option(text, { nil: undefined }), text }), { minLength: 1, maxLength: 15 }),
        text,
        fc.array(fc.record({ term: fc.constantFrom('cat', 'run', 'heart', 'vitamin', 'winter', 'risk'), weight: fc.double({ min: 0, max: 2, noNaN: true }) }), { maxLength: 4 }),
        fc.record({ k1: fc.double({ min: 0.1, max: 2, noNaN: true }), b: fc.double({ min: 0, max: 1, noNaN: true }) }),
        fc.integer({ min: 1, max: 6 }),
        async (rows, queryText, weightedTerms, { k1, b }, topK) => {
          run += 1;
          const documents: Document[] = rows.map((row, index) => ({ id: `doc${String(index).padStart(2, '0')}`, text: row.text, ...(row.title ? { title: row.title } : {}) }));
          const remote = createSearchClusterRetriever({ client, index: `prop-${run}`, k1, b });
          await remote.ensureIndex();
          expect((await remote.indexDocuments(documents)).indexed).toBe(documents.length);
          const local = createBm25Retriever(documents, { k1, b });
          for (const query of [{ text: queryText }, { text: queryText, weightedTerms }]) {
            const [got, expected] = await Promise.all([remote.retrieve({ query, topK }), local.retrieve({ query, topK })]);
            // Retrieval returns only documents with a positive score; so does the cluster (no match → no hit).
            expect(got.evidence.map((item) => item.documentId)).toEqual(expected.evidence.map((item) => item.documentId));
            got.evidence.forEach((item, position) => expect(item.score).toBeCloseTo(expected.evidence[position]?.score as number, 4));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
