// Lexical benchmark: `pnpm --filter @factkit/retrieval bench:lexical` (not a test; run on an idle machine for stable numbers).
// Every corpus runs in its own child process (clean memory figures); inside it every contender is built, then all
// contenders are timed over the SAME queries in interleaved repeats, and medians are reported as same-run ratios.
// The baseline is a competent exhaustive scorer (competent-exhaustive.ts: CSR typed arrays, precomputed length
// factors, reused accumulators, inlined scoring, top-k heap); its top-10 must equal factkit's on every query.
//
//   pnpm --filter @factkit/retrieval bench:lexical                      all corpora (≈ 10 min on 2 cores)
//   pnpm --filter @factkit/retrieval bench:lexical -- --only synthetic500k   one corpus, merged into the saved results
//   pnpm --filter @factkit/retrieval bench:lexical -- --format          re-render the Markdown from the saved JSON
import { requireDataset } from '@factkit/test-utils/data';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
// @ts-expect-error wink-bm25-text-search ships no types
import winkBm25 from 'wink-bm25-text-search';
import { type Analyzer, createBm25Index, createEnglishAnalyzer } from '../../src/index.js';
import { createBm25WorkerPool } from '../../src/node.js';
import { createCompetentExhaustive } from './competent-exhaustive.js';
import { generateDocuments, generateQueries } from './synthetic-corpus.js';
import { measureMemory } from '../shared/memory.js';

type Doc = { id: string; text: string };
interface ContenderResult {
  name: string;
  documents: number;
  note?: string;
  buildMs: number;
  retainedMb: number;
  peakBuildMb: number;
  queriesPerSecond: number;
  /** Timed samples (each = the whole query set, `loops` times). */
  samples: number;
  /** Passes over the query set per timed sample (fast contenders loop so a sample lasts ≥ ~150 ms). */
  loops: number;
  /** (max − min) / median of the per-sample times: a disturbed run shows a large spread. */
  spread: number;
  /** Per-sample milliseconds per pass over the query set, and the round each was taken in. */
  sampleMs?: number[];
  sampleRounds?: number[];
  /** mean |top10 ∩ reference top10| / 10 */
  overlapAt10: number;
  /** fraction of queries whose ordered top-10 equals the reference exactly */
  identicalTop10: number;
}
interface CorpusResult {
  corpus: string;
  startedAt: string;
  seconds: number;
  documents: number;
  queries: number;
  /** Where the queries come from (all of them, or the same sample for every contender). */
  querySet: string;
  repeats: number;
  peerRepeats: number;
  /** 1/5/15-minute load averages (as `uptime` prints them) before the builds, before the timed repeats and after them. */
  load: { beforeBuild: number[]; beforeTiming: number[]; after: number[] };
  /** Same fixed CPU work on 2 threads vs 1 thread, measured before and after the timed repeats (2.0 = two free cores). */
  parallelCapacity: number[];
  contenders: ContenderResult[];
  /** factkit 'auto' and the baseline re-timed (5 samples each) right after the Xapian process, with the load then. */
  xapianAdjacent?: { autoQps: number; baselineQps: number; load: number[]; samples?: number; peersReleased?: boolean; warmUp?: boolean };
  /** Why Xapian was skipped (e.g. python3-xapian missing). */
  xapianNote?: string;
  /** How memory was counted, the factkit index's SharedArrayBuffer bytes, and the child process's RSS at the end / peak. */
  memory?: { arrayBuffersCountShared: boolean; factkitSharedBytes: number; rssMb: number; peakRssMb: number };
}

