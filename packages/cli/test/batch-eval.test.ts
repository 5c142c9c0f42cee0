import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// The transformers package's repo-built ONNX fixture (a static word-embedding encoder), so --embedder transformers:<dir>
// runs a real transformers.js model from a local folder.
import { writeStaticEmbeddingModel } from '../../transformers/test/fixtures/onnx-fixtures.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const factkit = (...args: string[]) => run(process.execPath, [bin, ...args], { cwd: directory });

// A hand-written corpus of four documents, one per topic.
const directory = mkdtempSync(join(tmpdir(), 'factkit-batch-'));
const CORPUS = [
  { _id: 'd1', title: 'Cats', text: 'cats purr and felines nap' },
  { _id: 'd2', title: 'Dogs', text: 'dogs bark and loyal canines fetch' },
  { _id: 'd3', title: 'Tea', text: 'green tea has caffeine' },
  { _id: 'd4', title: 'Coffee', text: 'coffee has more caffeine than tea' },
];
writeFileSync(join(directory, 'corpus.jsonl'), CORPUS.map((row) => JSON.stringify(row)).join('\n'));
// Topics mix Pyserini's TSV lines and BEIR JSONL lines; one malformed line is named and dropped (exit 3).
writeFileSync(join(directory, 'topics.tsv'), 'q1\tpurring felines\nq2\tcoffee caffeine\n{"_id": "q3", "text": "loyal dogs"}\n');
// The same judgments in the three qrels layouts.
const JUDGED = { q1: { d1: 1 }, q2: { d4: 2, d3: 1 }, q3: { d2: 1 } };
writeFileSync(
  join(directory, 'qrels.tsv'),
  `query-id\tcorpus-id\tscore\n${Object.entries(JUDGED)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, r]) => `${q}\t${d}\t${r}`))
    .join('\n')}\n`,
);
writeFileSync(
  join(directory, 'qrels.trec'),
  `${Object.entries(JUDGED)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, r]) => `${q} 0 ${d} ${r}`))
    .join('\n')}\n`,
);
writeFileSync(join(directory, 'qrels.json'), JSON.stringify(JUDGED));

