import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBm25Retriever, createDenseRetriever } from '@factkit/retrieval';
import { loadBeirCorpus } from '@factkit/retrieval/node';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { createGloveEmbedder } from '@factkit/glove';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));
import { writeWordNetInstancesJsonl } from './wordnet-jsonl.js';

const corpus = await writeWordNetInstancesJsonl();

interface SearchJson {
  kind: string;
  retriever: string;
  hits: { rank: number; id: string; score: number; text: string; title?: string }[];
}

describe('factkit index / search (built bin)', () => {
  it('a saved BEIR index answers like an in-memory index of the same corpus (save/load round trip)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-index-'));
    const out = join(dir, 'tiny.bm25');
    const { stdout } = await run(process.execPath, [bin, 'index', '--beir', beir, '--out', out, '--json']);
    expect(JSON.parse(stdout)).toMatchObject({ out, documents: 4, problems: 0 });
    const searched = JSON.parse((await run(process.execPath, [bin, 'search', '--index', out, '--query', 'cats watching fish', '--json'])).stdout) as SearchJson;
    const expected = await createBm25Retriever(await loadBeirCorpus(join(beir, 'corpus.jsonl'))).retrieve({ query: { text: 'cats watching fish' }, topK: 10 });
    expect(searched.hits.map((hit) => [hit.id, hit.score])).toEqual(expected.evidence.map((hit) => [hit.documentId, hit.score]));
    // By hand: d4 ("Fish swim; cats watch fish.") has all three stems, d1 only "cat".
    expect(searched.hits.map((hit) => hit.id)).toEqual(['d4', 'd1']);
  });

  it('indexes a JSONL corpus (WordNet instance synsets) and a folder of text files; search finds the document by its words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-index-'));
    const wordnet = join(dir, 'wordnet.bm25');
    expect(JSON.parse((await run(process.execPath, [bin, 'index', '--jsonl', corpus, '--out', wordnet, '--json'])).stdout)).toMatchObject({ documents: 7742 });
    const hits = (JSON.parse((await run(process.execPath, [bin, 'search', '--index', wordnet, '--query', 'Canberra capital of Australia', '--top-k', '3', '--json'])).stdout) as SearchJson).hits;
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({ rank: 1, id: 'wn:n:08851261' }); // Canberra
    const folder = join(dir, 'notes');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'a.txt'), 'The aqueduct was completed in 1586.');
    writeFileSync(join(folder, 'sub', 'b.md'), 'Rome is the capital of Italy.');
    writeFileSync(join(folder, 'skip.json'), '{"not": "text"}');
    const notes = join(dir, 'notes.bm25');
    expect(JSON.parse((await run(process.execPath, [bin, 'index', '--folder', folder, '--out', notes, '--json'])).stdout)).toMatchObject({ documents: 2 });
    const text = (await run(process.execPath, [bin, 'search', '--index', notes, '--query', 'capital of Italy'])).stdout;
    expect(text).toMatch(/^ {2}1 {2}\d\.\d{4} {2}sub\/b\.md {2}Rome is the capital of Italy\.\n$/);
  });

  it('a dense index (offline USE-lite) saved and searched through the bin ranks like an in-memory dense retriever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-index-'));
    const out = join(dir, 'tiny.dense');
    const built = JSON.parse((await run(process.execPath, [bin, 'index', '--beir', beir, '--kind', 'dense', '--out', out, '--json'])).stdout) as Record<string, unknown>;
    expect(built).toMatchObject({ out, kind: 'dense', documents: 4, problems: 0 });
    // 4 × 512 float32 = 8192 bytes of vectors plus ids, texts, header and footer.
    expect(built['bytes']).toBeGreaterThan(8192);
    const searched = JSON.parse((await run(process.execPath, [bin, 'search', '--index', out, '--query', 'cats watching fish', '--json'])).stdout) as SearchJson;
    expect(searched).toMatchObject({ kind: 'dense', retriever: 'dense(use-lite)' });
    const embedder = createUseLiteEmbedder();
    try {
      const expected = createDenseRetriever({ embedder });
      await expected.index({ documents: await loadBeirCorpus(join(beir, 'corpus.jsonl')) });
      const { evidence } = await expected.retrieve({ query: { text: 'cats watching fish' }, topK: 10 });
      expect(searched.hits.map((hit) => hit.id)).toEqual(evidence.map((hit) => hit.documentId));
      searched.hits.forEach((hit, k) => expect(hit.score).toBeCloseTo(evidence[k]!.score, 5));
      expect(searched.hits[0]).toMatchObject({ id: 'd4', text: 'Fish swim; cats watch fish.' });
      expect(searched.hits.find((hit) => hit.id === 'd1')).toMatchObject({ title: 'Cats', text: 'Cats purr when content.' });
    } finally {
      embedder.dispose();
    }
    // One flipped byte: the checksum catches it, exit 2 naming the file.
    const bytes = readFileSync(out);
    bytes[100] = (bytes[100] as number) ^ 0xff;
    writeFileSync(out, bytes);
    await expect(run(process.execPath, [bin, 'search', '--index', out, '--query', 'cats'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(`factkit search: ${out}: checksum mismatch`) });
  }, 120_000);

  it('a dense index with --embedder glove (the optional @factkit/glove, averaged GloVe 100-d) ranks like the in-memory retriever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-index-'));
    const out = join(dir, 'tiny.glove');
    expect(JSON.parse((await run(process.execPath, [bin, 'index', '--beir', beir, '--kind', 'dense', '--embedder', 'glove', '--out', out, '--json'], { timeout: 300_000 })).stdout)).toMatchObject({ documents: 4, problems: 0 });
    const searched = JSON.parse((await run(process.execPath, [bin, 'search', '--index', out, '--query', 'cats watching fish', '--json'], { timeout: 300_000 })).stdout) as SearchJson;
    expect(searched.retriever).toBe('dense(glove)');
    const expected = createDenseRetriever({ embedder: createGloveEmbedder() });
    await expected.index({ documents: await loadBeirCorpus(join(beir, 'corpus.jsonl')) });
    const { evidence } = await expected.retrieve({ query: { text: 'cats watching fish' }, topK: 10 });
    expect(searched.hits.map((hit) => hit.id)).toEqual(evidence.map((hit) => hit.documentId));
    searched.hits.forEach((hit, k) => expect(hit.score).toBeCloseTo(evidence[k]!.score, 5));
  }, 600_000);

  it('a hybrid index (endpoint embedder on a local scripted server) fuses BM25 and dense ranks by RRF, checked by hand', async () => {
    const server = await startScriptedOpenAIServer({ defaultDimensions: 8 });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-index-'));
      const out = join(dir, 'tiny.hybrid');
      const secret = 'sk-test-secret-1234567890';
      const endpoint = ['--base-url', server.url, '--api-key', secret];
      const built = await run(process.execPath, [bin, 'index', '--beir', beir, '--kind', 'hybrid', '--embedder', 'endpoint:embed-8', '--dimensions', '8', '--out', out, '--json', ...endpoint]);
      expect(JSON.parse(built.stdout)).toMatchObject({ kind: 'hybrid', documents: 4, problems: 0 });
      expect(readdirSync(out).sort()).toEqual(['bm25.index', 'dense.index', 'manifest.json']);
      expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ format: 'factkit-hybrid', version: 1, embedderId: 'endpoint:embed-8', fusion: { method: 'rrf', k: 60 }, candidateDepth: 100 });
      const embedCalls = () => server.requests.filter((request) => request.path === '/v1/embeddings');
      expect(embedCalls()).toHaveLength(1); // 4 passages in one batch
      const searched = JSON.parse((await run(process.execPath, [bin, 'search', '--index', out, '--query', 'cats watching fish', '--json', ...endpoint])).stdout) as SearchJson;
      expect(embedCalls()).toHaveLength(2); // plus the query
      expect(searched.kind).toBe('hybrid');
      // By hand: BM25 ranks d4, d1 (see above); the dense ranks come from the scripted vectors, read back from a dense-only search.
      const dense = JSON.parse((await run(process.execPath, [bin, 'search', '--index', join(out, 'dense.index'), '--query', 'cats watching fish', '--json', ...endpoint])).stdout) as SearchJson;
      const bm25 = JSON.parse((await run(process.execPath, [bin, 'search', '--index', join(out, 'bm25.index'), '--query', 'cats watching fish', '--json'])).stdout) as SearchJson;
      expect(bm25.hits.map((hit) => hit.id)).toEqual(['d4', 'd1']);
      const rrf = new Map<string, number>();
      for (const list of [bm25.hits, dense.hits]) list.forEach((hit, k) => rrf.set(hit.id, (rrf.get(hit.id) ?? 0) + 1 / (60 + k + 1)));
      for (const hit of searched.hits) expect(hit.score).toBeCloseTo(rrf.get(hit.id)!, 12);
      expect(searched.hits.map((hit) => hit.score)).toEqual([...rrf.values()].sort((a, b) => b - a));
      // The key went to the server and nowhere else.
      expect(server.requests.at(-1)?.headers['authorization']).toBe(`Bearer ${secret}`);
      expect(`${built.stdout}${built.stderr}${JSON.stringify(searched)}${readFileSync(join(out, 'manifest.json'), 'utf8')}`).not.toContain(secret);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('bad input exits 2 with one line', async () => {
    const cases: [string[], RegExp][] = [
      [['index', '--out', '/tmp/x.bm25'], /give exactly one of --jsonl, --beir, --folder/],
      [['index', '--folder', '/nonexistent', '--out', '/tmp/x.bm25'], /^factkit index: argument "--folder" is not a folder/],
      [['index', '--beir', beir, '--out', '/tmp/x.bm25', '--kind', 'sparse'], /"--kind" must be one of bm25, dense, hybrid \(got "sparse"\)/],
      [['index', '--beir', beir, '--out', '/tmp/x.dense', '--kind', 'dense', '--embedder', 'word2vec'], /"--embedder" must be one of use-lite \| glove \| transformers:<dir> \| endpoint:<model>/],
      [['index', '--beir', beir, '--out', '/tmp/x.dense', '--kind', 'dense', '--embedder', 'endpoint:e5', '--base-url', 'http://127.0.0.1:9/v1'], /"--dimensions" is needed for --embedder endpoint:e5/],
      [['index', '--beir', beir, '--out', '/tmp/x.hybrid', '--kind', 'hybrid', '--fusion', 'average'], /"--fusion" is invalid/],
      [['search', '--index', '/nonexistent.dense', '--query', 'x'], /^factkit search: argument "--index" cannot be read/],
      [['search', '--index', corpus, '--query', 'x'], /^factkit search: /],
    ];
    for (const [args, stderr] of cases) await expect(run(process.execPath, [bin, ...args])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(stderr) });
  });
});