/** A Python with the xapian module: $XAPIAN_PYTHON, Debian's /usr/bin/python3, or python3 on PATH. */
function findXapianPython(): string | undefined {
  const candidates = [process.env.XAPIAN_PYTHON, '/usr/bin/python3', 'python3'].filter((value): value is string => Boolean(value));
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-c', 'import xapian'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

interface XapianRun {
  version: string;
  buildSeconds: number;
  queriesPerSecond: number;
  sampleMs: number[];
  passes: number;
  answers: string[][];
  weighting: string;
}

/**
 * Writes the corpus and the queries, already analysed with the benchmark's analyzer (space-separated terms), to a
 * temporary directory and runs xapian_peer.py on them; returns its timings and top-10s, or why it could not run.
 */
function runXapian(makeDocuments: () => Iterable<Doc>, queries: string[], analyzer: Analyzer, repeats: number): XapianRun | string {
  const python = findXapianPython();
  if (!python) return 'python3-xapian is not installed (apt-get install -y python3-xapian), so Xapian was not run';
  const directory = mkdtempSync(join(tmpdir(), 'factkit-xapian-'));
  try {
    const lines: string[] = [];
    let chunk = '';
    const path = join(directory, 'docs.tsv');
    writeFileSync(path, '');
    // Synchronous appends in 8 MB chunks (the corpus is generated lazily and never held whole).
    for (const document of makeDocuments()) {
      chunk += `${document.id.replace(/[\t\n]/g, ' ')}\t${analyzer.analyze(document.text).join(' ')}\n`;
      if (chunk.length > 8 * 2 ** 20) {
        writeFileSync(path, chunk, { flag: 'a' });
        chunk = '';
      }
    }
    writeFileSync(path, chunk, { flag: 'a' });
    for (const query of queries) lines.push(analyzer.analyze(query).join(' '));
    writeFileSync(join(directory, 'queries.txt'), `${lines.join('\n')}\n`);
    const script = fileURLToPath(new URL('./xapian_peer.py', import.meta.url));
    const run = spawnSync(python, [script, directory, '0.9', '0.4', String(repeats)], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] });
    if (run.status !== 0) return `xapian_peer.py failed (exit ${String(run.status)})`;
    return JSON.parse(run.stdout) as XapianRun;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * How much two threads can run in parallel right now: a fixed busy loop on 1 worker, then the same loop on each of
 * 2 workers; returns (2 × work) / time(2 workers) ÷ (work / time(1 worker)). The worker-pool speed-up cannot exceed it.
 */
async function parallelCapacity(): Promise<number> {
  const { Worker } = await import('node:worker_threads');
  const code = "const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => { let x = 0; for (let i = 0; i < 1e8; i++) x = (x * 31 + i) | 0; parentPort.postMessage(x); });";
  const run = async (threads: number): Promise<number> => {
    const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true }));
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('online', resolve))));
    const started = performance.now();
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            worker.once('message', resolve);
            worker.postMessage(0);
          }),
      ),
    );
    const elapsed = performance.now() - started;
    await Promise.all(workers.map((worker) => worker.terminate()));
    return elapsed;
  };
  const one = await run(1);
  const two = await run(2);
  return (2 * one) / two;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
/** Full GCs with pauses: ArrayBuffer backing stores are released asynchronously after a GC. */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
/** SharedArrayBuffer bytes held by the factkit index (its own accounting), added by measureMemory when Node's figure misses them. */
let factkitSharedBytes = 0;
/** The factkit index's spare room (address space reserved for in-place merges, counted by `arrayBuffers`, not resident until written). */
let factkitReservedBytes = 0;
/** heap + ArrayBuffers (+ the index's SharedArrayBuffers when `arrayBuffers` does not count them), in MB. */
const memoryMb = (): number => measureMemory(factkitSharedBytes).totalBytes / 2 ** 20;
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const load = (): number[] => loadavg().map((value) => Number(value.toFixed(2)));

interface Contender {
  name: string;
  documents: number;
  note?: string;
  /** Third-party library: PEER_REPEATS timed samples (spread over the rounds) instead of the corpus's `repeats`. */
  peer?: boolean;
  build(documents: () => Iterable<Doc>, sample: () => void): Promise<void> | void;
  /** All queries, returning top-10 ids per query. */
  run(queries: string[]): Promise<string[][]> | string[][];
  dispose?(): Promise<void> | void;
  /** Peers: drops the built engine (called before Xapian runs, so factkit and the baseline are re-timed without it). */
  release?(): void;
}

/** Timed samples for third-party peers (after one warm-up pass that also collects their answers). */
const PEER_REPEATS = 3;
/** A timed sample of a fast contender loops over the query set until it lasts about this long. */
const TARGET_SAMPLE_MS = 150;

const whitespaceAnalyzer: Analyzer = { id: 'whitespace', analyze: (text) => text.split(' ').filter(Boolean) };

const BASELINE_NAME = 'competent exhaustive scorer (baseline: CSR typed arrays, precomputed norms, reused buffers, inlined BM25, top-k heap)';

