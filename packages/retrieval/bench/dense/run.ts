/**
 * Dense retrieval benchmark: exact flat search over 100k × 384 float32 vectors (top-10, cosine), factkit's flat index
 * against usearch's exact search and a plain JavaScript loop, in the same run; then HNSW (usearch) build time, q/s and
 * recall@10 against exact search. Medians over interleaved repeats; same-run ratios to usearch are reported.
 *
 * Fair peers: factkit's cosine index L2-normalises every vector at insert and then ranks by inner product, so usearch
 * runs the inner-product metric (`ip`) on the same L2-normalised rows and queries (normalised once, outside the timed
 * region), and the plain-JS baseline scans the same normalised rows (norms precomputed, not recomputed per query).
 * Until 2026-11-23 usearch ran `cos` on the raw rows (a norm per row per query) and the JS loop recomputed every
 * row norm per query, which inflated factkit's ratios (e.g. 2.21× batched); those figures are withdrawn.
 *
 *   pnpm --filter @factkit/retrieval run bench:dense            (writes bench/dense/results/dense-bench.{json,md})
 *   BENCH_ROWS=20000 pnpm --filter @factkit/retrieval run bench:dense   (smaller, for a quick look)
 *   BENCH_SKIP_HNSW=1 …   (exact search only)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { cosineSimilarity } from '@factkit/core';
import usearch from 'usearch';
import { createFlatIndex } from '../../src/dense/flat-index.js';
import { createHnswVectorStore } from '../../src/node.js';
import { createMixtureGenerator, MIXTURE_DESCRIPTION } from './synthetic.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 100_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);
const topK = 10;
const singleQueries = 24;
const batchSize = 64;

// Embeddings are clustered, and uniform noise in 384-d is a degenerate case for graph indexes, so the data is a
// Gaussian mixture (see synthetic.ts). Queries come from the same mixture.
const { samplePoint } = createMixtureGenerator(dimensions);
const progress = (message: string) => process.stderr.write(`[bench:dense] ${message}\n`);

progress(`generating ${rows} × ${dimensions} vectors`);
const matrix = new Float32Array(rows * dimensions);
for (let r = 0; r < rows; r += 1) samplePoint(matrix, r * dimensions);
const queries = Array.from({ length: batchSize }, () => {
  const query = new Float32Array(dimensions);
  samplePoint(query, 0);
  return query;
});
const queryMatrix = new Float32Array(batchSize * dimensions);
queries.forEach((query, i) => queryMatrix.set(query, i * dimensions));
const ids = Array.from({ length: rows }, (_, i) => `d${i}`);
// The same data, L2-normalised once (what factkit's cosine index stores): for usearch `ip` and the plain-JS loop.
const normalise = (source: Float32Array, count: number): Float32Array => {
  const target = new Float32Array(source.length);
  for (let r = 0; r < count; r += 1) {
    let sum = 0;
    for (let k = 0; k < dimensions; k += 1) sum += (source[r * dimensions + k] as number) ** 2;
    const inverse = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let k = 0; k < dimensions; k += 1) target[r * dimensions + k] = (source[r * dimensions + k] as number) * inverse;
  }
  return target;
};
const unitMatrix = normalise(matrix, rows);
const unitQueryMatrix = normalise(queryMatrix, batchSize);
// Separate arrays, not subarray views: usearch's native binding reads a view from its buffer's start (ignores byteOffset).
const unitQueries = Array.from({ length: batchSize }, (_, i) => unitQueryMatrix.slice(i * dimensions, (i + 1) * dimensions));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

interface Peer {
  readonly name: string;
  readonly label: string;
  /** Queries answered by one run of `task`. */
  readonly count: number;
  readonly task: () => unknown;
}

/**
 * Warms every peer up once, then runs them round-robin `repeats` times (so load from other processes hits all peers
 * alike) and returns each peer's median q/s.
 */
