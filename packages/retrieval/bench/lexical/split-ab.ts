/**
 * A/B of two versions of the BM25 index module in one process (e.g. before and after a refactor): the same synthetic
 * Zipfian corpus and queries as run.ts (synthetic-corpus.ts, whitespace analyzer), interleaved rounds
 * (../dense/interleaved.ts), median docs/s and q/s and per-round paired ratios B / A. Timed per version: build (add
 * every document, then compact with a first search), 'auto' search and 'exhaustive' search over the same queries.
 * The two versions must return the same hits (checked before timing).
 *
 *   git show <base>:packages/retrieval/src/bm25/postings-store.ts > src/bm25/postings-store.before.ts
 *   git show <base>:packages/retrieval/src/bm25/bm25-index.ts | sed "s#'./postings-store.js'#'./postings-store.before.js'#" > src/bm25/bm25-index.before.ts
 *   BENCH_A=../../src/bm25/bm25-index.before.js BENCH_B=../../src/bm25/bm25-index.js node --expose-gc --import tsx bench/lexical/split-ab.ts
 * Options (env): BENCH_DOCUMENTS (50000), BENCH_QUERIES (200), BENCH_REPEATS (7), BENCH_SEARCH_ONLY=1 (no build timing),
 * BENCH_C (a third version, e.g. one step of a two-step change; ratios C / A).
 */
import type { Analyzer, Bm25Index } from '../../src/index.js';
import { loadAverage, timeInterleaved } from '../dense/interleaved.js';
import { generateDocuments, generateQueries } from './synthetic-corpus.js';

type Factory = (options: { analyzer: Analyzer; storeDocuments: boolean; documents?: Iterable<{ id: string; text: string }> }) => Bm25Index;

const documentCount = Number(process.env['BENCH_DOCUMENTS'] ?? 50_000);
const queryCount = Number(process.env['BENCH_QUERIES'] ?? 200);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 7);
const pathA = process.env['BENCH_A'];
const pathB = process.env['BENCH_B'];
if (!pathA || !pathB) throw new Error('set BENCH_A and BENCH_B to the two module paths (relative to this file)');
const progress = (message: string) => process.stderr.write(`[split-ab:lexical] ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const whitespaceAnalyzer: Analyzer = { id: 'whitespace', analyze: (text) => text.split(' ').filter(Boolean) };
const factoryOf = async (path: string) => (await import(path)).createBm25Index as Factory;
const pathC = process.env['BENCH_C'];
const searchOnly = process.env['BENCH_SEARCH_ONLY'] === '1';
const [createA, createB] = [await factoryOf(pathA), await factoryOf(pathB)];
const createC = pathC ? await factoryOf(pathC) : undefined;
const documents = [...generateDocuments(documentCount)];
const queries = generateQueries(queryCount);
const build = (create: Factory) => {
  const index = create({ analyzer: whitespaceAnalyzer, storeDocuments: false, documents });
  index.search(queries[0] as string, { topK: 10 });
  return index;
};
const a = build(createA);
const b = build(createB);
const c = createC ? build(createC) : undefined;
for (const query of queries) {
  for (const strategy of ['auto', 'exhaustive'] as const) {
    const expected = JSON.stringify(a.search(query, { topK: 10, strategy }).hits);
    for (const other of c ? [b, c] : [b]) if (JSON.stringify(other.search(query, { topK: 10, strategy }).hits) !== expected) throw new Error(`the versions return different hits for "${query}" (${strategy})`);
  }
}
progress(`${documentCount} documents, ${queryCount} queries: same hits; timing ${repeats} interleaved rounds`);
const searchAll = (index: Bm25Index, strategy: 'auto' | 'exhaustive') => () => {
  for (const query of queries) index.search(query, { topK: 10, strategy });
};
const timing = await timeInterleaved(
  [
    ...(searchOnly
      ? []
      : [
          { name: 'A build', count: documentCount, task: () => build(createA) },
          { name: 'B build', count: documentCount, task: () => build(createB) },
          ...(createC ? [{ name: 'C build', count: documentCount, task: () => build(createC) }] : []),
        ]),
    { name: 'A auto', count: queryCount, task: searchAll(a, 'auto') },
    { name: 'B auto', count: queryCount, task: searchAll(b, 'auto') },
    ...(c ? [{ name: 'C auto', count: queryCount, task: searchAll(c, 'auto') }] : []),
    { name: 'A exhaustive', count: queryCount, task: searchAll(a, 'exhaustive') },
    { name: 'B exhaustive', count: queryCount, task: searchAll(b, 'exhaustive') },
    ...(c ? [{ name: 'C exhaustive', count: queryCount, task: searchAll(c, 'exhaustive') }] : []),
  ],
  repeats,
  progress,
);
process.stdout.write(
  `${JSON.stringify({
    documentCount,
    queryCount,
    repeats,
    perSecond: timing.qps,
    pairedBOverA: { ...(searchOnly ? {} : { build: timing.paired('B build', 'A build') }), auto: timing.paired('B auto', 'A auto'), exhaustive: timing.paired('B exhaustive', 'A exhaustive') },
    ...(c ? { pairedCOverA: { ...(searchOnly ? {} : { build: timing.paired('C build', 'A build') }), auto: timing.paired('C auto', 'A auto'), exhaustive: timing.paired('C exhaustive', 'A exhaustive') } } : {}),
    load: { before: timing.loadBefore, after: timing.loadAfter, end: loadAverage() },
  })}\n`,
);
