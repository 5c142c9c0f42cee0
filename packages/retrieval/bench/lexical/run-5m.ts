// BM25 at 5,000,000 synthetic documents (the lexical benchmark's generator): build, search, save and load in one
// process, with an RSS sampler (a worker thread) and the kernel's peak-RSS high-water mark. Exactness: the top-10 of a
// sample of queries under the default 'auto' strategy is checked against the 'exhaustive' strategy of the same index
// (every posting of the index's own postings scored; the competent exhaustive baseline of run.ts would need a second
// copy of the postings, which does not fit the memory budget). Not a test; takes minutes.
//
//   pnpm --filter @factkit/retrieval bench:lexical:5m                       5,000,000 documents
//   pnpm --filter @factkit/retrieval bench:lexical:5m -- --documents 1000000   another size (results keyed by size)
//   pnpm --filter @factkit/retrieval bench:lexical:5m -- --merge-pending-at 16777216   the index's mergePendingAt
//   pnpm --filter @factkit/retrieval bench:lexical:5m -- --compact-every 500000        also force a merge every n documents
//   pnpm --filter @factkit/retrieval bench:lexical:5m -- --markdown-only      rewrite the .md from the saved .json
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Analyzer, type Bm25Index, createBm25Index } from '../../src/index.js';
// Node-only file helpers, imported from their module (the package entry that exports them is moving to /node).
import { loadBm25Index, saveBm25Index } from '../../src/io/bm25-files.js';
import { measureMemory, peakRssBytes, startRssSampler, toMb } from '../shared/memory.js';
import { generateDocuments, generateQueries } from './synthetic-corpus.js';

const argument = (name: string, fallback: number): number => {
  const position = process.argv.indexOf(name);
  return position >= 0 ? Number(process.argv[position + 1]) : fallback;
};
const DOCUMENTS = argument('--documents', 5_000_000);
const QUERIES = argument('--queries', 100);
const CHECKED = argument('--checked', 20);
/** Extra merges forced by the bench every this many documents (0: none; the index's own `mergePendingAt` bounds the build buffers). */
const COMPACT_EVERY = argument('--compact-every', 0);
/** The index's `mergePendingAt` (pending postings that trigger a merge); 0: its default. */
const MERGE_PENDING_AT = argument('--merge-pending-at', 0);
const LOG_EVERY = 500_000;

const whitespaceAnalyzer: Analyzer = { id: 'whitespace', analyze: (text) => text.split(' ').filter(Boolean) };
const load = (): number[] => loadavg().map((value) => Number(value.toFixed(2)));
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
/** Full GCs with pauses: ArrayBuffer backing stores (e.g. the merged-away build buffers) are released asynchronously. */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const log = (message: string): void => {
  const usage = process.memoryUsage();
  process.stderr.write(
    `[5m] ${new Date().toISOString().slice(11, 19)} ${message} (RSS ${toMb(usage.rss).toFixed(0)} MB, peak so far ${toMb(peakRssBytes()).toFixed(0)} MB, heap ${toMb(usage.heapUsed).toFixed(0)}/${toMb(usage.heapTotal).toFixed(0)} MB, arrayBuffers ${toMb(usage.arrayBuffers).toFixed(0)} MB, load ${load()[0]})\n`,
  );
};

function topIds(index: Bm25Index, queries: string[], strategy: 'auto' | 'exhaustive'): string[][] {
  return queries.map((query) => index.search(query, { topK: 10, strategy }).hits.map((hit) => hit.id));
}