/** Per-round q/s of every peer of the last `measureInterleaved` call (for per-round paired ratios). */
const perRound = new Map<string, number[]>();
async function measureInterleaved(peers: readonly Peer[]): Promise<Record<string, number>> {
  for (const peer of peers) await peer.task();
  const rates = new Map<string, number[]>(peers.map((peer) => [peer.name, []]));
  for (let r = 0; r < repeats; r += 1) {
    for (const peer of peers) {
      globalThis.gc?.();
      const begin = performance.now();
      await peer.task();
      rates.get(peer.name)!.push(peer.count / ((performance.now() - begin) / 1000));
    }
  }
  const out: Record<string, number> = {};
  for (const peer of peers) {
    const values = rates.get(peer.name)!;
    perRound.set(peer.name, values);
    out[peer.name] = Number(median(values).toFixed(1));
    progress(`${peer.label}: ${median(values).toFixed(1)} q/s (median of ${repeats}: ${values.map((rate) => rate.toFixed(1)).join(', ')})`);
  }
  return out;
}

/** Independent truth: float64 cosine over the float32 data, ties by id. */
function referenceTop(query: Float32Array): string[] {
  const scored: { id: number; score: number }[] = [];
  for (let r = 0; r < rows; r += 1) scored.push({ id: r, score: cosineSimilarity(matrix.subarray(r * dimensions, (r + 1) * dimensions), query) });
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return scored.slice(0, topK).map((item) => `d${item.id}`);
}

/**
 * A plain JavaScript exact search (the JS baseline): one pass over the pre-normalised rows (norms precomputed at
 * build time, as factkit and usearch `ip` have them), a dot product with 4 independent accumulators, and a
 * fixed-size sorted top-k buffer with an early threshold test (no allocation per row).
 */
const plainTopRows = new Int32Array(topK);
const plainTopScores = new Float64Array(topK);
function plainLoopSearch(unitQuery: Float32Array): number[] {
  let size = 0;
  let threshold = -Infinity;
  for (let r = 0; r < rows; r += 1) {
    const base = r * dimensions;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let k = 0;
    for (; k + 3 < dimensions; k += 4) {
      s0 += (unitMatrix[base + k] as number) * (unitQuery[k] as number);
      s1 += (unitMatrix[base + k + 1] as number) * (unitQuery[k + 1] as number);
      s2 += (unitMatrix[base + k + 2] as number) * (unitQuery[k + 2] as number);
      s3 += (unitMatrix[base + k + 3] as number) * (unitQuery[k + 3] as number);
    }
    for (; k < dimensions; k += 1) s0 += (unitMatrix[base + k] as number) * (unitQuery[k] as number);
    const score = s0 + s1 + s2 + s3;
    if (size === topK && score <= threshold) continue;
    let position = size < topK ? size++ : topK - 1;
    while (position > 0 && (plainTopScores[position - 1] as number) < score) {
      plainTopScores[position] = plainTopScores[position - 1] as number;
      plainTopRows[position] = plainTopRows[position - 1] as number;
      position -= 1;
    }
    plainTopScores[position] = score;
    plainTopRows[position] = r;
    if (size === topK) threshold = plainTopScores[topK - 1] as number;
  }
  return Array.from(plainTopRows.subarray(0, size));
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverageAtStart: os.loadavg() },
  data: { rows, dimensions, topK, repeats, singleQueries, batchSize, metric: 'cosine (factkit, raw vectors, normalised at insert) = inner product on L2-normalised vectors (usearch ip, plain JS)', generator: MIXTURE_DESCRIPTION },
};

// --- factkit flat index -------------------------------------------------------------------------------------------
progress('building factkit flat indexes');
let start = performance.now();
const flat = createFlatIndex({ dimensions, initialCapacity: rows });
const entries = ids.map((id, r) => ({ id, vector: matrix.subarray(r * dimensions, (r + 1) * dimensions) }));
flat.upsert(entries);
const flatBuildSeconds = (performance.now() - start) / 1000;
const flatThreaded = createFlatIndex({ dimensions, initialCapacity: rows, threads: 2 });
flatThreaded.upsert(entries);

