// k-means benchmark, fair to the reference: our `computeKMeans` vs the `ml-kmeans` package on the same data, from the
// same k-means++ starting centres, with the same iteration cap and tolerance, interleaved, medians over repeats.
//
//   pnpm --filter @factkit/fasttrack bench     (BENCH_ROWS=20000 BENCH_DIMENSIONS=384 BENCH_REPEATS=5)
//
// Fairness (issue 23 §2): ml-kmeans gets its best input form, plain `number[][]` rows built once outside the timed
// region (a recursion split passes references to those rows, no copy); the starting centres are ours
// (`initializeKMeansPlusPlus`, scikit-learn's greedy k-means++) for both, so both run the same Lloyd iterations and
// must reach the same clustering; maxIterations 100 and tolerance 1e-6 (ml-kmeans' defaults) for both.
//   - single: one k = 10 k-means on all rows; starts computed outside the timed region; only the Lloyd run is timed.
//   - recursion: the paper's recursion (k = 10 until every leaf ≤ 100). Ours is `buildClusterTree` (its row copies,
//     seeding and node bookkeeping are timed); the reference is the same recursion (same node ids, same per-split seeds
//     via `splitSeed`, same k-means++ code) with every split's Lloyd run done by ml-kmeans. Seeding is identical code
//     in both, so it is part of both times.
// Both systems are warmed up (untimed) on the first 2,000 rows first. Each run's wall time and process CPU time are
// recorded (both systems are single-threaded; on the shared machine CPU time varies far less than wall time).
// Data: a seeded two-level Gaussian mixture (40 topics × 25 subtopics), unit-normalized like sentence embeddings.
// Reports medians, every run, ratios, inertia of each result (single: sum of squared distances to the centroids;
// recursion: of the leaves to their means), and `uptime` load before and after (the machine is shared).
// Results: bench/results/clustering.{json,md}.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSeededRandom } from '@factkit/core';
import { kmeans as mlKMeans } from 'ml-kmeans';
import { buildClusterTree, splitSeed } from '../src/clustering/cluster-tree.js';
import { computeInertia, computeKMeans } from '../src/clustering/compute-kmeans.js';
import { initializeKMeansPlusPlus } from '../src/clustering/kmeans-plus-plus.js';
import { packVectors, selectRows, type VectorMatrix } from '../src/clustering/vector-matrix.js';

const here = dirname(fileURLToPath(import.meta.url));
const rows = Number(process.env['BENCH_ROWS'] ?? 20_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);
const only = process.env['BENCH_ONLY']; // 'single' | 'recursion' | undefined (both)
const SEED = 42;
const K = 10;
const LEAF = 100;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-6;

function makeData(): VectorMatrix {
  const random = createSeededRandom(SEED);
  const gaussian = (): number => {
    let u = 0;
    while (u === 0) u = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const topics = Array.from({ length: 40 }, () => Float64Array.from({ length: dimensions }, gaussian));
  const subtopics = topics.map((topic) => Array.from({ length: 25 }, () => Float64Array.from(topic, (value) => value + gaussian() * 0.6)));
  const vectors: Float32Array[] = [];
  for (let row = 0; row < rows; row++) {
    const sub = (subtopics[Math.floor(random() * 40)] as Float64Array[])[Math.floor(random() * 25)] as Float64Array;
    const vector = Float32Array.from(sub, (value) => value + gaussian() * 0.8);
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm);
    for (let column = 0; column < dimensions; column++) vector[column] = (vector[column] as number) / norm;
    vectors.push(vector);
  }
  return packVectors(vectors);
}

function toArrays(data: Float64Array | Float32Array, count: number, d: number): number[][] {
  return Array.from({ length: count }, (_, row) => Array.from(data.subarray(row * d, (row + 1) * d)));
}

/** CPU seconds the reference recursion spent in the shared k-means++ seeding (ours, the same code both systems run). */
let seedingCpuSeconds = 0;