function timeQueries(index: Bm25Index, queries: string[], samples: number): { queriesPerSecond: number; sampleMs: number[] } {
  index.search(queries[0] as string);
  const sampleMs: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const begun = performance.now();
    for (const query of queries) index.search(query, { topK: 10 });
    sampleMs.push(performance.now() - begun);
  }
  return { queriesPerSecond: queries.length / (median(sampleMs) / 1000), sampleMs: sampleMs.map((value) => Number(value.toFixed(1))) };
}

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const loadBefore = load();
  const sampler = await startRssSampler(100);
  const queries = generateQueries(QUERIES);
  const checkedQueries = queries.slice(0, CHECKED);

  log(`building ${DOCUMENTS.toLocaleString('en')} documents`);
  const buildBegun = performance.now();
  let index: Bm25Index | undefined = createBm25Index({ analyzer: whitespaceAnalyzer, storeDocuments: false, ...(MERGE_PENDING_AT > 0 ? { mergePendingAt: MERGE_PENDING_AT } : {}) });
  let chunk: { id: string; text: string }[] = [];
  let added = 0;
  for (const document of generateDocuments(DOCUMENTS)) {
    chunk.push(document);
    if (chunk.length === 10_000) {
      index.addDocuments(chunk);
      added += chunk.length;
      chunk = [];
      if (COMPACT_EVERY > 0 && added % COMPACT_EVERY === 0) index.documentFrequency(''); // merges the pending additions
      if (added % LOG_EVERY === 0) log(`${added.toLocaleString('en')} documents`);
    }
  }
  index.addDocuments(chunk);
  index.search(''); // compaction and the scoring state (length factors): part of the build
  const buildSeconds = (performance.now() - buildBegun) / 1000;
  await settle();
  const statistics = index.statistics();
  const afterBuild = measureMemory(statistics.sharedArrayBufferBytes);
  log(`built in ${buildSeconds.toFixed(0)} s: ${statistics.postingCount.toLocaleString('en')} postings`);

  const timed = timeQueries(index, queries, 3);
  log(`auto: ${timed.queriesPerSecond.toFixed(1)} q/s`);
  const exhaustiveBegun = performance.now();
  const reference = topIds(index, checkedQueries, 'exhaustive');
  const exhaustiveQueriesPerSecond = checkedQueries.length / ((performance.now() - exhaustiveBegun) / 1000);
  const autoAnswers = topIds(index, checkedQueries, 'auto');
  const identical = autoAnswers.filter((ids, position) => ids.join('\n') === (reference[position] as string[]).join('\n')).length;
  log(`exact top-10 on ${identical}/${checkedQueries.length} checked queries (exhaustive ${exhaustiveQueriesPerSecond.toFixed(1)} q/s)`);

  const directory = mkdtempSync(join(tmpdir(), 'factkit-5m-'));
  const path = join(directory, 'index.bm25');
  let saveSeconds = Number.NaN;
  let loadSeconds = Number.NaN;
  let fileBytes = Number.NaN;
  let identicalAfterLoad = 0;
  let afterLoad = afterBuild;
  let saveError: string | undefined;
  try {
    const saveBegun = performance.now();
    await saveBm25Index(index, path);
    saveSeconds = (performance.now() - saveBegun) / 1000;
    fileBytes = statSync(path).size;
    log(`saved ${toMb(fileBytes).toFixed(0)} MB in ${saveSeconds.toFixed(0)} s`);
    index = undefined;
    await settle();
    const loadBegun = performance.now();
    const loaded = await loadBm25Index(path, { analyzer: whitespaceAnalyzer });
    loaded.search('');
    loadSeconds = (performance.now() - loadBegun) / 1000;
    await settle();
    afterLoad = measureMemory(loaded.statistics().sharedArrayBufferBytes);
    const reloaded = topIds(loaded, checkedQueries, 'auto');
    identicalAfterLoad = reloaded.filter((ids, position) => ids.join('\n') === (reference[position] as string[]).join('\n')).length;
    log(`loaded in ${loadSeconds.toFixed(0)} s; exact top-10 after load on ${identicalAfterLoad}/${checkedQueries.length}`);
  } catch (error) {
    saveError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    log(`save/load failed: ${saveError}`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const rss = await sampler.stop();
  const result = {
    documents: DOCUMENTS,
    started,
    node: process.version,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
    load: { before: loadBefore, after: load() },
    maxOldSpaceSize: process.execArgv.find((value) => value.startsWith('--max-old-space-size')) ?? 'default',
    merging:
      COMPACT_EVERY > 0 ? `mergePendingAt ${MERGE_PENDING_AT || 'default'} + every ${COMPACT_EVERY.toLocaleString('en')} documents` : `mergePendingAt ${MERGE_PENDING_AT > 0 ? MERGE_PENDING_AT.toLocaleString('en') : 'default (8,388,608)'}`,
    buildSeconds,
    postings: statistics.postingCount,
    vocabulary: statistics.vocabularySize,
    typedArrayBytes: statistics.typedArrayBytes,
    bytesPerPosting: statistics.typedArrayBytes / statistics.postingCount,
    heapMbAfterBuild: toMb(afterBuild.heapUsedBytes),
    totalMbAfterBuild: toMb(afterBuild.totalBytes),
    rssMbAfterBuild: toMb(afterBuild.rssBytes),
    queries: queries.length,
    queriesPerSecond: timed.queriesPerSecond,
    sampleMs: timed.sampleMs,
    checkedQueries: checkedQueries.length,
    identicalTop10: identical,
    exhaustiveQueriesPerSecond,
    saveSeconds,
    loadSeconds,
    fileMb: toMb(fileBytes),
    identicalTop10AfterLoad: identicalAfterLoad,
    totalMbAfterLoad: toMb(afterLoad.totalBytes),
    peakRssMb: toMb(Math.max(rss.peakRssBytes, rss.peakSampledBytes)),
    ...(saveError ? { saveError } : {}),
  };
  const results = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(results, { recursive: true });
  const jsonPath = `${results}lexical-5m.json`;
  const saved: Record<string, typeof result> = existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as Record<string, typeof result>) : {};
  saved[String(DOCUMENTS)] = result;
  writeFileSync(jsonPath, `${JSON.stringify(saved, null, 2)}\n`);
  writeFileSync(`${results}lexical-5m.md`, formatMarkdown(Object.values(saved)));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const exact = identical === checkedQueries.length && identicalAfterLoad === checkedQueries.length;
  if (!exact) {
    process.stderr.write('top-10 differs from the exhaustive strategy (or save/load failed): the figures are not valid\n');
    process.exitCode = 1;
  }
}