// --- exactness ----------------------------------------------------------------------------------------------------
progress('checking exactness against a float64 brute force (8 queries)');
let exactMatches = 0;
const checked = 8;
for (let q = 0; q < checked; q += 1) {
  const query = queries[q] as Float32Array;
  const expected = referenceTop(query);
  const single = flat.search(query, { topK }).map((hit) => hit.id);
  const threaded = (await flatThreaded.searchAsync(query, { topK })).map((hit) => hit.id);
  if (JSON.stringify(single) === JSON.stringify(expected) && JSON.stringify(threaded) === JSON.stringify(expected)) exactMatches += 1;
}
const batchedAll = flat.searchBatch(queries.slice(0, checked), { topK });
const batchedExact = batchedAll.every((hits, q) => JSON.stringify(hits.map((hit) => hit.id)) === JSON.stringify(referenceTop(queries[q] as Float32Array)));

// --- exact search throughput ----------------------------------------------------------------------------------------
const { exactSearch, MetricKind } = usearch as unknown as {
  exactSearch: (dataset: Float32Array, queries: Float32Array, dimensions: number, count: number, metric: unknown, threads?: number) => { keys: BigUint64Array };
  MetricKind: { IP: unknown };
};
// The peers' answers on the same checked queries: top-10 overlap with the float64 reference (float32 arithmetic may
// swap near-ties, so overlap rather than identity is what they are held to).
let usearchOverlap = 0;
let plainOverlap = 0;
for (let q = 0; q < checked; q += 1) {
  const expected = new Set(referenceTop(queries[q] as Float32Array));
  const fromUsearch = Array.from(exactSearch(unitMatrix, unitQueries[q] as Float32Array, dimensions, topK, MetricKind.IP, 1).keys, (key) => `d${String(key)}`);
  usearchOverlap += fromUsearch.filter((id) => expected.has(id)).length / topK;
  plainOverlap += plainLoopSearch(unitQueries[q] as Float32Array).filter((row) => expected.has(`d${row}`)).length / topK;
}
results['exactness'] = {
  queriesChecked: checked,
  factkitIdenticalTop10: exactMatches,
  factkitBatchedIdentical: batchedExact,
  usearchIpTop10Overlap: Number((usearchOverlap / checked).toFixed(3)),
  plainJsTop10Overlap: Number((plainOverlap / checked).toFixed(3)),
};
progress(`exactness: ${JSON.stringify(results['exactness'])}`);
const singleSet = queries.slice(0, singleQueries);
const unitSingleSet = unitQueries.slice(0, singleQueries);
const loadBefore = os.loadavg();
const exact = await measureInterleaved([
  { name: 'plainJsLoop_single_1thread', label: 'plain JS loop (normalised rows), single query', count: singleQueries, task: () => unitSingleSet.forEach((query) => plainLoopSearch(query)) },
  {
    name: 'usearch_single_1thread',
    label: 'usearch exactSearch, single query, 1 thread',
    count: singleQueries,
    task: () => unitSingleSet.forEach((query) => exactSearch(unitMatrix, query, dimensions, topK, MetricKind.IP, 1)),
  },
  {
    name: 'usearch_single_allThreads',
    label: 'usearch exactSearch, single query, all threads',
    count: singleQueries,
    task: () => unitSingleSet.forEach((query) => exactSearch(unitMatrix, query, dimensions, topK, MetricKind.IP, 0)),
  },
  { name: 'factkit_single_1thread', label: 'factkit flat search(), single query, 1 thread', count: singleQueries, task: () => singleSet.forEach((query) => flat.search(query, { topK })) },
  {
    name: 'factkit_single_2threads',
    label: 'factkit flat searchAsync(), single query, 2 threads',
    count: singleQueries,
    task: async () => {
      for (const query of singleSet) await flatThreaded.searchAsync(query, { topK });
    },
  },
  { name: 'usearch_batch64_1thread', label: 'usearch exactSearch, 64-query batch, 1 thread', count: batchSize, task: () => exactSearch(unitMatrix, unitQueryMatrix, dimensions, topK, MetricKind.IP, 1) },
  { name: 'usearch_batch64_allThreads', label: 'usearch exactSearch, 64-query batch, all threads', count: batchSize, task: () => exactSearch(unitMatrix, unitQueryMatrix, dimensions, topK, MetricKind.IP, 0) },
  { name: 'factkit_batch64_1thread', label: 'factkit flat searchBatch(), 64 queries, 1 thread', count: batchSize, task: () => flat.searchBatch(queries, { topK }) },
  { name: 'factkit_batch64_2threads', label: 'factkit flat searchBatchAsync(), 64 queries, 2 threads', count: batchSize, task: () => flatThreaded.searchBatchAsync(queries, { topK }) },
]);
await flatThreaded.close();
results['loadAverage'] = { beforeTiming: loadBefore.map((value) => Number(value.toFixed(2))), afterTiming: os.loadavg().map((value) => Number(value.toFixed(2))) };
const ratio = (a: string, b: string) => Number(((exact[a] as number) / (exact[b] as number)).toFixed(2));
/** Median over the rounds of q/s(a) / q/s(b) measured in the same round: cancels load that drifts between rounds. */
const paired = (a: string, b: string) => Number(median((perRound.get(a) ?? []).map((rate, round) => rate / ((perRound.get(b) ?? [])[round] as number))).toFixed(2));
results['exactSearchQueriesPerSecond'] = exact;
results['exactSearchQueriesPerSecondPerRound'] = Object.fromEntries([...perRound].map(([name, values]) => [name, values.map((value) => Number(value.toFixed(1)))]));
results['pairedRatios'] = {
  single_1thread_factkit_over_usearch: paired('factkit_single_1thread', 'usearch_single_1thread'),
  batch_1thread_factkit_over_usearch: paired('factkit_batch64_1thread', 'usearch_batch64_1thread'),
  single_1thread_factkit_over_plainJs: paired('factkit_single_1thread', 'plainJsLoop_single_1thread'),
  batch_1thread_factkit_over_plainJsSingle: paired('factkit_batch64_1thread', 'plainJsLoop_single_1thread'),
  single_factkit2threads_over_usearchAllThreads: paired('factkit_single_2threads', 'usearch_single_allThreads'),
  batch_factkit2threads_over_usearchAllThreads: paired('factkit_batch64_2threads', 'usearch_batch64_allThreads'),
};
results['ratios'] = {
  single_1thread_factkit_over_usearch: ratio('factkit_single_1thread', 'usearch_single_1thread'),
  single_factkit2threads_over_usearchAllThreads: ratio('factkit_single_2threads', 'usearch_single_allThreads'),
  single_factkit1thread_over_usearchAllThreads: ratio('factkit_single_1thread', 'usearch_single_allThreads'),
  batch_1thread_factkit_over_usearch: ratio('factkit_batch64_1thread', 'usearch_batch64_1thread'),
  batch_factkit2threads_over_usearchAllThreads: ratio('factkit_batch64_2threads', 'usearch_batch64_allThreads'),
  single_factkit1thread_over_plainJs: ratio('factkit_single_1thread', 'plainJsLoop_single_1thread'),
  batch_factkit1thread_over_plainJsSingle: ratio('factkit_batch64_1thread', 'plainJsLoop_single_1thread'),
};
results['flatBuildSeconds'] = Number(flatBuildSeconds.toFixed(3));

