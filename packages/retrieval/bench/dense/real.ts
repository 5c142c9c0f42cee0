/**
 * Dense search on REAL embeddings: USE-lite (offline, 512-d) vectors of SciFact abstract sentences and of FEVER-lite
 * evidence sentences (subsets, see real-embeddings.ts), with held-out SciFact / FEVER-lite claims as queries. Per
 * collection, in the same run: exact float32 flat search (the truth: proven exact), int8 + exact re-ranking at several
 * shortlist sizes, and HNSW (`createHnswVectorStore`, usearch-backed, M = 16, efConstruction = 128) at several ef
 * settings — recall@10 against the exact flat search, share of queries with the identical top 10, and single-query q/s
 * (medians over interleaved rounds, one query at a time, as a retriever asks).
 *
 *   pnpm --filter @factkit/retrieval run bench:dense:real     (writes bench/dense/results/real-embeddings.{json,md})
 * The first run embeds ~12k sentences with USE-lite (~10–40 sentences/s here, progress on stderr) into a gitignored
 * cache (packages/retrieval/.factkit-cache/dense-real/); later runs read the cache and take seconds.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createFlatIndex, type FlatSearchHit } from '../../src/dense/flat-index.js';
import { createQuantizedFlatIndex } from '../../src/dense/quantized-flat-index.js';
import { createHnswVectorStore } from '../../src/node.js';
import { loadRealEmbeddings } from './real-embeddings.js';

const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);
const topK = 10;
// The store asks usearch for max(2k, k + 16) = 26 results, so an ef below 26 would act as 26.
const efSettings = [32, 64, 128, 256];
const shortlists: (number | 'exact')[] = ['exact', 10, 20, 100];
const binaryShortlists = (process.env['BENCH_BINARY_SHORTLISTS'] ?? '256,1024').split(',').map(Number);
const dimensions = 512;
const progress = (message: string) => process.stderr.write(`[bench:dense:real] ${new Date().toISOString().slice(11, 19)} ${message}\n`);
const load = () => os.loadavg().map((value) => Number(value.toFixed(2)));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadAverageAtStart: load() },
  embedder: 'USE-lite (@factkit/use-lite, 512-d, unit length), corpus texts as passages, claims as queries',
  settings: { topK, repeats, metric: 'cosine', hnsw: { library: 'usearch via createHnswVectorStore', connectivity: 16, expansionAdd: 128, efSettings }, int8Shortlists: shortlists, binaryPrefilterShortlists: binaryShortlists },
};

const collections = await loadRealEmbeddings(progress);
const report: Record<string, unknown>[] = [];
for (const collection of collections) {
  const rows = collection.corpus.length / dimensions;
  const queryCount = collection.queries.length / dimensions;
  progress(`${collection.name}: ${rows} corpus vectors, ${queryCount} query vectors`);
  const entries = Array.from({ length: rows }, (_, r) => ({ id: `s${r}`, vector: collection.corpus.subarray(r * dimensions, (r + 1) * dimensions) }));
  const queries = Array.from({ length: queryCount }, (_, q) => collection.queries.slice(q * dimensions, (q + 1) * dimensions));
  const flat = createFlatIndex({ dimensions, initialCapacity: rows });
  flat.upsert(entries);
  const truth = flat.searchBatch(queries, { topK });
  const int8 = createQuantizedFlatIndex({ dimensions, initialCapacity: rows });
  int8.upsert(entries);
  const compare = (hits: readonly (readonly { id: string }[])[]) => {
    let identical = 0;
    let found = 0;
    hits.forEach((list, q) => {
      const expected = (truth[q] as FlatSearchHit[]).map((hit) => hit.id);
      const actual = list.map((hit) => hit.id);
      if (JSON.stringify(actual) === JSON.stringify(expected)) identical += 1;
      const expectedSet = new Set(expected);
      found += actual.filter((id) => expectedSet.has(id)).length;
    });
    return { recallAt10: Number((found / (hits.length * topK)).toFixed(4)), identicalTop10Share: Number((identical / hits.length).toFixed(4)) };
  };
  const peers: { name: string; task: () => unknown; quality: () => Promise<{ recallAt10: number; identicalTop10Share: number; rerankedPerQuery?: number }>; buildSeconds?: number }[] = [
    { name: 'flat float32 (exact)', task: () => queries.forEach((query) => flat.search(query, { topK })), quality: async () => compare(queries.map((query) => flat.search(query, { topK }))) },
  ];
  for (const shortlist of shortlists) {
    peers.push({
      name: shortlist === 'exact' ? 'int8 + re-rank, exact (default)' : `int8 + re-rank, shortlist ${shortlist}`,
      task: () => queries.forEach((query) => int8.search(query, { topK, shortlist })),
      quality: async () => {
        let reranked = 0;
        const hits = queries.map((query) => {
          const found = int8.search(query, { topK, shortlist });
          reranked += int8.lastReranked;
          return found;
        });
        return { ...compare(hits), rerankedPerQuery: Number((reranked / queries.length).toFixed(1)) };
      },
    });
  }
  // Binary (sign-code) first stage: approximate; the prefilter shortlist is a fraction of these small collections.
  const binary = createQuantizedFlatIndex({ dimensions, initialCapacity: rows, prefilter: 'binary' });
  binary.upsert(entries);
  for (const prefilterShortlist of binaryShortlists) {
    peers.push({
      name: `binary prefilter ${prefilterShortlist} + int8 + exact re-rank`,
      task: () => queries.forEach((query) => binary.search(query, { topK, prefilterShortlist })),
      quality: async () => {
        let reranked = 0;
        const hits = queries.map((query) => {
          const found = binary.search(query, { topK, prefilterShortlist });
          reranked += binary.lastReranked;
          return found;
        });
        return { ...compare(hits), rerankedPerQuery: Number((reranked / queries.length).toFixed(1)) };
      },
    });
  }
  for (const ef of efSettings) {
    const store = createHnswVectorStore({ dimensions, connectivity: 16, expansionAdd: 128, expansionSearch: ef });
    const begin = performance.now();
    for (let start = 0; start < rows; start += 2000) await store.upsert({ records: entries.slice(start, start + 2000) });
    const buildSeconds = (performance.now() - begin) / 1000;
    progress(`${collection.name}: HNSW ef=${ef} built in ${buildSeconds.toFixed(1)} s`);
    const run = async () => {
      const out: { id: string }[][] = [];
      for (const query of queries) out.push((await store.query({ vector: query, topK })).matches);
      return out;
    };
    peers.push({ name: `HNSW (usearch) ef=${ef}`, task: run, quality: async () => compare(await run()), buildSeconds: Number(buildSeconds.toFixed(2)) });
  }
  for (const peer of peers) await peer.task();
  const loadBefore = load();
  const rates = new Map<string, number[]>(peers.map((peer) => [peer.name, []]));
  for (let round = 0; round < repeats; round += 1) {
    for (const peer of peers) {
      const begin = performance.now();
      await peer.task();
      rates.get(peer.name)!.push(queryCount / ((performance.now() - begin) / 1000));
    }
    progress(`${collection.name}: round ${round + 1}/${repeats} (load ${load().join(' ')})`);
  }
  const loadAfter = load();
  const flatRates = rates.get('flat float32 (exact)')!;
  const rowsOut = [];
  for (const peer of peers) {
    const values = rates.get(peer.name)!;
    rowsOut.push({
      peer: peer.name,
      ...(await peer.quality()),
      queriesPerSecond: Number(median(values).toFixed(1)),
      pairedRatioToFlat: Number(median(values.map((rate, round) => rate / (flatRates[round] as number))).toFixed(2)),
      ...(peer.buildSeconds === undefined ? {} : { buildSeconds: peer.buildSeconds }),
    });
  }
  const entry = { collection: collection.name, description: collection.description, corpusVectors: rows, queries: queryCount, loadAverage: { beforeTiming: loadBefore, afterTiming: loadAfter }, peers: rowsOut };
  report.push(entry);
  for (const row of rowsOut) progress(`${collection.name}: ${JSON.stringify(row)}`);
  await flat.close();
}
results['collections'] = report;

const outDirectory = fileURLToPath(new URL('./results/', import.meta.url));
const outName = process.env['BENCH_REAL_OUT'] ?? 'real-embeddings';
await mkdir(outDirectory, { recursive: true });
await writeFile(`${outDirectory}${outName}.json`, `${JSON.stringify(results, null, 2)}\n`);
const lines = [`# Dense search on real embeddings (${results['date'] as string})`, ''];
lines.push(
  `USE-lite (offline, 512-d) vectors, cosine, top-${topK}; truth = exact float32 flat search; q/s = median over ${repeats} interleaved rounds of all queries, one query at a time, one thread per query (usearch builds with all threads); ${os.cpus().length} CPUs shared with other engineers' work, Node ${process.version}.`,
  '',
);
for (const entry of report) {
  lines.push(`## ${entry['collection'] as string}`, '', `${entry['description'] as string}. Load average before / after timing: ${JSON.stringify(entry['loadAverage'])}.`, '');
  lines.push('| peer | recall@10 vs exact | identical top-10 | q/s | paired ratio to flat | rows re-ranked per query | build s |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of entry['peers'] as { peer: string; recallAt10: number; identicalTop10Share: number; queriesPerSecond: number; pairedRatioToFlat: number; rerankedPerQuery?: number; buildSeconds?: number }[]) {
    lines.push(`| ${row.peer} | ${row.recallAt10} | ${row.identicalTop10Share} | ${row.queriesPerSecond} | ${row.pairedRatioToFlat} | ${row.rerankedPerQuery ?? ''} | ${row.buildSeconds ?? ''} |`);
  }
  lines.push('');
}
await writeFile(`${outDirectory}${outName}.md`, lines.join('\n'));
process.stdout.write(lines.join('\n'));
