import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBm25Retriever } from '@factkit/retrieval';
import { loadBeirCorpus } from '@factkit/retrieval/node';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));
const corpus = fileURLToPath(new URL('../corpus/fever-evidence.jsonl', import.meta.url));

interface SearchJson {
  hits: { rank: number; id: string; score: number; text: string }[];
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

  it('indexes the shipped JSONL corpus and a folder of text files; search finds the document by its words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-index-'));
    const fever = join(dir, 'fever.bm25');
    expect(JSON.parse((await run(process.execPath, [bin, 'index', '--jsonl', corpus, '--out', fever, '--json'])).stdout)).toMatchObject({ documents: 3493 });
    const hits = (JSON.parse((await run(process.execPath, [bin, 'search', '--index', fever, '--query', 'Soul Food Fox 2000 Pictures', '--top-k', '3', '--json'])).stdout) as SearchJson).hits;
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({ rank: 1, id: 'fever-ev-0' });
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

  it('bad input exits 2 with one line', async () => {
    const cases: [string[], RegExp][] = [
      [['index', '--out', '/tmp/x.bm25'], /give exactly one of --jsonl, --beir, --folder/],
      [['index', '--folder', '/nonexistent', '--out', '/tmp/x.bm25'], /^factkit: .*"--folder" is not a folder/],
      [['index', '--beir', beir, '--out', '/tmp/x.bm25', '--kind', 'dense'], /only "bm25" can be saved/],
      [['search', '--index', '/nonexistent.bm25', '--query', 'x'], /^factkit: loadBm25Index: argument "path" cannot be read/],
      [['search', '--index', corpus, '--query', 'x'], /^factkit: /],
    ];
    for (const [args, stderr] of cases) await expect(run(process.execPath, [bin, ...args])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(stderr) });
  });
});
