/**
 * A/B of two versions of one dense index module in one process (e.g. before and after a refactor): the same synthetic
 * vectors (synthetic.ts), interleaved rounds (interleaved.ts), median q/s and per-round paired ratios B / A.
 * Timed per version: build (upsert all rows into a fresh index), single-query search and a 64-query batch, top-10 cosine.
 * The two versions must return the same hits (checked before timing).
 *
 *   git show <base>:packages/retrieval/src/dense/quantized-flat-index.ts > src/dense/quantized-flat-index.before.ts
 *   BENCH_A=../../src/dense/quantized-flat-index.before.js BENCH_B=../../src/dense/quantized-flat-index.js \
 *     BENCH_EXPORT=createQuantizedFlatIndex node --expose-gc --import tsx bench/dense/split-ab.ts
 * Options (env): BENCH_ROWS (50000), BENCH_DIMENSIONS (384), BENCH_REPEATS (7), BENCH_OPTIONS (JSON index options),
 * BENCH_C (a third version, e.g. an identical copy of A as a control for the position of a peer in a round; ratios C / A).
 */
import { loadAverage, timeInterleaved } from './interleaved.js';
import { generateMixtureData } from './synthetic.js';

interface AnyIndex {
  upsert(entries: readonly { id: string; vector: Float32Array }[]): void;
  search(query: Float32Array, options?: { topK?: number }): { id: string; score: number }[];
  searchBatch(queries: readonly Float32Array[], options?: { topK?: number }): { id: string; score: number }[][];
  close(): Promise<void>;
}
type Factory = (options: Record<string, unknown>) => AnyIndex;

const rows = Number(process.env['BENCH_ROWS'] ?? 50_000);
const dimensions = Number(process.env['BENCH_DIMENSIONS'] ?? 384);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 7);
const exportName = process.env['BENCH_EXPORT'] ?? 'createQuantizedFlatIndex';
const extra = JSON.parse(process.env['BENCH_OPTIONS'] ?? '{}') as Record<string, unknown>;
const pathA = process.env['BENCH_A'];
const pathB = process.env['BENCH_B'];
if (!pathA || !pathB) throw new Error('set BENCH_A and BENCH_B to the two module paths (relative to this file)');
const progress = (message: string) => process.stderr.write(`[split-ab] ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const factoryOf = async (path: string) => (await import(path))[exportName] as Factory;
const [createA, createB] = [await factoryOf(pathA), await factoryOf(pathB)];
const pathC = process.env['BENCH_C'];
const createC = pathC ? await factoryOf(pathC) : undefined;
const { queries, entries } = generateMixtureData(rows, dimensions, 64);
const options = { dimensions, initialCapacity: rows, ...extra };
const build = (create: Factory) => {
  const index = create(options);
  index.upsert(entries);
  return index;
};
const a = build(createA);
const b = build(createB);
const c = createC ? build(createC) : undefined;
const single = queries.slice(0, 16);
for (const query of queries) {
  const expected = JSON.stringify(a.search(query, { topK: 10 }));
  for (const other of c ? [b, c] : [b]) if (JSON.stringify(other.search(query, { topK: 10 })) !== expected) throw new Error('the versions return different hits');
}
progress(`${rows} × ${dimensions}, ${exportName} ${JSON.stringify(extra)}: same hits on ${queries.length} queries; timing ${repeats} interleaved rounds`);
const timing = await timeInterleaved(
  [
    { name: 'A build', count: rows, task: () => build(createA).close() },
    { name: 'B build', count: rows, task: () => build(createB).close() },
    ...(createC ? [{ name: 'C build', count: rows, task: () => build(createC).close() }] : []),
    { name: 'A single', count: single.length, task: () => single.forEach((query) => a.search(query, { topK: 10 })) },
    { name: 'B single', count: single.length, task: () => single.forEach((query) => b.search(query, { topK: 10 })) },
    ...(c ? [{ name: 'C single', count: single.length, task: () => single.forEach((query) => c.search(query, { topK: 10 })) }] : []),
    { name: 'A batch', count: queries.length, task: () => a.searchBatch(queries, { topK: 10 }) },
    { name: 'B batch', count: queries.length, task: () => b.searchBatch(queries, { topK: 10 }) },
    ...(c ? [{ name: 'C batch', count: queries.length, task: () => c.searchBatch(queries, { topK: 10 }) }] : []),
  ],
  repeats,
  progress,
);
const result = {
  rows,
  dimensions,
  exportName,
  options: extra,
  repeats,
  perSecond: timing.qps,
  pairedBOverA: { build: timing.paired('B build', 'A build'), single: timing.paired('B single', 'A single'), batch: timing.paired('B batch', 'A batch') },
  ...(c ? { pairedCOverA: { build: timing.paired('C build', 'A build'), single: timing.paired('C single', 'A single'), batch: timing.paired('C batch', 'A batch') } } : {}),
  load: { before: timing.loadBefore, after: timing.loadAfter, end: loadAverage() },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
await a.close();
await b.close();
await c?.close();