// --- HNSW (usearch) -----------------------------------------------------------------------------------------------
const skipHnsw = process.env['BENCH_SKIP_HNSW'] === '1';
if (!skipHnsw) {
  progress('building HNSW (usearch, M=16, efConstruction=128, all threads)');
  const hnsw = createHnswVectorStore({ dimensions, connectivity: 16, expansionAdd: 128, expansionSearch: 64 });
  start = performance.now();
  const chunk = 10_000;
  for (let r = 0; r < rows; r += chunk) {
    await hnsw.upsert({ records: entries.slice(r, r + chunk).map((entry) => ({ id: entry.id, vector: entry.vector })) });
  }
  const hnswBuildSeconds = (performance.now() - start) / 1000;
  progress(`HNSW built in ${hnswBuildSeconds.toFixed(1)} s`);
  const hnswQps = (
    await measureInterleaved([
      {
        name: 'hnsw',
        label: 'HNSW (usearch) query, ef=64, single query',
        count: batchSize,
        task: async () => {
          for (const query of queries) await hnsw.query({ vector: query, topK });
        },
      },
    ])
  )['hnsw'] as number;
  let found = 0;
  const truth = flat.searchBatch(queries, { topK });
  for (let q = 0; q < queries.length; q += 1) {
    const expected = new Set((truth[q] ?? []).map((hit) => hit.id));
    for (const match of (await hnsw.query({ vector: queries[q] as Float32Array, topK })).matches) if (expected.has(match.id)) found += 1;
  }
  const recallAt10 = found / (queries.length * topK);
  progress(`HNSW recall@10 vs exact: ${recallAt10.toFixed(4)}`);
  results['hnsw'] = {
    library: 'usearch',
    connectivity: 16,
    expansionAdd: 128,
    expansionSearch: 64,
    buildSeconds: Number(hnswBuildSeconds.toFixed(2)),
    queriesPerSecond: Number(hnswQps.toFixed(1)),
    recallAt10VsExact: Number(recallAt10.toFixed(4)),
    queriesForRecall: queries.length,
  };
}

