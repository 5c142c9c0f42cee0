// Recursive clustering benchmark: the paper's recursion (k = 10 until every leaf ≤ c = 100) on our typed-array
// Lloyd kernel vs the same recursion on ml-kmeans alone (its own seeded k-means++ and Lloyd), same data, same run.
//
//   pnpm --filter @factkit/fasttrack bench              (BENCH_ROWS=100000 BENCH_DIMENSIONS=384 BENCH_REPEATS=1)
//
// Data: a seeded two-level Gaussian mixture (40 topics × 25 subtopics) in 384 dimensions, unit-normalized like
// sentence embeddings. Reports wall time per engine (median over repeats), the ratio, total inertia of the leaves
// (sum of squared distances to their leaf centroid) and the k = 10 root split's inertia, peak RSS and heap growth,
// and `uptime` load (the machine is shared). Results: bench/results/clustering.{json,md}.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSeededRandom } from '@factkit/core';
import { kmeans as mlKMeans } from 'ml-kmeans';
import { buildClusterTree, computeKMeans, packVectors, type ClusterTree, type VectorMatrix } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const rows = Number(process.env['BENCH_ROWS'] ?? 100_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 1);
const SEED = 42;

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

/** The same recursion as buildClusterTree, every split done by ml-kmeans alone (its own seeded k-means++). */
function mlKMeansRecursion(matrix: VectorMatrix, k: number, c: number): { leaves: number[][]; splits: number } {
  const leaves: number[][] = [];
  let splits = 0;
  const stack: number[][] = [Array.from({ length: matrix.rows }, (_, row) => row)];
  let nodeId = 0;
  while (stack.length > 0) {
    const members = stack.pop() as number[];
    nodeId++;
    if (members.length <= c) {
      leaves.push(members);
      continue;
    }
    const data = members.map((row) => Array.from(matrix.data.subarray(row * dimensions, (row + 1) * dimensions)));
    const result = mlKMeans(data, Math.min(k, members.length), { seed: SEED + nodeId, initialization: 'kmeans++' });
    splits++;
    const groups: number[][] = Array.from({ length: k }, () => []);
    members.forEach((row, position) => (groups[result.clusters[position] as number] as number[]).push(row));
    const nonEmpty = groups.filter((group) => group.length > 0);
    if (nonEmpty.length < 2) {
      for (let start = 0; start < members.length; start += c) leaves.push(members.slice(start, start + c));
      continue;
    }
    for (const group of nonEmpty) stack.push(group);
  }
  return { leaves, splits };
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function main(): void {
  const load = (): string => execSync('uptime').toString().trim();
  const loadBefore = load();
  const matrix = makeData();
  const results: Record<string, { ms: number[]; inertia: number; leaves: number; rootInertia?: number; peakRssMb: number; heapDeltaMb: number }> = {};
  const record = (name: string, ms: number, inertia: number, leaves: number, heapDelta: number): void => {
    const entry = (results[name] ??= { ms: [], inertia, leaves, peakRssMb: 0, heapDeltaMb: 0 });
    entry.ms.push(ms);
    entry.peakRssMb = Math.max(entry.peakRssMb, process.resourceUsage().maxRSS / 1024);
    entry.heapDeltaMb = Math.max(entry.heapDeltaMb, heapDelta / 2 ** 20);
  };
  for (let repeat = 0; repeat < repeats; repeat++) {
    // Rotate the order so neither engine always runs first on a busy machine.
    const order = repeat % 2 === 0 ? ['lloyd', 'ml-kmeans'] : ['ml-kmeans', 'lloyd'];
    for (const engine of order) {
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      if (engine === 'lloyd') {
        let peakHeap = heapBefore;
        const tree: ClusterTree = buildClusterTree(matrix, { k: 10, maxLeafSize: 100, seed: SEED, onProgress: () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)) });
        const ms = performance.now() - started;
        const leaves = tree.leaves.map((leaf) => tree.nodes[leaf]?.members ?? []);
        record('recursion on our Lloyd kernel', ms, leafInertia(matrix, leaves), leaves.length, peakHeap - heapBefore);
        process.stdout.write(`lloyd recursion: ${(ms / 1000).toFixed(1)} s, ${leaves.length} leaves\n`);
      } else {
        const { leaves } = mlKMeansRecursion(matrix, 10, 100);
        const ms = performance.now() - started;
        record('recursion on ml-kmeans alone', ms, leafInertia(matrix, leaves), leaves.length, process.memoryUsage().heapUsed - heapBefore);
        process.stdout.write(`ml-kmeans recursion: ${(ms / 1000).toFixed(1)} s, ${leaves.length} leaves\n`);
      }
    }
  }
  // One root split (k = 10 on all rows) per engine, each with its own k-means++, for the inertia comparison.
  const rootStarted = performance.now();
  const rootOurs = computeKMeans(matrix, { k: 10, seed: SEED });
  const rootOursMs = performance.now() - rootStarted;
  const rootMlStarted = performance.now();
  const data = Array.from({ length: rows }, (_, row) => Array.from(matrix.data.subarray(row * dimensions, (row + 1) * dimensions)));
  const rootMl = mlKMeans(data, 10, { seed: SEED, initialization: 'kmeans++' });
  const rootMlMs = performance.now() - rootMlStarted;
  const rootMlCentroids = new Float64Array(10 * dimensions);
  rootMl.centroids.forEach((centroid, cluster) => rootMlCentroids.set(centroid, cluster * dimensions));
  let rootMlInertia = 0;
  for (let row = 0; row < rows; row++) {
    const base = (rootMl.clusters[row] as number) * dimensions;
    for (let column = 0; column < dimensions; column++) {
      const difference = (matrix.data[row * dimensions + column] as number) - (rootMlCentroids[base + column] as number);
      rootMlInertia += difference * difference;
    }
  }
  const ours = results['recursion on our Lloyd kernel'];
  const reference = results['recursion on ml-kmeans alone'];
  const speedup = reference && ours ? median(reference.ms) / median(ours.ms) : Number.NaN;
  const inertiaRatio = reference && ours ? ours.inertia / reference.inertia : Number.NaN;
  const summary = {
    rows,
    dimensions,
    repeats,
    k: 10,
    maxLeafSize: 100,
    loadBefore,
    loadAfter: load(),
    node: process.version,
    engines: Object.fromEntries(
      Object.entries(results).map(([name, entry]) => [
        name,
        { medianSeconds: median(entry.ms) / 1000, runsSeconds: entry.ms.map((ms) => ms / 1000), leafInertia: entry.inertia, leaves: entry.leaves, peakRssMb: entry.peakRssMb, heapGrowthMb: entry.heapDeltaMb },
      ]),
    ),
    speedup,
    leafInertiaRatio: inertiaRatio,
    rootSplit: {
      oursSeconds: rootOursMs / 1000,
      oursInertia: rootOurs.inertia,
      oursIterations: rootOurs.iterations,
      mlKMeansSeconds: rootMlMs / 1000,
      mlKMeansInertia: rootMlInertia,
      mlKMeansIterations: rootMl.iterations,
      inertiaRatio: rootOurs.inertia / rootMlInertia,
    },
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'clustering.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const lines = [
    `# Recursive clustering: ${rows.toLocaleString('en')} × ${dimensions}, k = 10, c = 100`,
    '',
    `Shared 2-core machine. Load before: \`${loadBefore}\`; after: \`${summary.loadAfter}\`. Node ${process.version}. Repeats: ${repeats} (median).`,
    '',
    '| engine | median s | leaves | leaf inertia | peak RSS MB (process) | heap growth MB |',
    '|---|---:|---:|---:|---:|---:|',
    ...Object.entries(summary.engines).map(([name, entry]) => `| ${name} | ${entry.medianSeconds.toFixed(1)} | ${entry.leaves} | ${entry.leafInertia.toFixed(1)} | ${entry.peakRssMb.toFixed(0)} | ${entry.heapGrowthMb.toFixed(0)} |`),
    '',
    `Speed-up (same run): **${speedup.toFixed(2)}×**; leaf inertia ours / ml-kmeans: ${inertiaRatio.toFixed(4)}.`,
    '',
    `Root split alone (k = 10 on all rows, each engine's own seeded k-means++): ours ${summary.rootSplit.oursSeconds.toFixed(1)} s (${rootOurs.iterations} iterations, inertia ${rootOurs.inertia.toFixed(1)}), ml-kmeans ${summary.rootSplit.mlKMeansSeconds.toFixed(1)} s (${rootMl.iterations} iterations, inertia ${rootMlInertia.toFixed(1)}); inertia ratio ${summary.rootSplit.inertiaRatio.toFixed(4)}.`,
    '',
  ];
  writeFileSync(join(here, 'results', 'clustering.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

main();
