// chunk-knowledge benchmark: offline annotation speed, indexing throughput per layout and store, index size per
// layout relative to chunk-only (the paper's index-size concern about Doc2Query).
//
//   pnpm --filter @factkit/chunk-knowledge bench            (BENCH_REPEATS=5, BENCH_ABSTRACTS=400 by default)
//   BENCH_USE_LITE=1 pnpm --filter @factkit/chunk-knowledge bench   (adds USE-lite passages/s per layout, 64 chunks, 1 run)
//
// Corpus: the first BENCH_ABSTRACTS SciFact abstracts of the data root's scifact/, sentence-chunked at 128 tokens.
// The indexing rows use core's hash mock embedder (cost of rendering + store upsert, not of a neural encoder) so the
// stores are compared on equal terms; USE-lite rows show what a real encoder costs. Results: bench/results/*.{json,md}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Embedder, VectorStore } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { createBm25Index, createDenseRetrieverFactory, createInMemoryVectorStore } from '@factkit/retrieval';
import { createHnswVectorStore } from '@factkit/retrieval/node';
import { requireDataset } from '@factkit/test-utils/data';
import type { AnnotatedChunk, IndexMode } from '../src/index.js';
import { renderIndexPassages } from '../src/indexing/vector-index.js';
import { PASSAGE_LAYOUTS, chunkDocuments, createChunkVectorRetriever, createOfflineAnnotator, createSentenceChunker } from '../src/index.js';

/** Vectors indexed for `items` in `mode` into `store` (through retrieval's dense factory, as users build it). */
async function indexChunks(items: readonly AnnotatedChunk[], embedder: Embedder, store: VectorStore, mode: IndexMode): Promise<number> {
  await createChunkVectorRetriever(items, { factory: createDenseRetrieverFactory({ embedder, createStore: () => store, batchSize: 64 }), mode });
  return store.count();
}