function formatMarkdown(results: Record<string, unknown>[]): string {
  const fmt = (value: unknown, digits = 1): string => (typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');
  const lines = [
    '# factkit BM25 at millions of synthetic documents',
    '',
    'One process builds the index (10,000-document batches; pending additions merged by the index itself once',
    '`mergePendingAt` postings are pending — rows before that option merged every 500,000 documents from the bench), times',
    'the default search over generated queries (median of 3 passes), checks the top-10 of the first queries against the',
    "'exhaustive' strategy of the same index, saves it with `saveBm25Index`, drops it, loads it with `loadBm25Index` and",
    'checks again. Peak RSS = the larger of the kernel high-water mark (VmHWM) and a 100 ms worker-thread sampler, for the',
    'whole run. Bytes per posting = all typed arrays of the index (postings, offsets, lengths, factors, bounds) / postings.',
    '"Memory after build" is heap + `arrayBuffers`; since the postings arrays are allocated with spare room for in-place',
    'merges (reserved, resident only once written), `arrayBuffers` counts that reserve too, so RSS after build is the',
    'resident figure.',
    'MB = MiB (2^20 bytes). The machine is shared with other engineers (load averages below); q/s are not comparable across runs.',
    '',
    '| documents | started (UTC) | load before / after | heap limit | merging | build s | postings | bytes/posting | heap used after build MB | memory after build MB (heap + buffers) | RSS after build MB | q/s (auto) | exact top-10 | save s | file MB | load s | exact after load | peak RSS MB |',
    '|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const result of results as Record<string, unknown>[]) {
    lines.push(
      `| ${Number(result.documents).toLocaleString('en')} | ${String(result.started).slice(0, 16)} | ${(result.load as { before: number[]; after: number[] }).before.join(' ')} / ${(result.load as { before: number[]; after: number[] }).after.join(' ')} | ${String(result.maxOldSpaceSize)} | ${typeof result.merging === 'string' ? result.merging : 'every 500,000 documents (bench)'} | ${fmt(result.buildSeconds, 0)} | ${Number(result.postings).toLocaleString('en')} | ${fmt(result.bytesPerPosting, 2)} | ${fmt(result.heapMbAfterBuild, 0)} | ${fmt(result.totalMbAfterBuild, 0)} | ${fmt(result.rssMbAfterBuild, 0)} | ${fmt(result.queriesPerSecond)} | ${String(result.identicalTop10)}/${String(result.checkedQueries)} | ${fmt(result.saveSeconds, 0)} | ${fmt(result.fileMb, 0)} | ${fmt(result.loadSeconds, 0)} | ${String(result.identicalTop10AfterLoad)}/${String(result.checkedQueries)} | ${fmt(result.peakRssMb, 0)} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

if (process.argv.includes('--markdown-only')) {
  const results = fileURLToPath(new URL('./results/', import.meta.url));
  const saved = JSON.parse(readFileSync(`${results}lexical-5m.json`, 'utf8')) as Record<string, Record<string, unknown>>;
  writeFileSync(`${results}lexical-5m.md`, formatMarkdown(Object.values(saved)));
} else {
  await main();
}