async function runCorpus(
  name: string,
  makeDocuments: () => Iterable<Doc>,
  documentCount: number,
  queries: string[],
  querySet: string,
  repeats: number,
  analyzer: Analyzer,
  peers: { wink: boolean; miniSearch: boolean; orama: boolean; xapian: boolean },
): Promise<CorpusResult> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const loadBeforeBuild = load();
  const index = createBm25Index({ analyzer, storeDocuments: false });
  const threads = Math.min(2, availableParallelism());
  let pool: Awaited<ReturnType<typeof createBm25WorkerPool>> | undefined;
  const baseline = createCompetentExhaustive(analyzer);
  const contenders: Contender[] = [
    {
      name: BASELINE_NAME,
      documents: documentCount,
      build(documents, sample) {
        let count = 0;
        for (const document of documents()) {
          baseline.add(document);
          if (++count % 10_000 === 0) sample();
        }
        sample();
        baseline.finish();
      },
      run: (batch) => batch.map((query) => baseline.search(query, 10)),
    },
    {
      name: "factkit BM25, default 'auto' strategy (1 thread)",
      documents: documentCount,
      build(documents, sample) {
        let chunk: Doc[] = [];
        for (const document of documents()) {
          chunk.push(document);
          if (chunk.length === 10_000) {
            index.addDocuments(chunk);
            chunk = [];
            sample();
          }
        }
        index.addDocuments(chunk);
        index.search(''); // builds the scoring state (length factors, impacts): part of the build
        ({ sharedArrayBufferBytes: factkitSharedBytes, reservedBytes: factkitReservedBytes } = index.statistics());
        sample();
      },
      run: (batch) => batch.map((query) => index.search(query, { topK: 10 }).hits.map((hit) => hit.id)),
    },
    {
      name: "factkit BM25, 'maxscore' forced (1 thread)",
      documents: documentCount,
      note: 'same index',
      build() {},
      run: (batch) => batch.map((query) => index.search(query, { topK: 10, strategy: 'maxscore' }).hits.map((hit) => hit.id)),
    },
    {
      name: "factkit BM25, 'exhaustive' strategy (1 thread)",
      documents: documentCount,
      note: 'same index',
      build() {},
      run: (batch) => batch.map((query) => index.search(query, { topK: 10, strategy: 'exhaustive' }).hits.map((hit) => hit.id)),
    },
    {
      name: "factkit BM25, single-threaded batch: index.searchBatch (default 'auto')",
      documents: documentCount,
      note: 'same index; the whole query set as one batch',
      build() {},
      run: (batch) => index.searchBatch(batch, { topK: 10 }).map((result) => result.hits.map((hit) => hit.id)),
    },
    {
      name: `factkit BM25, worker-pool batch on ${threads} threads (default 'auto')`,
      documents: documentCount,
      note: 'same index, shared through SharedArrayBuffers; the whole query set as one batch; needs a free second core',
      async build() {
        pool = await createBm25WorkerPool(index, { threads });
      },
      run: async (batch) => (await (pool as NonNullable<typeof pool>).searchBatch(batch, { topK: 10 })).map((result) => result.hits.map((hit) => hit.id)),
      dispose: () => pool?.close(),
    },
  ];
  if (peers.wink) {
    let engine: { search(text: string, limit: number): [string, number][] };
    contenders.push({
      name: 'wink-bm25-text-search 3.1 (same analyzer; its BM25)',
      peer: true,
      documents: documentCount,
      build(documents, sample) {
        const wink = winkBm25();
        wink.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 0.9, b: 0.4 } });
        wink.definePrepTasks([(text: string) => analyzer.analyze(text)]);
        let count = 0;
        for (const document of documents()) {
          wink.addDoc({ text: document.text }, document.id);
          if (++count % 10_000 === 0) sample();
        }
        wink.consolidate(4);
        engine = wink;
      },
      run: (batch) => batch.map((query) => engine.search(query, 10).map(([id]) => id)),
      release: () => {
        engine = undefined as unknown as typeof engine;
      },
    });
  }
  if (peers.miniSearch) {
    let mini: MiniSearch<Doc>;
    contenders.push({
      name: 'MiniSearch 7.2 (same analyzer; its BM25+)',
      peer: true,
      documents: documentCount,
      build(documents, sample) {
        mini = new MiniSearch<Doc>({
          fields: ['text'],
          idField: 'id',
          tokenize: (text) => analyzer.analyze(text),
          processTerm: (term) => term,
          searchOptions: { processTerm: (term) => term, tokenize: (text) => analyzer.analyze(text), bm25: { k: 0.9, b: 0.4, d: 0.5 } },
        });
        let chunk: Doc[] = [];
        for (const document of documents()) {
          chunk.push(document);
          if (chunk.length === 10_000) {
            mini.addAll(chunk);
            chunk = [];
            sample();
          }
        }
        mini.addAll(chunk);
      },
      release: () => {
        mini = undefined as unknown as MiniSearch<Doc>;
      },
      run: (batch) =>
        batch.map((query) =>
          mini
            .search(query)
            .slice(0, 10)
            .map((hit) => String(hit.id)),
        ),
    });
  }
  if (peers.orama) {
    let db: ReturnType<typeof create>;
    contenders.push({
      name: 'Orama 3.1 (same analyzer as its tokenizer)',
      peer: true,
      documents: documentCount,
      async build(documents, sample) {
        db = create({ schema: { docId: 'string', text: 'string' } as const, components: { tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: (raw: string) => analyzer.analyze(raw) } } });
        let chunk: { docId: string; text: string }[] = [];
        for (const document of documents()) {
          chunk.push({ docId: document.id, text: document.text });
          if (chunk.length === 10_000) {
            await insertMultiple(db, chunk, 10_000);
            chunk = [];
            sample();
          }
        }
        if (chunk.length > 0) await insertMultiple(db, chunk, 10_000);
      },
      release: () => {
        db = undefined as unknown as typeof db;
      },
      run: async (batch) => {
        const out: string[][] = [];
        for (const query of batch) {
          // Orama's generic result type is too deep for tsc; the hits are plain objects with our docId field.
          const search = oramaSearch as (database: unknown, params: Record<string, unknown>) => Promise<{ hits: { document: unknown }[] }>;
          const result = await search(db, { term: query, properties: ['text'], limit: 10, threshold: 1, relevance: { k: 0.9, b: 0.4, d: 0.5 } });
          out.push(result.hits.map((hit) => String((hit.document as { docId: string }).docId)));
        }
        return out;
      },
    });
  }

  const builds = new Map<string, { buildMs: number; retainedMb: number; peakBuildMb: number }>();
  for (const contender of contenders) {
    await settle();
    const before = memoryMb();
    let peak = before;
    const sample = (): void => {
      peak = Math.max(peak, memoryMb());
    };
    const begun = performance.now();
    await contender.build(makeDocuments, sample);
    const buildMs = performance.now() - begun;
    sample();
    await settle();
    // The factkit index's unwritten spare room is known once its build has finished: left out of its retained figure
    // (its peak figure, sampled during the build, still counts it: see the notes).
    const reserveMb = factkitReservedBytes / 2 ** 20;
    factkitReservedBytes = 0;
    builds.set(contender.name, { buildMs, retainedMb: memoryMb() - reserveMb - before, peakBuildMb: peak - before });
    process.stderr.write(`  ${name}: built ${contender.name} in ${(buildMs / 1000).toFixed(1)} s\n`);
  }
  // Warm-up pass (collects every contender's answers and calibrates how many passes one timed sample makes), then
  // interleaved timed rounds over the same query set. Peers take PEER_REPEATS samples, spread evenly over the rounds.
  const answers = new Map<string, string[][]>();
  const loops = new Map<string, number>();
  for (const contender of contenders) {
    answers.set(contender.name, await contender.run(queries));
    // Calibrate on a second pass: the first one pays one-time costs (JIT compilation, per-term bounds computed on
    // first use), which made fast contenders take one short pass per sample (noisy medians).
    const begun = performance.now();
    if (!contender.peer) await contender.run(queries);
    const passMs = performance.now() - begun;
    loops.set(contender.name, contender.peer ? 1 : Math.max(1, Math.min(1000, Math.ceil(TARGET_SAMPLE_MS / Math.max(passMs, 0.01)))));
  }
  const loadBeforeTiming = load();
  const capacity = [await parallelCapacity()];
  const times = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  const rounds = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  const peerRounds = new Set(Array.from({ length: Math.min(PEER_REPEATS, repeats) }, (_, i) => Math.floor(((i + 0.5) * repeats) / Math.min(PEER_REPEATS, repeats))));
  for (let round = 0; round < repeats; round++) {
    for (const contender of contenders) {
      if (contender.peer && !peerRounds.has(round)) continue;
      const passes = loops.get(contender.name) as number;
      const begun = performance.now();
      for (let pass = 0; pass < passes; pass++) await contender.run(queries);
      (times.get(contender.name) as number[]).push((performance.now() - begun) / passes);
      (rounds.get(contender.name) as number[]).push(round);
    }
    process.stderr.write(`  ${name}: round ${round + 1}/${repeats} done\n`);
  }
  capacity.push(await parallelCapacity());
  const loadAfter = load();
  const reference = answers.get(BASELINE_NAME) as string[][];
  let xapianNote: string | undefined;
  const results: ContenderResult[] = contenders.map((contender) => {
    const answer = answers.get(contender.name) as string[][];
    let overlap = 0;
    let identical = 0;
    answer.forEach((ids, position) => {
      const expected = reference[position] as string[];
      overlap += expected.length === 0 ? (ids.length === 0 ? 1 : 0) : ids.filter((id) => expected.includes(id)).length / expected.length;
      if (ids.length === expected.length && ids.every((id, rank) => id === expected[rank])) identical++;
    });
    const samples = times.get(contender.name) as number[];
    const middle = median(samples);
    return {
      name: contender.name,
      documents: contender.documents,
      ...(contender.note ? { note: contender.note } : {}),
      ...(builds.get(contender.name) as { buildMs: number; retainedMb: number; peakBuildMb: number }),
      queriesPerSecond: queries.length / (middle / 1000),
      samples: samples.length,
      loops: loops.get(contender.name) as number,
      spread: (Math.max(...samples) - Math.min(...samples)) / middle,
      sampleMs: samples.map((value) => Number(value.toFixed(3))),
      sampleRounds: rounds.get(contender.name) as number[],
      overlapAt10: overlap / answer.length,
      identicalTop10: identical / answer.length,
    };
  });
  let xapianAdjacent: CorpusResult['xapianAdjacent'];
  if (peers.xapian) {
    // The third-party JS peers are done: release their engines (wink holds 2+ GB at 500k) so the re-timing of 'auto'
    // and the baseline next to Xapian runs in a process holding only their two indexes.
    for (const contender of contenders) contender.release?.();
    await settle();
    const xapian = runXapian(makeDocuments, queries, analyzer, repeats);
    if (typeof xapian === 'string') {
      process.stderr.write(`  ${name}: Xapian skipped: ${xapian}\n`);
      xapianNote = xapian;
    } else {
      const ranked = xapian.answers;
      let overlap = 0;
      let identical = 0;
      ranked.forEach((ids, position) => {
        const expected = reference[position] as string[];
        overlap += expected.length === 0 ? (ids.length === 0 ? 1 : 0) : ids.filter((id) => expected.includes(id)).length / expected.length;
        if (ids.length === expected.length && ids.every((id, rank) => id === expected[rank])) identical++;
      });
      const middle = median(xapian.sampleMs);
      results.push({
        name: `Xapian ${xapian.version} (Python bindings, timed in its own process right after the rounds above; ${xapian.weighting})`,
        documents: documentCount,
        note: 'same analysed terms; its BM25 (Robertson idf, exact lengths, double arithmetic)',
        buildMs: xapian.buildSeconds * 1000,
        retainedMb: Number.NaN,
        peakBuildMb: Number.NaN,
        queriesPerSecond: xapian.queriesPerSecond,
        samples: xapian.sampleMs.length,
        loops: xapian.passes,
        spread: (Math.max(...xapian.sampleMs) - Math.min(...xapian.sampleMs)) / middle,
        overlapAt10: overlap / ranked.length,
        identicalTop10: identical / ranked.length,
      });
      // factkit 'auto' and the baseline re-timed (a warm-up pass, then 5 samples each, interleaved) right after Xapian (load drifts; this brackets the Xapian samples).
      const auto = contenders[1] as Contender;
      const base = contenders[0] as Contender;
      const autoMs: number[] = [];
      const baseMs: number[] = [];
      // One warm-up pass each first, as Xapian had: while Xapian ran, this process sat idle and the kernel may have
      // reclaimed or moved its cold pages (the index is re-read sparsely by 'auto', fully by the baseline).
      await base.run(queries);
      await auto.run(queries);
      for (let round = 0; round < 5; round++) {
        for (const [contender, into] of [
          [base, baseMs],
          [auto, autoMs],
        ] as const) {
          const passes = loops.get(contender.name) as number;
          const begun = performance.now();
          for (let pass = 0; pass < passes; pass++) await contender.run(queries);
          into.push((performance.now() - begun) / passes);
        }
      }
      xapianAdjacent = { autoQps: queries.length / (median(autoMs) / 1000), baselineQps: queries.length / (median(baseMs) / 1000), load: load(), samples: autoMs.length, peersReleased: true, warmUp: true };
    }
  }
  for (const contender of contenders) await contender.dispose?.();
  const finalMemory = measureMemory(factkitSharedBytes);
  return {
    ...(xapianAdjacent ? { xapianAdjacent } : {}),
    ...(xapianNote ? { xapianNote } : {}),
    memory: { arrayBuffersCountShared: finalMemory.arrayBuffersCountShared, factkitSharedBytes, rssMb: finalMemory.rssBytes / 2 ** 20, peakRssMb: finalMemory.peakRssBytes / 2 ** 20 },
    corpus: name,
    startedAt,
    seconds: (performance.now() - started) / 1000,
    documents: documentCount,
    queries: queries.length,
    querySet,
    repeats,
    peerRepeats: Math.min(PEER_REPEATS, repeats),
    load: { beforeBuild: loadBeforeBuild, beforeTiming: loadBeforeTiming, after: loadAfter },
    parallelCapacity: capacity,
    contenders: results,
  };
}

