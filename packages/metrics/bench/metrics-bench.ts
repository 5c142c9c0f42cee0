// Benchmarks for @factkit/metrics: medians over repeats, peers measured in the same run, ratios reported.
// Run: pnpm --filter @factkit/metrics bench
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireDataset } from '@factkit/test-utils/data';
import { computeMeteor, computeNdcgAtK, computeRecallAtK, computeRouge, evaluateRun, tokenizeWordsNltk } from '../src/index.js';
import { rankDocuments } from '../src/ir/rank-documents.js';
import { computeAveragePrecision, computePrecisionAtK, computeReciprocalRank } from '../src/ir/ranking-metrics.js';
import { parseTrecQrels, parseTrecRun } from '../src/ir/trec-format.js';

const golden = requireDataset('golden');
const repeats = Number(process.env.BENCH_REPEATS ?? 15);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function measure(name: string, task: () => unknown): { name: string; milliseconds: number } {
  task(); // warm-up
  const times: number[] = [];
  for (let index = 0; index < repeats; index++) {
    const start = performance.now();
    task();
    times.push(performance.now() - start);
  }
  return { name, milliseconds: median(times) };
}

function report(title: string, results: { name: string; milliseconds: number }[]): void {
  const base = results[0]!.milliseconds;
  process.stdout.write(`\n${title} (median of ${repeats})\n`);
  for (const { name, milliseconds } of results) process.stdout.write(`  ${name.padEnd(48)} ${milliseconds.toFixed(3).padStart(9)} ms   ×${(milliseconds / base).toFixed(2)}\n`);
}

const qrels = parseTrecQrels(readFileSync(join(golden, 'trec_eval', 'random50.qrels'), 'utf8'));
const runText = readFileSync(join(golden, 'trec_eval', 'random50.run'), 'utf8');
const run = parseTrecRun(runText);
const metrics = ['map', 'recip_rank', 'P_10', 'recall_100', 'ndcg_cut_10'];

report('Ranking: 50 queries × 100 docs, 5 measures', [
  measure('evaluateRun (one pass per query)', () => evaluateRun(qrels, run, { metrics })),
  measure('single-query helpers (re-rank once, 5 calls)', () => {
    for (const queryId of Object.keys(run)) {
      const ranking = rankDocuments(run[queryId]!);
      const judgments = qrels[queryId] ?? {};
      computeAveragePrecision(ranking, judgments);
      computeReciprocalRank(ranking, judgments);
      computePrecisionAtK(ranking, judgments, { k: 10 });
      computeRecallAtK(ranking, judgments, { k: 100 });
      computeNdcgAtK(ranking, judgments, { k: 10 });
    }
  }),
  measure('parseTrecRun (5,000 lines)', () => parseTrecRun(runText)),
]);

const pairs = (JSON.parse(readFileSync(join(golden, 'meteor', 'meteor_pairs.json'), 'utf8')) as { pairs: { hypothesis: string; references: string[] }[] }).pairs;
const tokenized = pairs.map((pair) => ({ hypothesis: tokenizeWordsNltk(pair.hypothesis), reference: tokenizeWordsNltk(pair.references[0]!) }));
report('Text overlap: 61 golden pairs', [
  measure('computeRouge (4 types, no stemming)', () => pairs.forEach((pair) => computeRouge(pair.hypothesis, pair.references[0]!))),
  measure('computeRouge (4 types, Porter stemming)', () => pairs.forEach((pair) => computeRouge(pair.hypothesis, pair.references[0]!, { useStemmer: true }))),
  measure('computeMeteor (pre-tokenized, no WordNet)', () => tokenized.forEach((pair) => computeMeteor(pair.hypothesis, pair.reference))),
  measure('tokenizeWordsNltk (122 strings)', () =>
    pairs.forEach((pair) => {
      tokenizeWordsNltk(pair.hypothesis);
      tokenizeWordsNltk(pair.references[0]!);
    }),
  ),
]);
