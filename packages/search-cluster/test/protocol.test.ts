/**
 * PROTOCOL TESTS: the retriever driven through BOTH official clients (`@opensearch-project/opensearch`,
 * `@elastic/elasticsearch`) against a scripted HTTP server on 127.0.0.1 that checks every request (see
 * scripted-cluster-server.ts). No OpenSearch or Elasticsearch ran here; these tests say the requests are right and the
 * responses are read right, not that a real cluster scores the same (test/live.test.ts does that when a URL is set).
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document, Evidence, Progress } from '@factkit/core';
import { InvalidArgumentError, ProviderCallError } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { describeRetrieverContract } from '@factkit/test-utils';
import { type SearchClusterRetriever, createSearchClusterRetriever } from '../src/index.js';
import { type ClientUnderTest, CLIENTS, type FLAVORS, createOfficialClient } from './clients.js';
import { CORPUS, QUERIES } from './fixtures/corpus.js';
import { type ScriptedClusterServer, type ScriptedClusterServerOptions, startScriptedClusterServer } from './scripted-cluster-server.js';

const fast = { retryDelayMs: 1, maxRetryDelayMs: 5 };

async function withServer<T>(under: ClientUnderTest | (typeof FLAVORS)[number], options: ScriptedClusterServerOptions, run: (server: ScriptedClusterServer, client: ReturnType<typeof createOfficialClient>) => Promise<T>): Promise<T> {
  const flavor = typeof under === 'string' ? under : under.flavor;
  const server = await startScriptedClusterServer({ ...options, flavor });
  const client = typeof under === 'string' ? createOfficialClient(flavor, server.url) : under.create(server.url);
  try {
    return await run(server, client);
  } finally {
    await client.close();
    await server.close();
  }
}

const ids = (evidence: readonly Evidence[]) => evidence.map((item) => item.documentId);

for (const under of CLIENTS) {
  const { flavor, label } = under;
  describe(`protocol tests (scripted REST server, no real cluster) through the official client ${label}`, () => {
    let server: ScriptedClusterServer;
    let client: ReturnType<typeof createOfficialClient>;
    let retriever: SearchClusterRetriever;
    beforeAll(async () => {
      server = await startScriptedClusterServer({ flavor });
      client = under.create(server.url);
      retriever = createSearchClusterRetriever({ client, index: 'corpus', ...fast });
      expect(await retriever.ensureIndex()).toEqual({ created: true, problems: [] });
      const result = await retriever.indexDocuments(CORPUS);
      expect(result).toMatchObject({ read: CORPUS.length, indexed: CORPUS.length, failed: 0, problems: [], complete: true });
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    describeRetrieverContract(`search-cluster via ${label} (protocol test)`, () => retriever, { query: 'vitamin D in winter', expectedId: 'd01' });

    it('detects the flavor from the client and names it in the id', () => {
      expect(retriever.flavor).toBe(flavor);
      expect(retriever.id).toBe(`search-cluster(${flavor}:corpus,k1=0.9,b=0.4)`);
    });

    it('created the index with the BM25 similarity and the English analyzer the server checks', () => {
      const create = server.requests.find((request) => request.method === 'PUT' && request.path === '/corpus');
      const body = JSON.parse(create?.body ?? '{}');
      expect(body.settings.index.similarity.factkit_bm25).toEqual({ type: 'BM25', k1: 0.9, b: 0.4, discount_overlaps: true });
      expect(body.settings.index.analysis.analyzer.factkit_english.filter).toEqual(['factkit_english_possessive', 'lowercase', 'factkit_english_stop', 'porter_stem']);
    });

    it('ranks like @factkit/retrieval BM25 on the same corpus (ids in order, scores equal to float32)', async () => {
      const local = createBm25Retriever(CORPUS);
      for (const text of QUERIES) {
        const [remote, expected] = await Promise.all([retriever.retrieve({ query: { text }, topK: 5 }), local.retrieve({ query: { text }, topK: 5 })]);
        expect(ids(remote.evidence), text).toEqual(ids(expected.evidence));
        remote.evidence.forEach((item, position) => expect(item.score).toBeCloseTo((expected.evidence[position] as Evidence).score, 5));
      }
    });

    it('searches weightedTerms (RM3) at their weights instead of the text, like @factkit/retrieval', async () => {
      const weightedTerms = [
        { term: 'heart', weight: 0.7 },
        { term: 'stroke', weight: 0.2 },
        { term: 'heart', weight: 0.1 },
        { term: 'salt', weight: 0 },
      ];
      const query = { text: 'ignored when weighted terms are present', weightedTerms };
      const remote = await retriever.retrieve({ query, topK: 4 });
      const expected = await createBm25Retriever(CORPUS).retrieve({ query, topK: 4 });
      expect(ids(remote.evidence)).toEqual(ids(expected.evidence));
      const body = JSON.parse(server.requests.filter((request) => request.path === '/corpus/_search').at(-1)?.body ?? '{}');
      expect(body.query).toEqual({ bool: { should: [{ term: { contents: { value: 'heart', boost: 0.7999999999999999 } } }, { term: { contents: { value: 'stroke', boost: 0.2 } } }] } });
    });

    it('returns text, rank, the typed origin and the stored user metadata of each hit', async () => {
      const { evidence } = await retriever.retrieve({ query: { text: 'vitamin D deficiency' }, topK: 1 });
      expect(evidence[0]).toEqual({
        documentId: 'd01',
        score: evidence[0]?.score,
        rank: 1,
        origin: { documentId: 'd01', title: 'Vitamin D and bone health', source: { name: 'factkit fixtures', license: 'CC0' } },
        text: CORPUS[0]?.text,
        metadata: { year: 2019 },
      });
    });

    it('gives no evidence and no-searchable-terms for a blank query, without a request', async () => {
      const before = server.requests.length;
      expect(await retriever.retrieve({ query: { text: '   ' } })).toEqual({ evidence: [], problems: [{ code: 'no-searchable-terms', message: 'query has no searchable terms' }] });
      expect(server.requests.length).toBe(before);
    });

    it('finds an existing index with the same settings, and reports one built with other k1/b', async () => {
      expect(await retriever.ensureIndex()).toEqual({ created: false, problems: [] });
      const other = createSearchClusterRetriever({ client, index: 'corpus', k1: 1.2, b: 0.75 });
      const { created, problems } = await other.ensureIndex();
      expect(created).toBe(false);
      expect(problems).toHaveLength(1);
      expect(problems[0]?.code).toBe('index-settings-mismatch');
      expect(problems[0]?.message).toMatch(/k1 0\.9 ≠ 1\.2; b 0\.4 ≠ 0\.75/);
      const fewerStopWords = await createSearchClusterRetriever({ client, index: 'corpus', stopWords: ['the'] }).ensureIndex();
      expect(fewerStopWords.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/stop words differ \(33 vs 1\)$/)]);
    });

    it('rejects a bad topK and a query without text with InvalidArgumentError', async () => {
      await expect(retriever.retrieve({ query: { text: 'x' }, topK: -1 })).rejects.toSatisfy((error) => InvalidArgumentError.isInstance(error) && /topK/.test((error as Error).message));
      await expect(retriever.retrieve({ query: {} as never })).rejects.toSatisfy((error) => InvalidArgumentError.isInstance(error) && /query\.text/.test((error as Error).message));
    });

    it('throws a ProviderCallError with the status for a missing index', async () => {
      const missing = createSearchClusterRetriever({ client, index: 'no-such-index' });
      await expect(missing.retrieve({ query: { text: 'vitamin' } })).rejects.toSatisfy((error) => ProviderCallError.isInstance(error) && error.statusCode === 404 && !error.isRetryable);
    });
  });

  describe(`protocol tests: bulk indexing through the official client ${label}`, () => {
    const many: Document[] = Array.from({ length: 57 }, (_, index) => ({ id: `doc-${String(index).padStart(3, '0')}`, text: `document number ${index} about vitamin ${index % 5}` }));

    it('retries 429 / rejected-execution items with backoff until they succeed, reporting progress', async () => {
      await withServer(under, { bulkItemStatus: ({ id, attempt }) => (Number(id.slice(4)) % 7 === 0 && attempt <= 2 ? 429 : undefined) }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 10, ...fast });
        await retriever.ensureIndex();
        const progress: Progress[] = [];
        const result = await retriever.indexDocuments(many, { onProgress: (event) => progress.push(event) });
        const rejected = many.filter((_, index) => index % 7 === 0).length;
        expect(result).toMatchObject({ read: 57, indexed: 57, failed: 0, retried: rejected * 2, problems: [], complete: true });
        expect(server.storedIds('bulk').sort()).toEqual(many.map((document) => document.id));
        for (let index = 1; index < progress.length; index++) expect((progress[index] as Progress).completed).toBeGreaterThanOrEqual((progress[index - 1] as Progress).completed);
        expect(progress.at(-1)).toEqual({ completed: 57, total: 57, failed: 0 });
        for (const event of progress) expect(event.completed).toBeLessThanOrEqual(event.total);
        expect(server.requests.some((request) => request.path === '/bulk/_refresh')).toBe(true);
      });
    });

    it('keeps finished work when items fail: retries-exhausted, item-rejected and invalid-document per item', async () => {
      const script = ({ id }: { id: string }) => (id === 'doc-003' ? 429 : id === 'doc-004' ? 400 : undefined);
      await withServer(under, { bulkItemStatus: script }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 4, maxAttempts: 3, ...fast });
        await retriever.ensureIndex();
        const input = [...many.slice(0, 10), { id: '', text: 'no id' }, { id: 'bad-text', text: 42 } as unknown as Document];
        const result = await retriever.indexDocuments(input);
        expect(result.indexed).toBe(8);
        expect(result.failed).toBe(4);
        expect(result.complete).toBe(true);
        expect(result.problems.map(({ index, id, code }) => ({ index, id, code }))).toEqual(
          expect.arrayContaining([
            { index: 3, id: 'doc-003', code: 'retries-exhausted' },
            { index: 4, id: 'doc-004', code: 'item-rejected' },
            { index: 10, id: '', code: 'invalid-document' },
            { index: 11, id: 'bad-text', code: 'invalid-document' },
          ]),
        );
        expect(server.storedIds('bulk')).toHaveLength(8);
        expect(server.requests.filter((request) => request.path === '/bulk/_bulk' && request.body.includes('"doc-003"'))).toHaveLength(3);
      });
    });

    it('waits retryDelayMs × 2^(attempt − 1) before each retry (lower bounds only; the machine is shared)', async () => {
      await withServer(under, { bulkItemStatus: ({ attempt }) => (attempt <= 3 ? 429 : undefined) }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', retryDelayMs: 40, maxRetryDelayMs: 100 });
        await retriever.ensureIndex();
        const result = await retriever.indexDocuments(many.slice(0, 3));
        expect(result).toMatchObject({ indexed: 3, retried: 9 });
        const times = server.requests.filter((request) => request.path === '/bulk/_bulk').map((request) => request.receivedAt);
        expect(times).toHaveLength(4);
        // 40, 80, then 160 capped at 100 (a small allowance for timer granularity)
        [40, 80, 100].forEach((delay, index) => expect((times[index + 1] as number) - (times[index] as number)).toBeGreaterThanOrEqual(delay - 2));
      });
    });

    it('bounds batches by count and by bytes', async () => {
      await withServer(under, {}, async (server, client) => {
        const maxBatchBytes = 600;
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 8, maxBatchBytes, ...fast });
        await retriever.ensureIndex();
        const result = await retriever.indexDocuments(many);
        expect(result.indexed).toBe(57);
        const bulks = server.requests.filter((request) => request.path === '/bulk/_bulk');
        for (const request of bulks) {
          expect(request.body.trim().split('\n').length / 2).toBeLessThanOrEqual(8);
          expect(Buffer.byteLength(request.body)).toBeLessThanOrEqual(maxBatchBytes);
        }
        // ~120-byte documents: the byte bound (not the count) closes the batches here
        expect(bulks.length).toBeGreaterThan(Math.ceil(57 / 8));
        expect(bulks.reduce((sum, request) => sum + request.body.trim().split('\n').length / 2, 0)).toBe(57);
      });
    });

    it('keeps at most `concurrency` bulk requests in flight and reads the input only as slots free up', async () => {
      await withServer(under, { bulkDelayMs: 30 }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 5, concurrency: 2, ...fast });
        await retriever.ensureIndex();
        let read = 0;
        let maxAhead = 0;
        let acknowledged = 0;
        async function* documents() {
          for (const document of many) {
            read += 1;
            maxAhead = Math.max(maxAhead, read - acknowledged);
            yield document;
          }
        }
        const result = await retriever.indexDocuments(documents(), {
          onProgress: (progress) => {
            acknowledged = progress.completed; // no document fails here: completed = acknowledged
          },
        });
        expect(result.indexed).toBe(57);
        expect(server.maxConcurrentBulk).toBe(2);
        // in flight (2 × 5) + the batch being filled (5) + the document that closed it
        expect(maxAhead).toBeLessThanOrEqual(2 * 5 + 5 + 1);
      });
    });

    it('retries a whole bulk request answered 429, and stops (complete: false) after a 401', async () => {
      await withServer(under, { bulkRequestStatuses: [429, 429] }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 100, ...fast });
        await retriever.ensureIndex();
        const result = await retriever.indexDocuments(many);
        expect(result).toMatchObject({ indexed: 57, failed: 0, retried: 114, complete: true });
        expect(server.requests.filter((request) => request.path === '/bulk/_bulk')).toHaveLength(3);
      });
      await withServer(under, { bulkRequestStatuses: [200, 401] }, async (_server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 10, concurrency: 1, ...fast });
        await retriever.ensureIndex();
        const result = await retriever.indexDocuments(many);
        expect(result.indexed).toBe(10);
        expect(result.complete).toBe(false);
        expect(result.problems.filter((problem) => problem.code === 'bulk-request-failed').length).toBeGreaterThanOrEqual(10);
        expect(result.problems.some((problem) => problem.code === 'stopped')).toBe(true);
      });
    });

    it('rejects with the abort reason while bulk requests are in flight; acknowledged documents stay', async () => {
      await withServer(under, { bulkDelayMs: 40 }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'bulk', batchSize: 5, concurrency: 1, ...fast });
        await retriever.ensureIndex();
        const controller = new AbortController();
        const reason = new Error('stop indexing');
        const pending = retriever.indexDocuments(many, { abortSignal: controller.signal, onProgress: (progress) => progress.completed >= 10 && controller.abort(reason) });
        await expect(pending).rejects.toBe(reason);
        expect(server.storedIds('bulk').length).toBeGreaterThanOrEqual(10);
        expect(server.storedIds('bulk').length).toBeLessThan(57);
      });
    });
  });
}

describe('protocol tests: request details', () => {
  for (const under of CLIENTS) {
    it(`passes the abort signal to a search in flight through ${under.label} and rejects with its reason, unchanged`, async () => {
      await withServer(under, { searchDelayMs: 10_000 }, async (server, client) => {
        const retriever = createSearchClusterRetriever({ client, index: 'slow' });
        await retriever.ensureIndex();
        await retriever.indexDocuments(CORPUS);
        const controller = new AbortController();
        const reason = new Error('user cancelled');
        const started = Date.now();
        const pending = retriever.retrieve({ query: { text: 'vitamin' }, abortSignal: controller.signal });
        setTimeout(() => controller.abort(reason), 50);
        await expect(pending).rejects.toBe(reason);
        // The server answers after 10 s; rejecting well before that shows the request was cut, not waited for.
        expect(Date.now() - started).toBeLessThan(8000);
        expect(server.requests.filter((request) => request.path === '/slow/_search')).toHaveLength(1);
      });
    });
  }

  it('keeps credentials out of errors and problems (401 with a wrong password, through both flavors)', async () => {
    const expected = `Basic ${Buffer.from('factkit:right-password').toString('base64')}`;
    for (const under of CLIENTS) {
      const server = await startScriptedClusterServer({ flavor: under.flavor, requireAuthorization: expected });
      const url = new URL(server.url);
      url.username = 'factkit';
      url.password = 'WRONG-SECRET-PASSWORD';
      const client = under.create(url.toString());
      try {
        const retriever = createSearchClusterRetriever({ client, index: 'auth' });
        const error = await retriever.retrieve({ query: { text: 'vitamin' } }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(ProviderCallError.isInstance(error) && error.statusCode === 401).toBe(true);
        const indexing = await retriever.indexDocuments(CORPUS.slice(0, 2));
        expect(indexing).toMatchObject({ indexed: 0, complete: false });
        const everything = `${inspect(error, { depth: 20 })}\n${JSON.stringify(indexing)}`;
        const encoded = Buffer.from('factkit:WRONG-SECRET-PASSWORD').toString('base64');
        expect(everything.includes('WRONG-SECRET-PASSWORD') || everything.includes(encoded), under.label).toBe(false);
      } finally {
        await client.close();
        await server.close();
      }
    }
  });

  it('needs a flavor for a client it cannot recognise, and a valid index name', () => {
    const client = createOfficialClient('opensearch', 'http://127.0.0.1:9');
    const anonymous = { search: client.search.bind(client), bulk: client.bulk.bind(client), indices: client.indices };
    expect(() => createSearchClusterRetriever({ client: anonymous, index: 'x' })).toThrow(expect.objectContaining({ argument: 'flavor' }));
    expect(createSearchClusterRetriever({ client: anonymous, index: 'x', flavor: 'opensearch' }).flavor).toBe('opensearch');
    for (const index of ['', 'Upper', 'a b', '_leading', 'a/b']) expect(() => createSearchClusterRetriever({ client, index })).toThrow(expect.objectContaining({ argument: 'index' }));
    expect(() => createSearchClusterRetriever({ client, index: 'x', concurrency: 0 })).toThrow(expect.objectContaining({ argument: 'concurrency' }));
    expect(() => createSearchClusterRetriever({ client: {} as never, index: 'x' })).toThrow(expect.objectContaining({ argument: 'client' }));
  });

  it('sends _bulk as NDJSON (the server refuses other content types) with one index action per document', async () => {
    await withServer('elasticsearch', {}, async (server, client) => {
      const retriever = createSearchClusterRetriever({ client, index: 'nd' });
      await retriever.ensureIndex();
      await retriever.indexDocuments(CORPUS.slice(0, 2));
      const bulk = server.requests.find((request) => request.path === '/nd/_bulk');
      expect(bulk?.headers['content-type']).toMatch(/x-ndjson/);
      const lines = (bulk?.body ?? '')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines[0]).toEqual({ index: { _index: 'nd', _id: 'd01' } });
      expect(lines[1]).toEqual({ id: 'd01', text: CORPUS[0]?.text, title: CORPUS[0]?.title, contents: `${CORPUS[0]?.title} ${CORPUS[0]?.text}`, source: { name: 'factkit fixtures', license: 'CC0' }, metadata: { year: 2019 } });
    });
  });

  it('sends search_type=dfs_query_then_fetch for a multi-shard index, and per-field boosts when fields are weighted', async () => {
    await withServer('opensearch', {}, async (server, client) => {
      const retriever = createSearchClusterRetriever({ client, index: 'fields', fields: { title: 2, text: 1 }, numberOfShards: 3 });
      await retriever.ensureIndex();
      await retriever.indexDocuments(CORPUS);
      const { evidence } = await retriever.retrieve({ query: { text: 'vitamin D winter' }, topK: 3 });
      const search = server.requests.find((request) => request.path === '/fields/_search');
      expect(search?.query['search_type']).toBe('dfs_query_then_fetch');
      expect(JSON.parse(search?.body ?? '{}').query).toEqual({
        bool: { should: [{ match: { title: { query: 'vitamin D winter', operator: 'or', boost: 2 } } }, { match: { text: { query: 'vitamin D winter', operator: 'or', boost: 1 } } }] },
      });
      const expected = await createBm25Retriever(CORPUS, { fields: { title: 2, text: 1 } }).retrieve({ query: { text: 'vitamin D winter' }, topK: 3 });
      expect(ids(evidence)).toEqual(ids(expected.evidence));
    });
  });
});