function sciFactDocuments(): Doc[] {
  const path = join(requireDataset('scifact'), 'corpus.jsonl.gz');
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const record = JSON.parse(line) as { _id: string; title: string; text: string };
      return { id: record._id, text: `${record.title} ${record.text}` };
    });
}

function sciFactQueries(): string[] {
  const path = join(requireDataset('scifact'), 'queries.jsonl');
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
}

/**
 * Every contender of a corpus answers the same `queries` (generated with seed 7; SciFact: all of its queries).
 * The third-party peers are 100–2,000× slower, so the large synthetic corpora use a smaller query set for everyone:
 * wink needs ~1.4 s per query at 500k. Orama (1 q/s at 50k) runs at 5k and on SciFact only.
 */
const PLAN: Record<string, { documents: number; queries: number; repeats: number; peers: { wink: boolean; miniSearch: boolean; orama: boolean; xapian: boolean } }> = {
  synthetic5k: { documents: 5_000, queries: 500, repeats: 9, peers: { wink: true, miniSearch: true, orama: true, xapian: true } },
  synthetic50k: { documents: 50_000, queries: 50, repeats: 9, peers: { wink: true, miniSearch: true, orama: false, xapian: true } },
  synthetic500k: { documents: 500_000, queries: 20, repeats: 9, peers: { wink: true, miniSearch: false, orama: false, xapian: true } },
  scifact: { documents: 5_183, queries: 1_049, repeats: 9, peers: { wink: true, miniSearch: true, orama: true, xapian: true } },
};

