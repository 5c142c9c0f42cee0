/**
 * int8 + exact re-ranking vs float32 flat search at scale: 1,000,000 × 384 synthetic vectors (synthetic.ts, the same
 * generator as run.ts), top-10 cosine. In the same run, interleaved: factkit's float32 flat index (default: single
 * queries scan its bfloat16 copy; and with singleQueryScan 'float32'), the int8 quantized flat index (default
 * shortlist 'exact': proven error bound, exact float64 re-ranking from a float32 copy; and a fixed shortlist of 100), and usearch's exact search (inner product on the same L2-normalised
 * rows, 1 thread). Medians over repeats, per-round paired ratios, top-10 agreement with the exact flat index on held-out
 * queries (for several shortlist sizes), and memory (structure bytes and RSS growth, which counts WebAssembly and
 * shared memory; see memory.ts).
 *
 *   pnpm --filter @factkit/retrieval run bench:dense:int8          (writes bench/dense/results/int8-bench.{json,md})
 *   BENCH_ROWS=100000 BENCH_REPEATS=3 pnpm --filter @factkit/retrieval run bench:dense:int8   (quick look)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadAverage as load, timeInterleaved } from './interleaved.js';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import usearch from 'usearch';
import { createFlatIndex, type FlatSearchHit } from '../../src/dense/flat-index.js';
import { createQuantizedFlatIndex } from '../../src/dense/quantized-flat-index.js';
import { measureMemoryGrowth, megabytes, sampleMemory } from '../shared/memory.js';
import { generateMixtureData, MIXTURE_DESCRIPTION } from './synthetic.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);
const agreementQueries = Number(process.env['BENCH_AGREEMENT_QUERIES'] ?? 200);
const singleQueries = Number(process.env['BENCH_SINGLE_QUERIES'] ?? 16);
const batchSize = 64;
const topK = 10;
const shortlists: (number | 'exact')[] = ['exact', 10, 20, 50, 100];
const progress = (message: string) => process.stderr.write(`[bench:dense:int8] ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, totalMemoryGB: Number((os.totalmem() / 1e9).toFixed(1)), loadAverageAtStart: load() },
  data: { rows, dimensions, topK, repeats, singleQueries, batchSize, agreementQueries, metric: 'cosine', generator: MIXTURE_DESCRIPTION },
};

// --- data ---------------------------------------------------------------------------------------------------------
progress(`generating ${rows} × ${dimensions} vectors (+ ${agreementQueries} queries)`);
// Held-out queries: drawn after the corpus from the same mixture, never inserted.
const { matrix, queries, entries } = generateMixtureData(rows, dimensions, Math.max(agreementQueries, batchSize, singleQueries), (generated) => progress(`generated ${generated}/${rows}`));

// --- indexes (memory measured per build) -----------------------------------------------------------------------------
const upsertInChunks = (index: { upsert(entries: readonly { id: string; vector: Float32Array }[]): void }, label: string) => {
  for (let start = 0; start < rows; start += 100_000) {
    index.upsert(entries.slice(start, start + 100_000));
    progress(`${label}: ${Math.min(start + 100_000, rows)}/${rows}`);
  }
};
const timed = async <T>(build: () => T) => {
  const begin = performance.now();
  const { value, delta } = await measureMemoryGrowth(build);
  return { value, delta, seconds: (performance.now() - begin) / 1000 };
};
const flatBuild = await timed(() => {
  const index = createFlatIndex({ dimensions, initialCapacity: rows });
  upsertInChunks(index, 'flat (float32 + bfloat16 copy)');
  return index;
});
const flat32Build = await timed(() => {
  const index = createFlatIndex({ dimensions, initialCapacity: rows, singleQueryScan: 'float32' });
  upsertInChunks(index, 'flat (float32 only)');
  return index;
});
const int8Build = await timed(() => {
  const index = createQuantizedFlatIndex({ dimensions, initialCapacity: rows });
  upsertInChunks(index, 'int8 (+ float32 copy)');
  return index;
});
const int8DropBuild = await timed(() => {
  const index = createQuantizedFlatIndex({ dimensions, initialCapacity: rows, floatVectors: 'drop' });
  upsertInChunks(index, "int8 (floatVectors 'drop')");
  return index;
});
const flat = flatBuild.value;
const flat32 = flat32Build.value;
const int8 = int8Build.value;
const int8Drop = int8DropBuild.value;
const stride4 = Math.ceil(dimensions / 4) * 4;
const stride8 = Math.ceil(dimensions / 8) * 8;
// Structure bytes (what each index holds for `rows` vectors): flat = float32 rows + float64 norms (+ bfloat16 copy).
const memory = {
  flat_float32_plus_bfloat16: {
    structureMB: megabytes(rows * (stride4 * 4 + stride8 * 2 + 8)),
    scannedPerSingleQueryMB: megabytes(rows * stride8 * 2),
    scannedPerBatchMB: megabytes(rows * stride4 * 4),
    rssGrowthMB: megabytes(flatBuild.delta.rssBytes),
    arrayBuffersGrowthMB: megabytes(flatBuild.delta.arrayBuffersBytes),
  },
  flat_float32: {
    structureMB: megabytes(rows * (stride4 * 4 + 8)),
    scannedPerSingleQueryMB: megabytes(rows * stride4 * 4),
    scannedPerBatchMB: megabytes(rows * stride4 * 4),
    rssGrowthMB: megabytes(flat32Build.delta.rssBytes),
    arrayBuffersGrowthMB: megabytes(flat32Build.delta.arrayBuffersBytes),
  },
  int8_keep: {
    ...Object.fromEntries(Object.entries(int8.memoryUsage()).map(([key, value]) => [key.replace('Bytes', 'MB'), megabytes(value)])),
    rssGrowthMB: megabytes(int8Build.delta.rssBytes),
    arrayBuffersGrowthMB: megabytes(int8Build.delta.arrayBuffersBytes),
  },
  int8_drop: {
    ...Object.fromEntries(Object.entries(int8Drop.memoryUsage()).map(([key, value]) => [key.replace('Bytes', 'MB'), megabytes(value)])),
    rssGrowthMB: megabytes(int8DropBuild.delta.rssBytes),
    arrayBuffersGrowthMB: megabytes(int8DropBuild.delta.arrayBuffersBytes),
  },
  processRssAfterBuildsMB: megabytes(sampleMemory().rss),
};
results['memory'] = memory;
results['buildSeconds'] = { flat: Number(flatBuild.seconds.toFixed(1)), flatFloat32: Number(flat32Build.seconds.toFixed(1)), int8: Number(int8Build.seconds.toFixed(1)), int8Drop: Number(int8DropBuild.seconds.toFixed(1)) };
progress(`memory: ${JSON.stringify(memory)}`);

// usearch reads L2-normalised rows (what factkit's cosine search ranks by): normalise the source matrix in place (the
// indexes hold their own copies) so no further 1.5 GB copy is needed.
for (let r = 0; r < rows; r += 1) {
  let sum = 0;
  for (let k = 0; k < dimensions; k += 1) sum += (matrix[r * dimensions + k] as number) ** 2;
  const inverse = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let k = 0; k < dimensions; k += 1) matrix[r * dimensions + k] = (matrix[r * dimensions + k] as number) * inverse;
}
const unitQueries = queries.map((query) => {
  let sum = 0;
  for (const value of query) sum += value * value;
  return Float32Array.from(query, (value) => value / Math.sqrt(sum));
});
const unitBatch = new Float32Array(batchSize * dimensions);
unitQueries.slice(0, batchSize).forEach((query, i) => unitBatch.set(query, i * dimensions));
const { exactSearch, MetricKind } = usearch as unknown as {
  exactSearch: (dataset: Float32Array, queries: Float32Array, dimensions: number, count: number, metric: unknown, threads?: number) => { keys: BigUint64Array };
  MetricKind: { IP: unknown };
};

// --- agreement with the exact flat index -------------------------------------------------------------------------
progress(`exact top-${topK} of ${agreementQueries} held-out queries (flat index, proven exact)`);
const heldOut = queries.slice(0, agreementQueries);
const truth = flat.searchBatch(heldOut, { topK });
const compare = (hits: readonly FlatSearchHit[][]) => {
  let identical = 0;
  let sameSet = 0;
  let found = 0;
  hits.forEach((list, q) => {
    const expected = (truth[q] ?? []).map((hit) => hit.id);
    const actual = list.map((hit) => hit.id);
    if (JSON.stringify(actual) === JSON.stringify(expected)) identical += 1;
    const expectedSet = new Set(expected);
    const overlap = actual.filter((id) => expectedSet.has(id)).length;
    if (overlap === expected.length && actual.length === expected.length) sameSet += 1;
    found += overlap;
  });
  return { identicalTop10: identical, identicalTop10Share: Number((identical / hits.length).toFixed(4)), sameTop10Set: sameSet, recallAt10: Number((found / (hits.length * topK)).toFixed(4)) };
};
const agreement: Record<string, unknown> = {};
for (const shortlist of shortlists) {
  agreement[`int8_shortlist_${shortlist}`] = { ...compare(int8.searchBatch(heldOut, { topK, shortlist })), rerankedPerQuery: Number((int8.lastReranked / heldOut.length).toFixed(1)) };
  progress(`int8 shortlist ${shortlist}: ${JSON.stringify(agreement[`int8_shortlist_${shortlist}`])}`);
}
let singleReranked = 0;
agreement['int8_single_search_exact'] = {
  ...compare(
    heldOut.slice(0, singleQueries).map((query) => {
      const hits = int8.search(query, { topK });
      singleReranked += int8.lastReranked;
      return hits;
    }),
  ),
  queries: singleQueries,
  rerankedPerQuery: Number((singleReranked / singleQueries).toFixed(1)),
};
agreement['int8_drop_shortlist100'] = { ...compare(int8Drop.searchBatch(heldOut, { topK })), rerankedPerQuery: Number((int8Drop.lastReranked / heldOut.length).toFixed(1)) };
progress(`int8 'drop' shortlist 100: ${JSON.stringify(agreement['int8_drop_shortlist100'])}`);
const usearchHits = heldOut.slice(0, 32).map((_, q) => Array.from(exactSearch(matrix, unitQueries[q] as Float32Array, dimensions, topK, MetricKind.IP, 1).keys, (key) => ({ id: `d${String(key)}`, score: 0 })));
agreement['usearch_exact_ip_32queries'] = compare(usearchHits);
results['agreementWithExact'] = agreement;

// --- throughput ---------------------------------------------------------------------------------------------------
interface Peer {
  readonly name: string;
  readonly count: number;
  readonly task: () => unknown;
}
const singleSet = queries.slice(0, singleQueries);
const unitSingleSet = unitQueries.slice(0, singleQueries);
const batchSet = queries.slice(0, batchSize);
const peers: Peer[] = [
  { name: 'flat_default_single', count: singleQueries, task: () => singleSet.forEach((query) => flat.search(query, { topK })) },
  { name: 'flat_float32scan_single', count: singleQueries, task: () => singleSet.forEach((query) => flat32.search(query, { topK })) },
  { name: 'int8_exact_single', count: singleQueries, task: () => singleSet.forEach((query) => int8.search(query, { topK })) },
  { name: 'int8_shortlist100_single', count: singleQueries, task: () => singleSet.forEach((query) => int8.search(query, { topK, shortlist: 100 })) },
  { name: 'usearch_exact_single_1thread', count: singleQueries, task: () => unitSingleSet.forEach((query) => exactSearch(matrix, query, dimensions, topK, MetricKind.IP, 1)) },
  { name: 'flat_batch64', count: batchSize, task: () => flat.searchBatch(batchSet, { topK }) },
  { name: 'int8_exact_batch64', count: batchSize, task: () => int8.searchBatch(batchSet, { topK }) },
  { name: 'usearch_exact_batch64_1thread', count: batchSize, task: () => exactSearch(matrix, unitBatch, dimensions, topK, MetricKind.IP, 1) },
];
const timing = await timeInterleaved(peers, repeats, progress);
const { loadBefore, loadAfter, qps, paired } = timing;
results['queriesPerSecond'] = qps;
results['queriesPerSecondPerRound'] = timing.perRound();
results['pairedRatios'] = {
  int8exact_over_flatDefault_single: paired('int8_exact_single', 'flat_default_single'),
  int8exact_over_flatFloat32Scan_single: paired('int8_exact_single', 'flat_float32scan_single'),
  int8exact_over_usearchExact_single: paired('int8_exact_single', 'usearch_exact_single_1thread'),
  int8shortlist100_over_flatDefault_single: paired('int8_shortlist100_single', 'flat_default_single'),
  int8exact_over_flat_batch64: paired('int8_exact_batch64', 'flat_batch64'),
  int8exact_over_usearchExact_batch64: paired('int8_exact_batch64', 'usearch_exact_batch64_1thread'),
};
results['loadAverage'] = { beforeTiming: loadBefore, afterTiming: loadAfter };
progress(`q/s: ${JSON.stringify(qps)}`);
progress(`paired ratios: ${JSON.stringify(results['pairedRatios'])}`);

// --- report ---------------------------------------------------------------------------------------------------------
const outDirectory = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(outDirectory, { recursive: true });
const suffix = rows === 1_000_000 ? '' : `-${rows}`;
await writeFile(`${outDirectory}int8-bench${suffix}.json`, `${JSON.stringify(results, null, 2)}\n`);
const a = agreement as Record<string, { identicalTop10: number; identicalTop10Share: number; recallAt10: number }>;
const lines = [
  `# int8 + exact re-ranking vs float32 flat search (${results['date'] as string})`,
  '',
  `${rows.toLocaleString('en-US')} × ${dimensions} synthetic vectors (${MIXTURE_DESCRIPTION}), cosine, top-${topK}; median q/s over ${repeats} interleaved rounds (${singleQueries} single queries / one ${batchSize}-query batch per round), one thread each; ${os.cpus().length} CPUs shared with other engineers' work, Node ${process.version}, load average before / after timing ${JSON.stringify(loadBefore)} / ${JSON.stringify(loadAfter)}.`,
  '',
  '| peer | q/s (median) |',
  '| --- | ---: |',
  ...Object.entries(qps).map(([name, value]) => `| ${name} | ${value} |`),
  '',
  `Paired ratios (median over rounds of the same-round ratio): ${JSON.stringify(results['pairedRatios'])}`,
  '',
  `Top-${topK} agreement with the exact flat index on ${agreementQueries} held-out queries (identical ids in identical order / recall@10):`,
  '',
  '| variant | identical top-10 | share | recall@10 | rows re-ranked per query |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...Object.entries(a).map(([name, value]) => `| ${name} | ${value.identicalTop10} | ${value.identicalTop10Share} | ${value.recallAt10} | ${(value as { rerankedPerQuery?: number }).rerankedPerQuery ?? ''} |`),
  '',
  'Memory (MB; structure = bytes the index holds for these rows; RSS growth counts WebAssembly and shared memory, arrayBuffers growth is what `process.memoryUsage().arrayBuffers` sees):',
  '',
  '```json',
  JSON.stringify(memory, null, 2),
  '```',
  '',
  `Build seconds: ${JSON.stringify(results['buildSeconds'])}`,
  '',
];
await writeFile(`${outDirectory}int8-bench${suffix}.md`, lines.join('\n'));
process.stdout.write(lines.join('\n'));
await flat.close();
await flat32.close();
