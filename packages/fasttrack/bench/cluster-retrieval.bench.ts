// Cluster retrieval benchmark: one query against 1,000 leaves × 10 keywords, our matcher (keywords processed once,
// each distinct processed keyword scored once per query) vs a naive loop of fuzzball WRatio calls on the raw strings,
// same run, same queries; every leaf score is checked to be identical. Also the online latency per query (stage 1 +
// an offline NLI-style judge stand-in excluded: matching and candidate collection only) at 10k and 100k documents.
//
//   pnpm --filter @factkit/fasttrack bench     (BENCH_QUERIES=20)
//
// Keywords: real c-TF-IDF labels (top 10, uni+bigrams) of 1,000 groups of 10 FEVER-lite evidence / SciFact sentences.
// Results: bench/results/cluster-retrieval.{json,md}.
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createSeededRandom } from '@factkit/core';
import { requireDataset } from '@factkit/test-utils/data';
import * as fuzzball from 'fuzzball';
// Profile (node --cpu-prof): most of a WRatio call is difflib's SequenceMatcher inside partial_ratio, rebuilt per call.
import { packVectors } from '../src/clustering/vector-matrix.js';
import { buildClusterTree, createClassTfidfLabeller, createClusterMatcher, type FastTrackIndex, type LeafLabel } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const queryCount = Number(process.env['BENCH_QUERIES'] ?? 20);