async function child(corpus: string): Promise<void> {
  const plan = PLAN[corpus];
  if (!plan) throw new Error(`unknown corpus ${corpus}`);
  const result =
    corpus === 'scifact'
      ? await (async () => {
          const documents = sciFactDocuments();
          const queries = sciFactQueries();
          return runCorpus('SciFact (BEIR corpus, Lucene English analyzer)', () => documents, documents.length, queries, 'all SciFact queries, the same for every contender', plan.repeats, createEnglishAnalyzer(), plan.peers);
        })()
      : await runCorpus(
          `synthetic ${plan.documents.toLocaleString('en')} docs (whitespace analyzer)`,
          () => generateDocuments(plan.documents),
          plan.documents,
          generateQueries(plan.queries),
          'generated with seed 7, the same for every contender',
          plan.repeats,
          whitespaceAnalyzer,
          plan.peers,
        );
  process.stdout.write(JSON.stringify({ key: corpus, ...result }));
}

const fmt = (value: number, digits = 2): string => value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (value: number): string => (Number.isFinite(value) ? fmt(value, 1) : 'n/a');

function formatMarkdown(results: (CorpusResult & { key: string })[], node: string): string {
  const lines = [
    '# factkit lexical benchmark',
    '',
    `Node ${node}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, shared with other engineers' builds while it ran (load averages per corpus below).`,
    'Every contender of a corpus is built and timed in the same process on the same query set, in interleaved rounds;',
    'q/s = query-set size / median sample time. Fast contenders loop over the query set within one sample (column',
    '"passes") so each sample lasts ≥ ~150 ms; peers (wink, MiniSearch, Orama) take 3 samples spread over the rounds.',
    'The baseline is a competent exhaustive BM25 scorer (`competent-exhaustive.ts`: CSR typed arrays, precomputed',
    'length factors, reused accumulators, inlined Lucene BM25 in float32, top-k heap; every posting scored). Its top-10',
    'is the reference; factkit must match it exactly (the bench exits non-zero otherwise). Peers use their own BM25',
    'flavours, so their agreement < 1 is expected. Memory = heap + ArrayBuffers retained after the build (GC forced),',
    "counted by bench/shared/memory.ts measureMemory (SharedArrayBuffers included: see each corpus's Memory line);",
    "factkit's retained figure leaves out its postings arrays' spare room (`statistics().reservedBytes`: address space",
    'reserved so later additions merge in place, which ArrayBuffer counts include but the process only makes resident',
    'once written); its peak = highest sampled during the build, which still counts that room (e.g. the 2^28-element',
    'reserve a large index takes at its first merge). Spread = (max − min) / median of the samples (a large one = disturbed).',
    'Xapian (python3-xapian, when installed) builds from the same analysed terms and is timed in its own Python process',
    "after the rounds (xapian_peer.py; BM25Weight at the same k1/b, min_normlen 0), so it has no paired ratio; 'auto' and",
    'the baseline are re-timed right after it. A corpus without a Xapian line ran before Xapian joined the bench.',
    '"Paired" = median over the rounds of (baseline time / contender time) within the same round, which cancels load',
    'that drifts between rounds (n/a for runs that did not keep per-round samples).',
    'Until 2026-11-23 the baseline was a plain scorer (Map of JS arrays, a new Float64Array per query, a',
    'function call per posting), which inflated the published ratios (e.g. ~17× at 500k); those figures are withdrawn.',
    '',
  ];
  for (const corpus of results) {
    const base = corpus.contenders[0] as ContenderResult;
    const find = (prefix: string): ContenderResult | undefined => corpus.contenders.find((contender) => contender.name.startsWith(prefix));
    const ratio = (a: ContenderResult | undefined, b: ContenderResult | undefined): string => (a && b ? `${fmt(a.queriesPerSecond / b.queriesPerSecond)}×` : 'n/a');
    /** Median over the rounds both were timed in of time(b) / time(a): load that drifts between rounds cancels out. */
    const paired = (a: ContenderResult | undefined, b: ContenderResult | undefined): string => {
      if (!a?.sampleMs || !a.sampleRounds || !b?.sampleMs || !b.sampleRounds) return 'n/a';
      const values: number[] = [];
      a.sampleRounds.forEach((round, i) => {
        const j = (b.sampleRounds as number[]).indexOf(round);
        if (j >= 0) values.push(((b.sampleMs as number[])[j] as number) / ((a.sampleMs as number[])[i] as number));
      });
      return values.length > 0 ? `${fmt(median(values))}×` : 'n/a';
    };
    lines.push(`## ${corpus.corpus}: ${corpus.queries.toLocaleString('en')} queries (${corpus.querySet}), ${corpus.repeats} rounds`, '');
    lines.push(
      `Run ${corpus.startedAt}, ${corpus.seconds.toFixed(0)} s. Load average (1/5/15 min) before the builds ${corpus.load.beforeBuild.join(' ')}, before timing ${corpus.load.beforeTiming.join(' ')}, after ${corpus.load.after.join(' ')}; ` +
        `parallel capacity before / after timing ${corpus.parallelCapacity.map((value) => value.toFixed(2)).join(' / ')} (2-thread vs 1-thread throughput of a fixed busy loop; 2.00 = two free cores).`,
      '',
    );
    lines.push('| contender | build s | retained MB | peak build MB | q/s | q/s vs baseline | paired vs baseline | samples × passes | spread | top-10 overlap | identical top-10 |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const contender of corpus.contenders) {
      const shared = contender.note?.startsWith('same index');
      lines.push(
        `| ${contender.name}${contender.note ? ` (${contender.note})` : ''} | ${shared ? '—' : fmt(contender.buildMs / 1000)} | ${shared ? '—' : mb(contender.retainedMb)} | ${shared ? '—' : mb(contender.peakBuildMb)} | ${fmt(contender.queriesPerSecond, 1)} | ${ratio(contender, base)} | ${paired(contender, base)} | ${contender.samples} × ${contender.loops} | ${fmt(contender.spread)} | ${contender.overlapAt10.toFixed(3)} | ${contender.identicalTop10.toFixed(3)} |`,
      );
    }
    const auto = find("factkit BM25, default 'auto'");
    lines.push(
      '',
      `Same-run ratios (q/s, same ${corpus.queries.toLocaleString('en')} queries): default 'auto' vs the competent exhaustive baseline ${ratio(auto, base)} (paired per round: ${paired(auto, base)}); 'maxscore' forced vs baseline ${ratio(find("factkit BM25, 'maxscore'"), base)}; ` +
        `'exhaustive' strategy vs baseline ${ratio(find("factkit BM25, 'exhaustive'"), base)}; 'auto' vs wink ${ratio(auto, find('wink'))}` +
        `${find('MiniSearch') ? `; 'auto' vs MiniSearch ${ratio(auto, find('MiniSearch'))}` : ''}${find('Orama') ? `; 'auto' vs Orama ${ratio(auto, find('Orama'))}` : ''}; ` +
        `worker-pool batch (2 threads) vs single-threaded batch ${ratio(find('factkit BM25, worker-pool'), find('factkit BM25, single-threaded batch'))}.`,
      '',
    );
    const xapian = find('Xapian');
    if (xapian && corpus.xapianAdjacent) {
      const adjacent = corpus.xapianAdjacent;
      lines.push(
        `Xapian: 'auto' vs Xapian ${ratio(auto, xapian)} (factkit's median from the rounds; Xapian was timed in its own process afterwards, so no paired ratio). ` +
          `Re-timed right after Xapian (${adjacent.peersReleased ? 'third-party JS peers released first; ' : ''}${adjacent.warmUp === false ? '' : 'a warm-up pass, then '}${adjacent.samples ?? 5} interleaved samples each, load ${adjacent.load.join(' ')}): 'auto' ${fmt(adjacent.autoQps, 1)} q/s, baseline ${fmt(adjacent.baselineQps, 1)} q/s → 'auto' vs Xapian ${fmt(adjacent.autoQps / xapian.queriesPerSecond)}×, baseline vs Xapian ${fmt(adjacent.baselineQps / xapian.queriesPerSecond)}×.`,
        '',
      );
    } else if (corpus.xapianNote) {
      lines.push(`Xapian: not run (${corpus.xapianNote}).`, '');
    }
    if (corpus.memory) {
      const memory = corpus.memory;
      lines.push(
        `Memory (bench/shared/memory.ts measureMemory): process.memoryUsage().arrayBuffers ${memory.arrayBuffersCountShared ? 'includes' : 'does NOT include'} SharedArrayBuffers on this Node (probed)` +
          `${memory.arrayBuffersCountShared ? '' : ", so the index's own SharedArrayBuffer bytes were added"}; the factkit index holds ${fmt(memory.factkitSharedBytes / 2 ** 20, 1)} MB in SharedArrayBuffers; ` +
          `this corpus's process ended at ${fmt(memory.rssMb, 0)} MB RSS (peak ${fmt(memory.peakRssMb, 0)} MB, every contender and peer included).`,
        '',
      );
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const directory = fileURLToPath(new URL('./results/', import.meta.url));
  const jsonPath = `${directory}lexical-bench.json`;
  type Saved = { node: string; results: (CorpusResult & { key: string })[] };
  if (process.argv.includes('--format')) {
    // Re-render the Markdown from the last JSON result without re-running.
    const saved = JSON.parse(readFileSync(jsonPath, 'utf8')) as Saved;
    const markdown = formatMarkdown(saved.results, saved.node);
    writeFileSync(`${directory}lexical-bench.md`, markdown);
    process.stdout.write(markdown);
    return;
  }
  const corpusArgument = process.argv.indexOf('--corpus');
  if (corpusArgument >= 0) {
    await child(process.argv[corpusArgument + 1] as string);
    return;
  }
  const onlyArgument = process.argv.indexOf('--only');
  const only = onlyArgument >= 0 ? (process.argv[onlyArgument + 1] as string).split(',') : Object.keys(PLAN);
  for (const corpus of only) if (!PLAN[corpus]) throw new Error(`unknown corpus ${corpus} (known: ${Object.keys(PLAN).join(', ')})`);
  // --only re-runs some corpora and keeps the saved results of the others (e.g. to re-run a disturbed row).
  const saved: Saved = onlyArgument >= 0 && existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as Saved) : { node: process.version, results: [] };
  saved.results = saved.results.filter((entry) => typeof entry.key === 'string' && entry.load !== undefined); // drop older formats
  let mismatch = false;
  for (const corpus of only) {
    process.stderr.write(`corpus ${corpus} (load average ${load().join(' ')})\n`);
    const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--corpus', corpus], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 });
    const result = JSON.parse(output) as CorpusResult & { key: string };
    for (const contender of result.contenders) {
      if (contender.name.startsWith('factkit') && contender.identicalTop10 !== 1) {
        mismatch = true;
        process.stderr.write(`MISMATCH: ${corpus}: ${contender.name} has identical top-10 on ${(contender.identicalTop10 * 100).toFixed(1)} % of the queries only\n`);
      }
    }
    const position = saved.results.findIndex((entry) => entry.key === corpus);
    if (position >= 0) saved.results[position] = result;
    else saved.results.push(result);
    // Saved after every corpus, so an interrupted run keeps the corpora it finished.
    const order = Object.keys(PLAN);
    saved.results.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
    saved.node = process.version;
    mkdirSync(directory, { recursive: true });
    writeFileSync(jsonPath, `${JSON.stringify(saved, null, 2)}\n`);
    writeFileSync(`${directory}lexical-bench.md`, formatMarkdown(saved.results, saved.node));
  }
  process.stdout.write(formatMarkdown(saved.results, saved.node));
  if (mismatch) {
    process.stderr.write('factkit and the competent exhaustive baseline disagree on some top-10s: the figures above are not comparable.\n');
    process.exitCode = 1;
  }
}

await main();
