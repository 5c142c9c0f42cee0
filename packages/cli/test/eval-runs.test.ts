import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe('factkit eval --qrels --runs (built bin)', () => {
  it('scores two runs and gives hand-checked paired significance', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-evalruns-'));
    const queries = ['q1', 'q2', 'q3', 'q4', 'q5'];
    writeFileSync(join(dir, 'qrels.txt'), queries.map((q) => `${q} 0 rel-${q} 1`).join('\n'));
    // a: the relevant document first for every query. b: second for q1–q3, third for q4–q5.
    writeFileSync(join(dir, 'a.trec'), queries.map((q) => `${q} Q0 rel-${q} 1 2.0 a\n${q} Q0 x-${q} 2 1.0 a`).join('\n'));
    writeFileSync(join(dir, 'b.trec'), queries.map((q, k) => (k < 3 ? `${q} Q0 x-${q} 1 2.0 b\n${q} Q0 rel-${q} 2 1.0 b` : `${q} Q0 x-${q} 1 3.0 b\n${q} Q0 y-${q} 2 2.0 b\n${q} Q0 rel-${q} 3 1.0 b`)).join('\n'));
    const runs = `${join(dir, 'a.trec')},${join(dir, 'b.trec')}`;
    type Report = {
      runs: { queries: number; aggregate: Record<string, number> }[];
      comparison: { measures: string[]; systems: { scores: Record<string, { mean: number }> }[]; againstBaseline: { measure: string; a: number; meanDifference: number; pvalue: number }[] };
    };
    const report = JSON.parse((await run(process.execPath, [bin, 'eval', '--qrels', join(dir, 'qrels.txt'), '--runs', runs, '--metrics', 'ndcg_cut_10,map', '--baseline', 'b', '--json'])).stdout) as Report;
    const randomized = JSON.parse((await run(process.execPath, [bin, 'eval', '--qrels', join(dir, 'qrels.txt'), '--runs', runs, '--metrics', 'ndcg_cut_10,map', '--baseline', 'b', '--test', 'randomization', '--json'])).stdout) as Report;
    expect(report.runs.map((r) => r.queries)).toEqual([5, 5]);
    // nDCG@10 of one relevant document at rank r is 1/log2(r+1): b = (3/log2 3 + 2/2)/5.
    const ndcgB = (3 / Math.log2(3) + 2 * 0.5) / 5;
    expect(report.runs[0]?.aggregate['ndcg_cut_10']).toBeCloseTo(1, 10);
    expect(report.runs[1]?.aggregate['ndcg_cut_10']).toBeCloseTo(ndcgB, 10);
    const ndcg = report.comparison.againstBaseline.find((row) => row.measure === 'ndcg_cut_10')!;
    expect(ndcg.a).toBe(0);
    expect(ndcg.meanDifference).toBeCloseTo(1 - ndcgB, 10);
    // All five differences positive: only "all +" and "all −" of the 2^5 sign flips reach |mean| → p = 2/32 exactly.
    expect(randomized.comparison.againstBaseline.find((row) => row.measure === 'ndcg_cut_10')!.pvalue).toBe(2 / 32);
    // t = mean(d)/(sd(d)/√5) ≈ 13.14 with 4 df → p ≈ 0.0002.
    expect(ndcg.pvalue).toBeGreaterThan(0.0001);
    expect(ndcg.pvalue).toBeLessThan(0.0005);
    // MAP: 1 vs (3·1/2 + 2·1/3)/5.
    expect(report.comparison.systems[1]!.scores['map']!.mean).toBeCloseTo((1.5 + 2 / 3) / 5, 10);
    const table = (await run(process.execPath, [bin, 'eval', '--qrels', join(dir, 'qrels.txt'), '--runs', runs, '--test', 'randomization'])).stdout;
    const svg = join(dir, 'runs.svg');
    await run(process.execPath, [bin, 'eval', '--qrels', join(dir, 'qrels.txt'), '--runs', `${join(dir, 'a.trec')},${join(dir, 'b.trec')}`, '--svg', svg]);
    // Bars in measure-then-run order (ndcg_cut_10, recall_100, map), heights = the aggregates.
    const bars = [...readFileSync(svg, 'utf8').matchAll(/<rect class="bar"[^>]*data-value="([\d.e-]+)"/g)].map((m) => Number(m[1]));
    expect(bars).toHaveLength(6);
    expect(bars[0]).toBeCloseTo(1, 10);
    expect(bars[1]).toBeCloseTo(ndcgB, 10);
    expect(bars[5]).toBeCloseTo((1.5 + 2 / 3) / 5, 10);
    // One pair, a family of one: the adjusted p is the raw exact p, 2/32.
    expect(table).toMatch(/\| a vs b \| \+0\.\d{4} \(p 0\.0625, adj\. 0\.0625\) \|/);
  });

  it('bad input exits 2', async () => {
    await expect(run(process.execPath, [bin, 'eval', '--qrels', '/nonexistent', '--runs', '/nonexistent'])).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [bin, 'eval', '--qrels', 'x'])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/give --qrels and --runs/) });
  });
});
