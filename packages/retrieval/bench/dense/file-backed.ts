/**
 * Binary first stage + int8 + exact re-ranking against float32 rows read from a FILE (`createFileVectorSource`) vs the
 * float32-scan flat index and the same quantized index holding its float copy in memory (`floatVectors: 'keep'`),
 * 1,000,000 × 384 synthetic vectors (synthetic.ts, the generator of binary.ts / int8.ts), top-10 cosine. Same run,
 * interleaved rounds of single queries; medians and per-round paired ratios; identical top-10 count against the exact
 * flat index on held-out queries; memory each index holds (its own accounting, RSS growth across its build and
 * arrayBuffers growth). The row file is written to BENCH_DIR (default the OS temp dir) and removed at the end; once
 * written, the OS page cache usually holds it, so re-ranking reads are memory copies from the cache: that cache is kernel
 * memory shared with every process and reclaimable, not memory of this process (RSS does not count it). A cold-cache peer
 * (Linux with GNU dd; BENCH_COLD=0 skips it) evicts the file's pages before each of its rounds with
 * `dd iflag=nocache count=0` (posix_fadvise DONTNEED on this file only) so its reads go to the disk.
 *
 *   pnpm --filter @factkit/retrieval run bench:dense:file        (writes bench/dense/results/file-backed-bench.{json,md})
 *   BENCH_ROWS=100000 BENCH_REPEATS=3 pnpm --filter @factkit/retrieval run bench:dense:file   (quick look)
 */
import { execFileSync } from 'node:child_process';
import { loadAverage as load, timeInterleaved } from './interleaved.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFlatIndex, type FlatSearchHit } from '../../src/dense/flat-index.js';
import { createQuantizedFlatIndex } from '../../src/dense/quantized-flat-index.js';
import { createFileVectorSource, writeVectorFile } from '../../src/dense/file-vector-source.js';
import { measureMemoryGrowth, megabytes } from '../shared/memory.js';
import { generateMixtureData, MIXTURE_DESCRIPTION } from './synthetic.js';