/** buildClusterTree's recursion (same node ids, seeds and fallbacks) with each split's Lloyd run done by ml-kmeans. */
function mlKMeansRecursion(matrix: VectorMatrix, arrays: readonly number[][]): number[][] {
  const leaves: number[][] = [];
  const pending: number[][] = [Array.from({ length: matrix.rows }, (_, row) => row)];
  const ids = [0];
  let nextId = 1;
  while (pending.length > 0) {
    const members = pending.pop() as number[];
    const id = ids.pop() as number;
    if (members.length <= LEAF) {
      leaves.push(members);
      continue;
    }
    const seedingStarted = process.cpuUsage();
    const seeded = initializeKMeansPlusPlus(selectRows(matrix, members), { k: Math.min(K, members.length), seed: splitSeed(SEED, id) });
    const seedingUsed = process.cpuUsage(seedingStarted);
    seedingCpuSeconds += (seedingUsed.user + seedingUsed.system) / 1e6;
    const result = mlKMeans(
      members.map((row) => arrays[row] as number[]),
      seeded.count,
      { initialization: toArrays(seeded.centroids, seeded.count, dimensions), maxIterations: MAX_ITERATIONS, tolerance: TOLERANCE },
    );
    const groups: number[][] = Array.from({ length: seeded.count }, () => []);
    members.forEach((row, position) => (groups[result.clusters[position] as number] as number[]).push(row));
    let children = groups.filter((group) => group.length > 0);
    if (children.length < 2) {
      children = [];
      for (let start = 0; start < members.length; start += LEAF) children.push(members.slice(start, start + LEAF));
    }
    const childIds = children.map(() => nextId++);
    for (let index = children.length - 1; index >= 0; index--) {
      pending.push(children[index] as number[]);
      ids.push(childIds[index] as number);
    }
  }
  return leaves;
}

function leafInertia(matrix: VectorMatrix, leaves: readonly (readonly number[])[]): number {
  let total = 0;
  const mean = new Float64Array(dimensions);
  for (const leaf of leaves) {
    mean.fill(0);
    for (const row of leaf) for (let column = 0; column < dimensions; column++) mean[column] = (mean[column] as number) + (matrix.data[row * dimensions + column] as number);
    for (let column = 0; column < dimensions; column++) mean[column] = (mean[column] as number) / leaf.length;
    for (const row of leaf) {
      for (let column = 0; column < dimensions; column++) {
        const difference = (matrix.data[row * dimensions + column] as number) - (mean[column] as number);
        total += difference * difference;
      }
    }
  }
  return total;
}

function startClock(): [number, NodeJS.CpuUsage] {
  return [performance.now(), process.cpuUsage()];
}

