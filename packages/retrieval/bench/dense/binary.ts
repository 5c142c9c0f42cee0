/**
 * Binary (sign-code) first stage + int8 + exact re-ranking vs the float32 flat index, 1,000,000 × 384 synthetic vectors
 * (synthetic.ts, the same generator as run.ts and int8.ts), top-10 cosine. Same run, interleaved rounds: the flat index
 * as shipped (bfloat16 single-query scan), the flat index with `singleQueryScan: 'float32'`, and
 * `createQuantizedFlatIndex({ prefilter: 'binary' })` with `floatVectors: 'keep'` (exact float64 re-ranking) and
 * `'drop'` (re-ranked against the dequantized int8 rows). Medians, per-round paired ratios, top-10 agreement with the
 * exact flat index on held-out queries for several `prefilterShortlist` sizes, memory per index.
 *
 *   pnpm --filter @factkit/retrieval run bench:dense:binary        (writes bench/dense/results/binary-bench.{json,md})
 *   BENCH_ROWS=100000 BENCH_REPEATS=3 pnpm --filter @factkit/retrieval run bench:dense:binary   (quick look)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadAverage as load, timeInterleaved } from './interleaved.js';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createFlatIndex, type FlatSearchHit } from '../../src/dense/flat-index.js';
import { createQuantizedFlatIndex } from '../../src/dense/quantized-flat-index.js';
import { megabytes } from '../shared/memory.js';
import { generateMixtureData, MIXTURE_DESCRIPTION } from './synthetic.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);
const agreementQueries = Number(process.env['BENCH_AGREEMENT_QUERIES'] ?? 200);
const singleQueries = Number(process.env['BENCH_SINGLE_QUERIES'] ?? 16);
const topK = 10;
const prefilterShortlists = [1024, 2048, 4096, 8192];
const progress = (message: string) => process.stderr.write(`[bench:dense:binary] ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverageAtStart: load() },
  data: { rows, dimensions, topK, repeats, singleQueries, agreementQueries, metric: 'cosine', generator: MIXTURE_DESCRIPTION },
};

progress(`generating ${rows} × ${dimensions} vectors (+ ${agreementQueries} held-out queries)`);
const { queries, entries } = generateMixtureData(rows, dimensions, Math.max(agreementQueries, singleQueries));
const fill = <T extends { upsert(entries: readonly { id: string; vector: Float32Array }[]): void }>(index: T, label: string): T => {
  for (let start = 0; start < rows; start += 100_000) index.upsert(entries.slice(start, start + 100_000));
  progress(`built ${label}`);
  return index;
};
const flat = fill(createFlatIndex({ dimensions, initialCapacity: rows }), 'flat (default)');
const flat32 = fill(createFlatIndex({ dimensions, initialCapacity: rows, singleQueryScan: 'float32' }), 'flat (float32 scan)');
const keep = fill(createQuantizedFlatIndex({ dimensions, initialCapacity: rows, prefilter: 'binary' }), "binary + int8, floatVectors 'keep'");
const drop = fill(createQuantizedFlatIndex({ dimensions, initialCapacity: rows, prefilter: 'binary', floatVectors: 'drop' }), "binary + int8, floatVectors 'drop'");
const stride4 = Math.ceil(dimensions / 4) * 4;
const float32MB = megabytes(rows * (stride4 * 4 + 8));
const memory = {
  flat_float32_structureMB: float32MB,
  binary_keep: Object.fromEntries(Object.entries(keep.memoryUsage()).map(([key, value]) => [key.replace('Bytes', 'MB'), megabytes(value)])),
  binary_drop: Object.fromEntries(Object.entries(drop.memoryUsage()).map(([key, value]) => [key.replace('Bytes', 'MB'), megabytes(value)])),
};
results['memory'] = { ...memory, drop_over_float32: Number((drop.memoryUsage().totalBytes / (rows * (stride4 * 4 + 8))).toFixed(3)) };

progress('exact top-10 of held-out queries (flat index)');
const heldOut = queries.slice(0, agreementQueries);
const truth = flat.searchBatch(heldOut, { topK });
const compare = (hits: readonly FlatSearchHit[][]) => {
  let identical = 0;
  let found = 0;
  hits.forEach((list, q) => {
    const expected = (truth[q] ?? []).map((hit) => hit.id);
    const actual = list.map((hit) => hit.id);
    if (JSON.stringify(actual) === JSON.stringify(expected)) identical += 1;
    const expectedSet = new Set(expected);
    found += actual.filter((id) => expectedSet.has(id)).length;
  });
  return { identicalTop10: identical, identicalTop10Share: Number((identical / hits.length).toFixed(4)), recallAt10: Number((found / (hits.length * topK)).toFixed(4)) };
};
const agreement: Record<string, unknown> = {};
for (const prefilterShortlist of prefilterShortlists) {
  agreement[`keep_exact_prefilter${prefilterShortlist}`] = { ...compare(keep.searchBatch(heldOut, { topK, prefilterShortlist })), rerankedPerQuery: Number((keep.lastReranked / heldOut.length).toFixed(1)) };
  agreement[`drop_shortlist100_prefilter${prefilterShortlist}`] = compare(drop.searchBatch(heldOut, { topK, prefilterShortlist }));
  progress(`prefilter ${prefilterShortlist}: keep ${JSON.stringify(agreement[`keep_exact_prefilter${prefilterShortlist}`])}, drop ${JSON.stringify(agreement[`drop_shortlist100_prefilter${prefilterShortlist}`])}`);
}
results['agreementWithExact'] = agreement;

const singleSet = queries.slice(0, singleQueries);
const peers: { name: string; task: () => unknown }[] = [
  { name: 'flat_default', task: () => singleSet.forEach((query) => flat.search(query, { topK })) },
  { name: 'flat_float32scan', task: () => singleSet.forEach((query) => flat32.search(query, { topK })) },
  { name: 'binary4096_keep_exact', task: () => singleSet.forEach((query) => keep.search(query, { topK })) },
  { name: 'binary2048_keep_exact', task: () => singleSet.forEach((query) => keep.search(query, { topK, prefilterShortlist: 2048 })) },
  { name: 'binary4096_drop', task: () => singleSet.forEach((query) => drop.search(query, { topK })) },
];
const timing = await timeInterleaved(
  peers.map((peer) => ({ count: singleQueries, ...peer })),
  repeats,
  progress,
);
const { loadBefore, loadAfter, qps, paired } = timing;
results['queriesPerSecond'] = qps;
results['queriesPerSecondPerRound'] = timing.perRound();
const ratios: Record<string, number> = {};
for (const name of ['binary4096_keep_exact', 'binary2048_keep_exact', 'binary4096_drop']) {
  ratios[`${name}_over_flat_float32scan`] = paired(name, 'flat_float32scan');
  ratios[`${name}_over_flat_default`] = paired(name, 'flat_default');
}
results['pairedRatios'] = ratios;
results['loadAverage'] = { beforeTiming: loadBefore, afterTiming: loadAfter };
progress(`q/s ${JSON.stringify(qps)}; paired ${JSON.stringify(ratios)}`);

const outDirectory = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(outDirectory, { recursive: true });
const suffix = rows === 1_000_000 ? '' : `-${rows}`;
await writeFile(`${outDirectory}binary-bench${suffix}.json`, `${JSON.stringify(results, null, 2)}\n`);
const lines = [
  `# Binary first stage + int8 + re-ranking vs float32 flat search (${results['date'] as string})`,
  '',
  `${rows.toLocaleString('en-US')} × ${dimensions} synthetic vectors (${MIXTURE_DESCRIPTION}), cosine, top-${topK}; median q/s over ${repeats} interleaved rounds of ${singleQueries} single queries, one thread each; ${os.cpus().length} CPUs shared with other engineers' work, Node ${process.version}, load average before / after timing ${JSON.stringify(loadBefore)} / ${JSON.stringify(loadAfter)}.`,
  '',
  '| peer | q/s (median) |',
  '| --- | ---: |',
  ...Object.entries(qps).map(([name, value]) => `| ${name} | ${value} |`),
  '',
  `Paired ratios (median over rounds of the same-round ratio): ${JSON.stringify(ratios)}`,
  '',
  `Top-${topK} agreement with the exact flat index on ${agreementQueries} held-out queries:`,
  '',
  '| variant | identical top-10 | share | recall@10 | rows re-ranked exactly per query |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...Object.entries(agreement as Record<string, { identicalTop10: number; identicalTop10Share: number; recallAt10: number; rerankedPerQuery?: number }>).map(
    ([name, value]) => `| ${name} | ${value.identicalTop10} | ${value.identicalTop10Share} | ${value.recallAt10} | ${value.rerankedPerQuery ?? ''} |`,
  ),
  '',
  `Memory (MB): ${JSON.stringify(results['memory'])}`,
  '',
];
await writeFile(`${outDirectory}binary-bench${suffix}.md`, lines.join('\n'));
process.stdout.write(lines.join('\n'));
await flat.close();
await flat32.close();