const rows = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);
const agreementQueries = Number(process.env['BENCH_AGREEMENT_QUERIES'] ?? 200);
const singleQueries = Number(process.env['BENCH_SINGLE_QUERIES'] ?? 16);
const withKeep = process.env['BENCH_KEEP'] !== '0';
const withCold = process.env['BENCH_COLD'] !== '0';
const topK = 10;
const progress = (message: string) => process.stderr.write(`[bench:dense:file] ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverageAtStart: load() },
  data: { rows, dimensions, topK, repeats, singleQueries, agreementQueries, metric: 'cosine', generator: MIXTURE_DESCRIPTION },
};

progress(`generating ${rows} × ${dimensions} vectors (+ ${agreementQueries} held-out queries)`);
const { queries, entries } = generateMixtureData(rows, dimensions, Math.max(agreementQueries, singleQueries));
const directory = mkdtempSync(join(process.env['BENCH_DIR'] ?? os.tmpdir(), 'factkit-file-bench-'));
const path = join(directory, 'vectors.f32');
let started = performance.now();
writeVectorFile(
  path,
  entries.map((entry) => entry.vector),
  { dimensions },
);
progress(`wrote ${path} (${megabytes(rows * dimensions * 4)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const source = createFileVectorSource(path, { dimensions });

const fill = <T extends { upsert(entries: readonly { id: string; vector: Float32Array }[]): void }>(index: T): T => {
  for (let start = 0; start < rows; start += 100_000) index.upsert(entries.slice(start, start + 100_000));
  return index;
};
const built = async <T>(label: string, build: () => T) => {
  started = performance.now();
  const { value, delta } = await measureMemoryGrowth(build);
  progress(`built ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s: RSS +${megabytes(delta.rssBytes)} MB, arrayBuffers +${megabytes(delta.arrayBuffersBytes)} MB`);
  return { value, delta: { rssMB: megabytes(delta.rssBytes), arrayBuffersMB: megabytes(delta.arrayBuffersBytes), heapUsedMB: megabytes(delta.heapUsedBytes) } };
};
const fileBuild = await built('binary + int8, floats from the file', () => fill(createQuantizedFlatIndex({ dimensions, initialCapacity: rows, prefilter: 'binary', floatVectors: source })));
const fileIndex = fileBuild.value;
const flatBuild = await built('flat (float32 scan)', () => fill(createFlatIndex({ dimensions, initialCapacity: rows, singleQueryScan: 'float32' })));
const flat32 = flatBuild.value;
const keepBuild = withKeep ? await built("binary + int8, floatVectors 'keep'", () => fill(createQuantizedFlatIndex({ dimensions, initialCapacity: rows, prefilter: 'binary' }))) : undefined;
const keep = keepBuild?.value;

const stride4 = Math.ceil(dimensions / 4) * 4;
const asMB = (usage: object) => Object.fromEntries(Object.entries(usage).map(([key, value]) => [key.replace('Bytes', 'MB'), megabytes(value as number)]));
results['memory'] = {
  note: "index-reported bytes, RSS growth across each build (after GC) and Node's arrayBuffers growth; the row file (OS page cache) is not process memory",
  fileMB: megabytes(rows * dimensions * 4),
  binary_file: { reported: asMB(fileIndex.memoryUsage()), ...fileBuild.delta },
  flat_float32: { structureMB: megabytes(rows * (stride4 * 4 + 8)), ...flatBuild.delta },
  ...(keep && keepBuild ? { binary_keep: { reported: asMB(keep.memoryUsage()), ...keepBuild.delta } } : {}),
  file_over_float32_reported: Number((fileIndex.memoryUsage().totalBytes / (rows * (stride4 * 4 + 8))).toFixed(3)),
  file_over_float32_rss: Number((fileBuild.delta.rssMB / flatBuild.delta.rssMB).toFixed(3)),
};

progress('exact top-10 of held-out queries (flat index)');
const heldOut = queries.slice(0, agreementQueries);
const truth = flat32.searchBatch(heldOut, { topK });
const compare = (hits: readonly FlatSearchHit[][]) => {
  let identical = 0;
  let identicalScores = 0;
  hits.forEach((list, q) => {
    const expected = truth[q] ?? [];
    if (JSON.stringify(list.map((hit) => hit.id)) === JSON.stringify(expected.map((hit) => hit.id))) identical += 1;
    if (JSON.stringify(list) === JSON.stringify(expected)) identicalScores += 1;
  });
  return { identicalTop10: identical, identicalTop10WithScores: identicalScores, queries: hits.length };
};
const readsBefore = source.reads;
const agreement: Record<string, unknown> = {
  binary4096_file_exact: {
    ...compare(fileIndex.searchBatch(heldOut, { topK })),
    rerankedPerQuery: Number((fileIndex.lastReranked / heldOut.length).toFixed(1)),
    positionedReadsPerQuery: Number(((source.reads - readsBefore) / heldOut.length).toFixed(1)),
  },
};
if (keep) agreement['binary4096_keep_exact'] = { ...compare(keep.searchBatch(heldOut, { topK })), rerankedPerQuery: Number((keep.lastReranked / heldOut.length).toFixed(1)) };
results['agreementWithExact'] = agreement;
progress(`agreement ${JSON.stringify(agreement)}`);

const singleSet = queries.slice(0, singleQueries);
/** Evicts the row file from the OS page cache (this file only); false when dd is missing or does not support it. */
const evictFile = (): boolean => {
  try {
    execFileSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const coldAvailable = withCold && evictFile();
results['coldCachePeer'] = coldAvailable ? 'dd iflag=nocache count=0 before each round of binary4096_file_exact_coldcache (timer starts after it)' : 'not run';
const peers: { name: string; task: () => unknown; before?: () => unknown }[] = [
  { name: 'flat_float32scan', task: () => singleSet.forEach((query) => flat32.search(query, { topK })) },
  { name: 'binary4096_file_exact', task: () => singleSet.forEach((query) => fileIndex.search(query, { topK })) },
  ...(keep ? [{ name: 'binary4096_keep_exact', task: () => singleSet.forEach((query) => keep.search(query, { topK })) }] : []),
  ...(coldAvailable ? [{ name: 'binary4096_file_exact_coldcache', before: evictFile, task: () => singleSet.forEach((query) => fileIndex.search(query, { topK })) }] : []),
];
const timing = await timeInterleaved(
  peers.map((peer) => ({ count: singleQueries, ...peer })),
  repeats,
  progress,
);
const { loadBefore, loadAfter, qps, paired } = timing;
const ratios: Record<string, number> = { binary4096_file_exact_over_flat_float32scan: paired('binary4096_file_exact', 'flat_float32scan') };
if (keep) {
  ratios['binary4096_keep_exact_over_flat_float32scan'] = paired('binary4096_keep_exact', 'flat_float32scan');
  ratios['binary4096_file_exact_over_keep_exact'] = paired('binary4096_file_exact', 'binary4096_keep_exact');
}
if (coldAvailable) ratios['binary4096_file_exact_coldcache_over_flat_float32scan'] = paired('binary4096_file_exact_coldcache', 'flat_float32scan');
results['queriesPerSecond'] = qps;
results['queriesPerSecondPerRound'] = timing.perRound();
results['pairedRatios'] = ratios;
results['loadAverage'] = { beforeTiming: loadBefore, afterTiming: loadAfter };
progress(`q/s ${JSON.stringify(qps)}; paired ${JSON.stringify(ratios)}`);

source.close();
rmSync(directory, { recursive: true, force: true });
const outDirectory = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(outDirectory, { recursive: true });
const suffix = rows === 1_000_000 ? '' : `-${rows}`;
await writeFile(`${outDirectory}file-backed-bench${suffix}.json`, `${JSON.stringify(results, null, 2)}\n`);
const lines = [
  `# Binary + int8 + exact re-ranking from a float32 row file vs float32 flat search (${results['date'] as string})`,
  '',
  `${rows.toLocaleString('en-US')} × ${dimensions} synthetic vectors (${MIXTURE_DESCRIPTION}), cosine, top-${topK}; median q/s over ${repeats} interleaved rounds of ${singleQueries} single queries, one thread each; ${os.cpus().length} CPUs shared with other engineers' work, Node ${process.version}, load average before / after timing ${JSON.stringify(loadBefore)} / ${JSON.stringify(loadAfter)}.`,
  '',
  '| peer | q/s (median) |',
  '| --- | ---: |',
  ...Object.entries(qps).map(([name, value]) => `| ${name} | ${value} |`),
  '',
  `Paired ratios (median over rounds of the same-round ratio): ${JSON.stringify(ratios)}`,
  '',
  `Top-${topK} agreement with the exact flat index on ${agreementQueries} held-out queries: ${JSON.stringify(agreement)}`,
  '',
  `Memory (MB): ${JSON.stringify(results['memory'])}`,
  '',
  'The row file sits in the OS page cache after it is written (kernel memory, shared and reclaimable, not counted in RSS); with a cold cache each query costs its positioned reads from disk.',
  '',
];
await writeFile(`${outDirectory}file-backed-bench${suffix}.md`, lines.join('\n'));
process.stdout.write(lines.join('\n'));
await flat32.close();