function sentences(): string[] {
  const out: string[] = [];
  for (const line of readFileSync(join(requireDataset('fever-lite'), 'validation.jsonl'), 'utf8').split('\n')) if (line.trim()) out.push(...(JSON.parse(line) as { evidence: string[] }).evidence);
  for (const line of gunzipSync(readFileSync(join(requireDataset('scifact'), 'corpus_sentences.jsonl.gz')))
    .toString('utf8')
    .split('\n'))
    if (line.trim()) out.push(...(JSON.parse(line) as { abstract: string[] }).abstract);
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** An index over `rows` random unit vectors (8-d) with the given keywords on its leaves (for timing stage 1). */
function indexWith(rows: number, leafKeywords: readonly (readonly string[])[]): FastTrackIndex {
  const random = createSeededRandom(9);
  const embeddings = packVectors(Array.from({ length: rows }, () => Float32Array.from({ length: 8 }, () => random() - 0.5)));
  const tree = buildClusterTree(embeddings, { k: 10, maxLeafSize: 100, seed: 1 });
  const labels = new Map<number, LeafLabel>(tree.leaves.map((leaf, position) => [leaf, { keywords: leafKeywords[position % leafKeywords.length] ?? [], status: 'ok', problems: [] }]));
  return { embedderId: 'bench', labellerId: 'c-tf-idf', documents: Array.from({ length: rows }, (_, row) => ({ id: `d${row}`, text: '' })), embeddings, tree, labels };
}

async function main(): Promise<void> {
  const loadBefore = execSync('uptime').toString().trim();
  const random = createSeededRandom(3);
  const pool = sentences();
  for (let index = pool.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [pool[index], pool[other]] = [pool[other] as string, pool[index] as string];
  }
  const groups = Array.from({ length: 1000 }, (_, group) => ({ leafId: group, texts: pool.slice(group * 10, group * 10 + 10) }));
  const labels = await createClassTfidfLabeller({ topN: 10 }).label({ clusters: groups });
  const leafKeywords = labels.map((label) => label.keywords);
  const keywordCount = leafKeywords.reduce((sum, keywords) => sum + keywords.length, 0);
  // Exactly 1,000 leaves of 10 documents under one root.
  const flat = indexWith(10, [[]]);
  const nodes = [
    { id: 0, parent: -1, path: [], children: Array.from({ length: 1000 }, (_, leaf) => leaf + 1), size: 10_000, centroid: new Float32Array(8) },
    ...Array.from({ length: 1000 }, (_, leaf) => ({ id: leaf + 1, parent: 0, path: [leaf], children: [], size: 10, centroid: new Float32Array(8), members: Array.from({ length: 10 }, (_, row) => leaf * 10 + row) })),
  ];
  const index: FastTrackIndex = {
    ...flat,
    documents: Array.from({ length: 10_000 }, (_, row) => ({ id: `d${row}`, text: '' })),
    embeddings: { rows: 10_000, dimensions: 8, data: new Float32Array(80_000) },
    tree: { k: 1000, maxLeafSize: 10, seed: 0, nodes, leaves: nodes.slice(1).map((node) => node.id) },
    labels: new Map(leafKeywords.map((keywords, leaf) => [leaf + 1, { keywords, status: 'ok' as const, problems: [] }])),
  };
  const queries = readFileSync(join(requireDataset('fever-lite'), 'test.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, queryCount)
    .map((line) => (JSON.parse(line) as { claim: string }).claim);

  // Same 1,000 leaves for both: the index's leaves carry leafKeywords in order.
  const leaves = index.tree.leaves.slice(0, 1000);
  const buildStarted = performance.now();
  const matcher = createClusterMatcher([index]); // the default: WRatio, the 5 best leaves
  const fullMatcher = createClusterMatcher([index], { limit: 100_000 }); // every leaf, no pruning
  const buildMs = performance.now() - buildStarted;
  const naiveTimes: number[] = [];
  const oursTimes: number[] = [];
  const fullTimes: number[] = [];
  let mismatches = 0;
  let comparisons = 0;
  for (const [position, query] of queries.entries()) {
    const runNaive = () => {
      const started = performance.now();
      const scores = new Map<number, number>();
      for (const leaf of leaves) {
        let best = 0;
        for (const keyword of index.labels.get(leaf)?.keywords ?? []) best = Math.max(best, fuzzball.WRatio(query, keyword));
        scores.set(leaf, best);
      }
      naiveTimes.push(performance.now() - started);
      return scores;
    };
    const runOurs = () => {
      const started = performance.now();
      const match = matcher.match(query);
      oursTimes.push(performance.now() - started);
      comparisons += match.comparisons;
      return match.leaves.map((leaf) => [leaf.leafId, leaf.score]);
    };
    const runFull = () => {
      const started = performance.now();
      const match = fullMatcher.match(query);
      fullTimes.push(performance.now() - started);
      return new Map(match.leaves.map((leaf) => [leaf.leafId, leaf.score]));
    };
    // Rotate the order (peers in the same run on a shared machine).
    const runs = [runNaive, runOurs, runFull];
    const results: unknown[] = [];
    for (let offset = 0; offset < 3; offset++) results[(position + offset) % 3] = (runs[(position + offset) % 3] as () => unknown)();
    const [naive, ours, full] = results as [Map<number, number>, number[][], Map<number, number>];
    const naiveTop = [...naive.entries()]
      .filter(([, value]) => value > 0)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 5);
    if (JSON.stringify(naiveTop) !== JSON.stringify(ours)) mismatches++;
    for (const leaf of leaves) if ((naive.get(leaf) ?? 0) !== (full.get(leaf) ?? 0)) mismatches++;
  }
  const uniqueKeywords = new Set(leafKeywords.flat().map((keyword) => fuzzball.full_process(keyword))).size;

  // Online stage-1 latency (keyword matching + candidate collection) at 10k and 100k documents.
  const latency: Record<string, number> = {};
  for (const rows of [10_000, 100_000]) {
    const big = indexWith(rows, leafKeywords);
    const online = createClusterMatcher([big]);
    const times: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      const match = online.match(query);
      let candidates = 0;
      for (const leaf of match.leaves) candidates += big.tree.nodes[leaf.leafId]?.members?.length ?? 0;
      times.push(performance.now() - started);
      if (candidates < 0) throw new Error('unreachable');
    }
    latency[`${rows} documents (${big.tree.leaves.length} leaves)`] = median(times);
  }

  const summary = {
    leaves: leaves.length,
    keywords: keywordCount,
    uniqueProcessedKeywords: uniqueKeywords,
    queries: queries.length,
    naiveMedianMs: median(naiveTimes),
    oursMedianMs: median(oursTimes),
    fullMatcherMedianMs: median(fullTimes),
    speedup: median(naiveTimes) / median(oursTimes),
    meanExactScorerCalls: comparisons / queries.length,
    matcherBuildMs: buildMs,
    scoreMismatches: mismatches,
    stage1LatencyMedianMs: latency,
    loadBefore,
    loadAfter: execSync('uptime').toString().trim(),
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'cluster-retrieval.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    `# Cluster retrieval: 1 query vs ${leaves.length} leaves × 10 keywords (WRatio)`,
    '',
    `Shared 2-core machine. Load before: \`${loadBefore}\`; after: \`${summary.loadAfter}\`. ${queries.length} FEVER-lite claims, medians.`,
    '',
    `| method | median ms / query |`,
    `|---|---:|`,
    `| naive loop of fuzzball.WRatio(query, keyword) | ${summary.naiveMedianMs.toFixed(1)} |`,
    `| createClusterMatcher, every leaf scored (keywords processed once, ${uniqueKeywords} distinct of ${keywordCount}) | ${summary.fullMatcherMedianMs.toFixed(1)} |`,
    `| createClusterMatcher default (5 best leaves, WRatio upper-bound pruning; ${summary.meanExactScorerCalls.toFixed(0)} exact WRatio calls / query) | ${summary.oursMedianMs.toFixed(1)} |`,
    '',
    `Speed-up of the default over the naive loop: **${summary.speedup.toFixed(2)}×**. Mismatches (top-5 leaves and scores vs the naive loop's top 5; every leaf score of the full matcher vs the naive loop): ${mismatches}. Matcher build: ${buildMs.toFixed(0)} ms.`,
    '',
    `Stage-1 latency per query (keyword matching + candidate collection, no judge): ${Object.entries(latency)
      .map(([key, value]) => `${key}: ${value.toFixed(1)} ms`)
      .join('; ')}.`,
    '',
  ];
  writeFileSync(join(here, 'results', 'cluster-retrieval.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

void main();