describe('factkit search --topics and eval --runs (built bin, hand-written corpus)', () => {
  it('writes a TREC run for every topic of a BM25 index, with the tag, on the worker pool and without it alike', async () => {
    await factkit('index', '--jsonl', 'corpus.jsonl', '--out', 'bm25.idx');
    const pooled = JSON.parse((await factkit('search', '--index', 'bm25.idx', '--topics', 'topics.tsv', '--run', 'bm25.trec', '--tag', 'my-bm25', '--threads', '2', '--json')).stdout);
    expect(pooled).toMatchObject({ kind: 'bm25', queries: 3, tag: 'my-bm25', topK: 1000, failed: 0 });
    const lines = readFileSync(join(directory, 'bm25.trec'), 'utf8').trim().split('\n');
    // Each query's only matching documents, best first: q1 → d1; q2 → d4 (coffee + caffeine) above d3 (caffeine); q3 → d2.
    expect(
      lines.map((line) =>
        line
          .split(' ')
          .filter((_, k) => k !== 4)
          .join(' '),
      ),
    ).toEqual(['q1 Q0 d1 1 my-bm25', 'q2 Q0 d4 1 my-bm25', 'q2 Q0 d3 2 my-bm25', 'q3 Q0 d2 1 my-bm25']);
    await factkit('search', '--index', 'bm25.idx', '--topics', 'topics.tsv', '--run', 'single.trec', '--tag', 'my-bm25', '--threads', '1');
    expect(readFileSync(join(directory, 'single.trec'), 'utf8')).toBe(readFileSync(join(directory, 'bm25.trec'), 'utf8'));
  });

  it('names and drops a malformed topic line (exit 3) and refuses a tag with spaces (exit 2)', async () => {
    writeFileSync(join(directory, 'bad-topics.tsv'), 'q1\tpurring felines\njust words without a tab\n');
    const error = await factkit('search', '--index', 'bm25.idx', '--topics', 'bad-topics.tsv', '--run', 'bad.trec').then(
      () => undefined,
      (caught: { code: number; stderr: string }) => caught,
    );
    expect(error?.code).toBe(3);
    expect(error?.stderr).toMatch(/bad-topics\.tsv:2: is neither a JSON object nor "qid<TAB>text"/);
    expect(readFileSync(join(directory, 'bad.trec'), 'utf8')).toMatch(/^q1 Q0 d1 1 /);
    await expect(factkit('search', '--index', 'bm25.idx', '--topics', 'topics.tsv', '--run', 'x.trec', '--tag', 'two words')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--tag"/) });
    await expect(factkit('search', '--index', 'bm25.idx', '--topics', 'topics.tsv')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--topics with --run/) });
  });

  it('compares three runs with hand-checked p-values, Holm corrections and markers, the same from every qrels layout', async () => {
    // Hand-made runs over q1..q3 (+ q2's second relevant document): A puts every relevant document first, B second,
    // C third. Per query nDCG@10 then differs by a fixed amount between systems, so every difference has one sign and
    // the exact randomization test gives p = 2 / 2^3 = 0.25 for each pair.
    const rank = (tag: string, depth: number) =>
      Object.entries(JUDGED)
        .flatMap(([q, docs]) => {
          const ranked = [...Array.from({ length: depth - 1 }, (_, k) => `x${k}`), ...Object.keys(docs).sort((a, b) => (docs as Record<string, number>)[b]! - (docs as Record<string, number>)[a]!)];
          return ranked.map((d, k) => `${q} Q0 ${d} ${k + 1} ${10 - k} ${tag}`);
        })
        .join('\n');
    writeFileSync(join(directory, 'A.trec'), rank('A', 1));
    writeFileSync(join(directory, 'B.trec'), rank('B', 2));
    writeFileSync(join(directory, 'C.trec'), rank('C', 3));
    const compare = async (qrels: string) =>
      JSON.parse((await factkit('eval', '--qrels', qrels, '--runs', 'A.trec,B.trec,C.trec', '--test', 'randomization', '--alpha', '0.6', '--metrics', 'recip_rank', '--json')).stdout) as {
        comparison: {
          systems: { name: string; scores: Record<string, { mean: number }> }[];
          allPairs: { a: number; b: number; pvalue: number; adjustedPValue: number; significant: boolean }[];
          againstBaseline: { a: number; pvalue: number; adjustedPValue: number }[];
        };
      };
    const fromBeir = await compare('qrels.tsv');
    expect((await compare('qrels.trec')).comparison).toEqual(fromBeir.comparison);
    expect((await compare('qrels.json')).comparison).toEqual(fromBeir.comparison);
    const { comparison } = fromBeir;
    // Reciprocal rank of the first relevant document: 1, 1/2, 1/3 for every query.
    expect(comparison.systems.map((system) => system.scores['recip_rank']!.mean)).toEqual([1, 0.5, 1 / 3]);
    // Three pairs, each p = 0.25; Holm: 3·0.25 = 0.75, then max(0.75, 2·0.25), max(0.75, 0.25) → all 0.75.
    expect(comparison.allPairs.map((row) => [row.a, row.b, row.pvalue, row.adjustedPValue])).toEqual([
      [0, 1, 0.25, 0.75],
      [0, 2, 0.25, 0.75],
      [1, 2, 0.25, 0.75],
    ]);
    // Against baseline A: two tests, 2·0.25 = 0.5 for both (< α = 0.6, significant).
    expect(comparison.againstBaseline.map((row) => [row.a, row.adjustedPValue])).toEqual([
      [1, 0.5],
      [2, 0.5],
    ]);
    // At α = 0.8 every pair is significant: A beats b and c, B beats c; B and C differ from the baseline (†).
    const markdown = (await factkit('eval', '--qrels', 'qrels.tsv', '--runs', 'A.trec,B.trec,C.trec', '--test', 'randomization', '--alpha', '0.8', '--metrics', 'recip_rank')).stdout;
    expect(markdown).toContain('| a | A (baseline) | 1.0000 ± 0.0000 ᵇᶜ |');
    expect(markdown).toContain('| b | B | 0.5000 ± 0.0000 ᶜ † |');
    expect(markdown).toContain('| c | C | 0.3333 ± 0.0000 † |');
    expect(markdown).toContain('| a vs b | +0.5000 (p 0.2500, adj. 0.7500) † |');
    const latex = (await factkit('eval', '--qrels', 'qrels.json', '--runs', 'A.trec,B.trec,C.trec', '--names', 'bm25_x,B,C', '--test', 'randomization', '--alpha', '0.8', '--metrics', 'recip_rank', '--format', 'latex')).stdout;
    expect(latex).toContain('\\begin{tabular}{llr}');
    // pdflatex-safe caption: Holm--Bonferroni, $\alpha$, $\dagger$; no raw Unicode sign left.
    expect(latex).toMatch(/Holm--Bonferroni[\s\S]*\$\\alpha\$ = 0\.8[\s\S]*\$\\dagger\$ marks/);
    expect(latex).not.toMatch(/[α†–−±]/);
    expect(latex).toContain('a & bm25\\_x (baseline) & 1.0000 $\\pm$ 0.0000$^{bc}$ \\\\');
    expect(latex).toContain('b & B & 0.5000 $\\pm$ 0.0000$^{c\\dagger}$ \\\\');
    await factkit('eval', '--qrels', 'qrels.trec', '--runs', 'A.trec,B.trec,C.trec', '--names', 'A<x>,B,C', '--test', 'randomization', '--alpha', '0.8', '--metrics', 'recip_rank', '--out', 'table.html');
    const html = readFileSync(join(directory, 'table.html'), 'utf8');
    expect(html).toContain('<th scope="row">A&lt;x&gt; (baseline)</th><td class="num" data-value="1.0000">1.0000 ± 0.0000<sup>bc</sup></td>');
    expect(html).not.toMatch(/&amp;(lt|gt|amp);/);
  });

  it('refuses a baseline, test or output extension it does not know (exit 2, naming the flag)', async () => {
    await expect(factkit('eval', '--qrels', 'qrels.tsv', '--runs', 'A.trec,B.trec', '--baseline', 'Z')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--baseline".*A, B/) });
    await expect(factkit('eval', '--qrels', 'qrels.tsv', '--runs', 'A.trec,B.trec', '--test', 'wilcoxon')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--test"/) });
    await expect(factkit('eval', '--qrels', 'qrels.tsv', '--runs', 'A.trec,B.trec', '--out', 'table.pdf')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--out"/) });
    writeFileSync(join(directory, 'qrels.bad'), 'q1 d1\n');
    await expect(factkit('eval', '--qrels', 'qrels.bad', '--runs', 'A.trec')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/qrels\.bad.*neither TREC/) });
  });

  it('dense and hybrid indexes through --embedder transformers:<dir>: search --topics and eval --index', async () => {
    // One direction per topic; a text's vector is the mean of its words' rows (unknown words are zero rows).
    const axis = (k: number) => Float32Array.from({ length: 4 }, (_, j) => (j === k ? 1 : 0));
    const words: [string, Float32Array][] = [
      ...['cats', 'purr', 'purring', 'felines', 'nap'].map((w) => [w, axis(0)] as [string, Float32Array]),
      ...['dogs', 'bark', 'loyal', 'canines', 'fetch'].map((w) => [w, axis(1)] as [string, Float32Array]),
      ...['green', 'tea'].map((w) => [w, axis(2)] as [string, Float32Array]),
      ['coffee', axis(3)],
      ['caffeine', Float32Array.from([0, 0, 0.5, 0.5])],
    ];
    await writeStaticEmbeddingModel({ directory: join(directory, 'static-model'), vectors: words, dimensions: 4 });
    await factkit('index', '--jsonl', 'corpus.jsonl', '--kind', 'dense', '--embedder', 'transformers:static-model', '--out', 'dense.idx');
    const dense = JSON.parse((await factkit('search', '--index', 'dense.idx', '--topics', 'topics.tsv', '--run', 'dense.trec', '--json')).stdout);
    expect(dense).toMatchObject({ kind: 'dense', queries: 3, tag: 'factkit-dense', failed: 0 });
    const best = (text: string) =>
      Object.fromEntries(
        text
          .trim()
          .split('\n')
          .filter((line) => line.split(' ')[3] === '1')
          .map((line) => [line.split(' ')[0], line.split(' ')[2]]),
      );
    expect(best(readFileSync(join(directory, 'dense.trec'), 'utf8'))).toEqual({ q1: 'd1', q2: 'd4', q3: 'd2' });
    await factkit('index', '--jsonl', 'corpus.jsonl', '--kind', 'hybrid', '--embedder', 'transformers:static-model', '--out', 'hybrid');
    const evaluated = JSON.parse((await factkit('eval', '--index', 'hybrid', '--topics', 'topics.tsv', '--qrels', 'qrels.trec', '--metrics', 'recip_rank', '--json')).stdout);
    // Both parts put every query's first relevant document on top, so the fused run does too: MRR 1.
    expect(evaluated).toMatchObject({ kind: 'hybrid', queries: 3, failed: 0, aggregate: { recip_rank: 1 } });
    await expect(factkit('search', '--index', 'dense.idx', '--topics', 'topics.tsv', '--run', 'x.trec', '--rm3')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--rm3".*needs a BM25 index/) });
    await expect(factkit('index', '--jsonl', 'corpus.jsonl', '--kind', 'dense', '--embedder', 'transformers:no-such-folder', '--out', 'x.idx')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--embedder"/) });
  });

  it('index --analyzer chinese indexes CJK bigrams; an unknown analyzer is refused', async () => {
    writeFileSync(join(directory, 'zh.jsonl'), `${JSON.stringify({ id: 'z1', text: '事实核查是新闻工作' })}\n${JSON.stringify({ id: 'z2', text: '今天天气很好' })}\n`);
    const built = JSON.parse((await factkit('index', '--jsonl', 'zh.jsonl', '--analyzer', 'chinese', '--out', 'zh.idx', '--json')).stdout);
    expect(built).toMatchObject({ documents: 2 });
    const hits = JSON.parse((await factkit('search', '--index', 'zh.idx', '--query', '核查', '--json')).stdout).hits as { id: string }[];
    expect(hits.map((hit) => hit.id)).toEqual(['z1']);
    // The saved index names its analyzer: searched again, the query is analysed into the same bigrams.
    expect(JSON.parse((await factkit('search', '--index', 'zh.idx', '--query', '天气', '--json')).stdout).hits.map((hit: { id: string }) => hit.id)).toEqual(['z2']);
    await expect(factkit('index', '--jsonl', 'zh.jsonl', '--analyzer', 'klingon', '--out', 'x.idx')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--analyzer".*english, chinese/) });
  });
});