const outDirectory = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(outDirectory, { recursive: true });
await writeFile(`${outDirectory}dense-bench.json`, `${JSON.stringify(results, null, 2)}\n`);
const lines = [
  `# Dense retrieval benchmark (${results['date'] as string})`,
  '',
  `${rows} × ${dimensions} float32, cosine (factkit: raw vectors, normalised at insert; usearch: \`ip\` on the same L2-normalised rows and queries; plain JS: the same normalised rows), top-${topK}; median q/s over ${repeats} interleaved repeats (${singleQueries} single queries / one ${batchSize}-query batch per repeat); ${os.cpus().length} CPUs shared with other engineers' builds, Node ${process.version}, load average before / after timing ${JSON.stringify(results['loadAverage'])}.`,
  '',
  '| exact search | q/s |',
  '| --- | ---: |',
  ...Object.entries(exact).map(([name, value]) => `| ${name} | ${value.toFixed(1)} |`),
  '',
  `Ratios of the medians: ${JSON.stringify(results['ratios'])}`,
  '',
  `Paired ratios (median over rounds of the same-round ratio): ${JSON.stringify(results['pairedRatios'])}`,
  '',
  `Exactness: ${exactMatches}/${checked} queries have the same top-10 as a float64 brute force (factkit single and 2-thread); factkit batched identical: ${batchedExact}; top-10 overlap with it: usearch ip ${String((results['exactness'] as { usearchIpTop10Overlap: number }).usearchIpTop10Overlap)}, plain JS ${String((results['exactness'] as { plainJsTop10Overlap: number }).plainJsTop10Overlap)}.`,
  '',
  skipHnsw ? 'HNSW skipped (BENCH_SKIP_HNSW=1).' : `HNSW (usearch, M=16, efConstruction=128, ef=64): ${JSON.stringify(results['hnsw'])}.`,
  '',
];
await writeFile(`${outDirectory}dense-bench.md`, lines.join('\n'));
process.stdout.write(lines.join('\n'));