const here = dirname(fileURLToPath(import.meta.url));
const repeats = Number(process.env['BENCH_REPEATS'] ?? 5);
const abstracts = Number(process.env['BENCH_ABSTRACTS'] ?? 400);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const corpus = gunzipSync(readFileSync(join(requireDataset('scifact'), 'corpus.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .slice(0, abstracts)
  .map((line) => {
    const row = JSON.parse(line) as { _id: string; text: string };
    return { id: row._id, text: row.text };
  });
const { chunks } = chunkDocuments(corpus, { chunker: createSentenceChunker({ maxTokens: 128 }) });

// 1. Offline annotation speed.
const annotator = createOfflineAnnotator();
const annotationTimes: number[] = [];
let items: AnnotatedChunk[] = [];
for (let r = 0; r < repeats; r += 1) {
  const t0 = performance.now();
  items = chunks.map((chunk) => annotator.annotate(chunk));
  annotationTimes.push(performance.now() - t0);
}
const annotationMs = median(annotationTimes);
const chunksPerSecond = (chunks.length / annotationMs) * 1000;

// 2. Index size per layout vs chunk-only.
const modes: Array<{ name: string; mode: IndexMode }> = [...PASSAGE_LAYOUTS.map((layout) => ({ name: layout.name, mode: layout as IndexMode })), { name: 'multi-vector', mode: { multiVector: ['title', 'questions', 'chunk'] } }];
const sizeRows = modes.map(({ name, mode }) => {
  const { passages } = renderIndexPassages(items, mode);
  const index = createBm25Index({ documents: passages.map((passage) => ({ id: passage.id, text: passage.text })), storeDocuments: false });
  const stats = index.statistics();
  return { name, vectors: passages.length, characters: passages.reduce((sum, p) => sum + p.text.length, 0), bm25Postings: stats.postingCount, bm25Terms: stats.vocabularySize };
});
const base = sizeRows[0]!;

// 3. Indexing throughput per layout and store (mock embedder: rendering + embedding call + upsert).
const embedder = createMockEmbedder({ dimensions: 256 });
const stores: Array<{ name: string; make: (e: Embedder) => VectorStore }> = [
  { name: 'in-memory (exact)', make: (e) => createInMemoryVectorStore({ dimensions: e.dimensions }) },
  { name: 'hnsw', make: (e) => createHnswVectorStore({ dimensions: e.dimensions }) },
];
const throughputRows: Array<{ store: string; layout: string; passagesPerSecond: number; chunksPerSecond: number }> = [];
for (const store of stores) {
  for (const { name, mode } of modes) {
    const times: number[] = [];
    let recordCount = 0;
    for (let r = 0; r < repeats; r += 1) {
      const target = store.make(embedder);
      const t0 = performance.now();
      recordCount = await indexChunks(items, embedder, target, mode);
      times.push(performance.now() - t0);
    }
    const ms = median(times);
    throughputRows.push({ store: store.name, layout: name, passagesPerSecond: (recordCount / ms) * 1000, chunksPerSecond: (items.length / ms) * 1000 });
  }
}

// 4. Optional: a real encoder.
const useLiteRows: Array<{ layout: string; passagesPerSecond: number }> = [];
if (process.env['BENCH_USE_LITE'] === '1') {
  const { createUseLiteEmbedder } = await import('@factkit/use-lite');
  const useLite = createUseLiteEmbedder();
  const sample = items.slice(0, 64);
  await useLite.embed({ texts: ['warm up'], kind: 'passage' });
  for (const { name, mode } of modes) {
    const target = createInMemoryVectorStore({ dimensions: useLite.dimensions });
    const t0 = performance.now();
    const recordCount = await indexChunks(sample, useLite, target, mode);
    useLiteRows.push({ layout: name, passagesPerSecond: (recordCount / (performance.now() - t0)) * 1000 });
  }
}

const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; the machine is shared with other jobs, so absolute figures are noisy`;
const lines = [
  `# chunk-knowledge bench (${corpus.length} SciFact abstracts -> ${chunks.length} chunks; median of ${repeats} repeats)`,
  '',
  machine,
  '',
  `Offline annotator (lead sentence + RAKE templates, baseline): ${chunksPerSecond.toFixed(0)} chunks/s (${annotationMs.toFixed(1)} ms for ${chunks.length} chunks).`,
  '',
  '## Index size per layout (relative to case-1 = chunk only)',
  '',
  '| layout | vectors | × | characters | × | BM25 postings | × | BM25 terms |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...sizeRows.map(
    (row) =>
      `| ${row.name} | ${row.vectors} | ${(row.vectors / base.vectors).toFixed(2)} | ${row.characters} | ${(row.characters / base.characters).toFixed(2)} | ${row.bm25Postings} | ${(row.bm25Postings / base.bm25Postings).toFixed(2)} | ${row.bm25Terms} |`,
  ),
  '',
  '## Indexing throughput (hash mock embedder, 256-d; rendering + embed call + upsert)',
  '',
  '| store | layout | passages/s | chunks/s |',
  '|---|---|---:|---:|',
  ...throughputRows.map((row) => `| ${row.store} | ${row.layout} | ${row.passagesPerSecond.toFixed(0)} | ${row.chunksPerSecond.toFixed(0)} |`),
  ...(useLiteRows.length > 0 ? ['', '## USE-lite indexing (64 chunks, one run, in-memory store)', '', '| layout | passages/s |', '|---|---:|', ...useLiteRows.map((row) => `| ${row.layout} | ${row.passagesPerSecond.toFixed(1)} |`)] : []),
  '',
];
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results/chunk-knowledge.md'), lines.join('\n'));
writeFileSync(join(here, 'results/chunk-knowledge.json'), JSON.stringify({ machine, chunks: chunks.length, annotationMs, chunksPerSecond, sizeRows, throughputRows, useLiteRows }, null, 2));
process.stdout.write(lines.join('\n'));