/** Wall and CPU seconds since `startClock`. */
function stopClock([wall, cpu]: [number, NodeJS.CpuUsage]): [number, number] {
  const used = process.cpuUsage(cpu);
  return [(performance.now() - wall) / 1000, (used.user + used.system) / 1e6];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

interface Runs {
  seconds: number[];
  /** Process CPU time (user + system) of each run: both systems run on one thread, and on a loaded machine CPU time
   *  varies far less than wall time. */
  cpuSeconds: number[];
  inertia: number;
  iterations?: number;
  leaves?: number;
}

function main(): void {
  const load = (): string => execSync('uptime').toString().trim();
  const loadBefore = load();
  const matrix = makeData();
  // Outside every timed region: ml-kmeans' input form and the shared k-means++ starts of the single run.
  const arrays = toArrays(matrix.data, rows, dimensions);
  const starts = initializeKMeansPlusPlus(matrix, { k: K, seed: SEED });
  const startArrays = toArrays(starts.centroids, starts.count, dimensions);
  const runs: Record<string, Runs> = {};
  const seedingRuns: number[] = [];
  const record = (name: string, [seconds, cpuSeconds]: [number, number], inertia: number, extra: { iterations?: number; leaves?: number }): void => {
    const entry = (runs[name] ??= { seconds: [], cpuSeconds: [], inertia, ...extra });
    entry.seconds.push(seconds);
    entry.cpuSeconds.push(cpuSeconds);
    if (Math.abs(entry.inertia - inertia) > 1e-9 * entry.inertia) throw new Error(`${name}: inertia changed between repeats`);
    process.stdout.write(`${name}: ${seconds.toFixed(2)} s (CPU ${cpuSeconds.toFixed(2)} s), inertia ${inertia.toFixed(3)}\n`);
  };
  const systems = {
    'single/ours': () => {
      const started = startClock();
      const result = computeKMeans(matrix, { k: starts.count, initialCentroids: starts.centroids, maxIterations: MAX_ITERATIONS, tolerance: TOLERANCE });
      const seconds = stopClock(started);
      record('single/ours', seconds, result.inertia, { iterations: result.iterations });
    },
    'single/ml-kmeans': () => {
      const initialization = startArrays.map((row) => [...row]);
      const started = startClock();
      const result = mlKMeans(arrays, starts.count, { initialization, maxIterations: MAX_ITERATIONS, tolerance: TOLERANCE });
      const seconds = stopClock(started);
      const centroids = new Float64Array(starts.count * dimensions);
      result.centroids.forEach((centroid, cluster) => centroids.set(centroid, cluster * dimensions));
      record('single/ml-kmeans', seconds, computeInertia(matrix, result.clusters, centroids), { iterations: result.iterations });
    },
    'recursion/ours': () => {
      const started = startClock();
      const tree = buildClusterTree(matrix, { k: K, maxLeafSize: LEAF, seed: SEED, maxIterations: MAX_ITERATIONS, tolerance: TOLERANCE });
      const seconds = stopClock(started);
      const leaves = tree.leaves.map((leaf) => tree.nodes[leaf]?.members ?? []);
      record('recursion/ours', seconds, leafInertia(matrix, leaves), { leaves: leaves.length });
    },
    'recursion/ml-kmeans': () => {
      seedingCpuSeconds = 0;
      const started = startClock();
      const leaves = mlKMeansRecursion(matrix, arrays);
      const seconds = stopClock(started);
      record('recursion/ml-kmeans', seconds, leafInertia(matrix, leaves), { leaves: leaves.length });
      seedingRuns.push(seedingCpuSeconds);
    },
  };
  const scenarios = (['single', 'recursion'] as const).filter((scenario) => !only || only === scenario);
  // Warm-up, untimed: both systems once on the first 2,000 rows, so neither pays V8's tiering (JavaScript and
  // WebAssembly) inside a timed run.
  const warm = { rows: Math.min(rows, 2000), dimensions, data: matrix.data.subarray(0, Math.min(rows, 2000) * dimensions) };
  const warmStarts = initializeKMeansPlusPlus(warm, { k: K, seed: SEED });
  computeKMeans(warm, { k: warmStarts.count, initialCentroids: warmStarts.centroids });
  mlKMeans(arrays.slice(0, warm.rows), warmStarts.count, { initialization: toArrays(warmStarts.centroids, warmStarts.count, dimensions) });
  buildClusterTree(warm, { k: K, maxLeafSize: LEAF, seed: SEED });
  mlKMeansRecursion(warm, arrays);
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const scenario of scenarios) {
      // Interleaved, and the order alternates so neither system always runs first on a busy machine.
      const order = repeat % 2 === 0 ? (['ours', 'ml-kmeans'] as const) : (['ml-kmeans', 'ours'] as const);
      for (const system of order) systems[`${scenario}/${system}`]();
    }
  }
  const loadAfter = load();
  const table = scenarios.map((scenario) => {
    const ours = runs[`${scenario}/ours`] as Runs;
    const reference = runs[`${scenario}/ml-kmeans`] as Runs;
    return {
      scenario,
      oursMedianSeconds: median(ours.seconds),
      mlKMeansMedianSeconds: median(reference.seconds),
      speedup: median(reference.seconds) / median(ours.seconds),
      oursInertia: ours.inertia,
      mlKMeansInertia: reference.inertia,
      inertiaRatio: ours.inertia / reference.inertia,
      oursMedianCpuSeconds: median(ours.cpuSeconds),
      mlKMeansMedianCpuSeconds: median(reference.cpuSeconds),
      cpuSpeedup: median(reference.cpuSeconds) / median(ours.cpuSeconds),
      oursRunsSeconds: ours.seconds,
      mlKMeansRunsSeconds: reference.seconds,
      oursRunsCpuSeconds: ours.cpuSeconds,
      mlKMeansRunsCpuSeconds: reference.cpuSeconds,
      ...(scenario === 'single' ? { oursIterations: ours.iterations, mlKMeansIterations: reference.iterations } : { oursLeaves: ours.leaves, mlKMeansLeaves: reference.leaves, mlKMeansSeedingMedianCpuSeconds: median(seedingRuns) }),
    };
  });
  const summary = {
    rows,
    dimensions,
    k: K,
    maxLeafSize: LEAF,
    maxIterations: MAX_ITERATIONS,
    tolerance: TOLERANCE,
    repeats,
    data: 'synthetic: seeded 40 × 25 Gaussian mixture, unit-normalized',
    loadBefore,
    loadAfter,
    node: process.version,
    results: table,
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  const name = process.env['BENCH_OUTPUT'] ?? 'clustering';
  writeFileSync(join(here, 'results', `${name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    `# k-means: ours vs ml-kmeans, ${rows.toLocaleString('en')} × ${dimensions}, k = ${K} (recursion: until every leaf ≤ ${LEAF})`,
    '',
    `Same k-means++ starts, maxIterations ${MAX_ITERATIONS}, tolerance ${TOLERANCE}; ml-kmeans reads number[][] built outside the timed region; interleaved, median of ${repeats} repeats. Data: ${summary.data}. Shared 2-core machine, load before: \`${loadBefore}\`; after: \`${loadAfter}\`. Node ${process.version}.`,
    '',
    '| scenario | ours median s | ml-kmeans median s | speed-up (wall) | ours CPU s | ml-kmeans CPU s | speed-up (CPU) | inertia ours | inertia ml-kmeans | inertia ratio | runs ours s | runs ml-kmeans s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...table.map(
      (entry) =>
        `| ${entry.scenario} | ${entry.oursMedianSeconds.toFixed(2)} | ${entry.mlKMeansMedianSeconds.toFixed(2)} | **${entry.speedup.toFixed(2)}×** | ${entry.oursMedianCpuSeconds.toFixed(2)} | ${entry.mlKMeansMedianCpuSeconds.toFixed(2)} | **${entry.cpuSpeedup.toFixed(2)}×** | ${entry.oursInertia.toFixed(2)} | ${entry.mlKMeansInertia.toFixed(2)} | ${entry.inertiaRatio.toFixed(4)} | ${entry.oursRunsSeconds.map((s) => s.toFixed(2)).join(', ')} | ${entry.mlKMeansRunsSeconds.map((s) => s.toFixed(2)).join(', ')} |`,
    ),
    '',
    ...table.map((entry) =>
      'oursIterations' in entry
        ? `single: ${entry.oursIterations} iterations (ours), ${entry.mlKMeansIterations} (ml-kmeans).`
        : `recursion: ${entry.oursLeaves} leaves (ours), ${entry.mlKMeansLeaves} (ml-kmeans); of the reference's CPU time, ${(entry.mlKMeansSeedingMedianCpuSeconds as number).toFixed(2)} s (median) is the shared k-means++ seeding (our code, run by both).`,
    ),
    '',
  ];
  writeFileSync(join(here, 'results', `${name}.md`), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

main();
