/**
 * Dense baseline yardstick on SciFact (BEIR test split = 240 dev claims with judgements in the data root's scifact/qrels/test.tsv):
 * USE-lite (offline, 512-d, @factkit/use-lite) + exact flat search, scored with @factkit/metrics `evaluateRun`
 * (trec_eval semantics). Also reported in the same run, as context: BM25 (this package's defaults), hybrid RRF
 * (BM25 + dense, k = 60) and dense + Rocchio feedback (α = 1, β = 0.75, 3 feedback documents).
 *
 *   pnpm --filter @factkit/retrieval run eval:dense-scifact     (writes bench/dense/results/scifact-baseline.{json,md})
 */
import { requireDataset } from '@factkit/test-utils/data';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withEmbeddingCache, type Retriever, type Run } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { evaluateRun } from '@factkit/metrics';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { loadBeirCorpus, loadBeirDataset } from '../../src/io/beir.js';
import { createBm25Retriever } from '../../src/bm25/bm25-retriever.js';
import { createDenseRetriever } from '../../src/dense/dense-retriever.js';
import { createRocchioExpander } from '../../src/feedback/rocchio-expander.js';
import { createHybridRetriever } from '../../src/fusion/hybrid-retriever.js';
import { createInMemoryVectorStore } from '../../src/stores/in-memory-vector-store.js';

const progress = (message: string) => process.stderr.write(`[scifact-dense] ${message}\n`);
const datasetFolder = requireDataset('scifact');
const depth = 100;
const metrics = ['ndcg_cut_10', 'recall_10', 'recall_100', 'map'];

const dataset = await loadBeirDataset(datasetFolder, { split: 'test' });
const documents = await loadBeirCorpus(dataset.corpusPath);
progress(`${documents.length} documents, ${dataset.queries.length} test queries`);

// Embeddings are cached on disk (content-addressed), so a re-run only scores; set FACTKIT_BENCH_CACHE to move it.
const cacheDirectory = process.env['FACTKIT_BENCH_CACHE'] ?? join(tmpdir(), 'factkit-bench-cache', 'use-lite');
const embedder = withEmbeddingCache(createUseLiteEmbedder(), createFileCache({ directory: cacheDirectory }));
const store = createInMemoryVectorStore({ dimensions: embedder.dimensions, metric: 'cosine' });
const dense = createDenseRetriever({ embedder, store });
let started = performance.now();
let lastReport = 0;
const indexResult = await dense.index({
  documents,
  onProgress: ({ completed, total }) => {
    if (completed - lastReport >= 1000 || completed === total) {
      lastReport = completed;
      progress(`embedded ${completed}/${total}`);
    }
  },
});
const embedSeconds = (performance.now() - started) / 1000;
progress(`indexed ${indexResult.indexed} documents in ${embedSeconds.toFixed(1)} s (${indexResult.problems.length} problems)`);

async function runOf(retriever: Retriever, transform?: (query: (typeof dataset.queries)[number]) => Promise<(typeof dataset.queries)[number]>): Promise<Run> {
  const run: Record<string, Record<string, number>> = {};
  for (const query of dataset.queries) {
    const effective = transform ? await transform(query) : query;
    const { evidence } = await retriever.retrieve({ query: effective, topK: depth });
    run[query.id as string] = Object.fromEntries(evidence.map((item) => [item.documentId, item.score]));
  }
  return run;
}

started = performance.now();
const denseRun = await runOf(dense);
const denseQuerySeconds = (performance.now() - started) / 1000;
const bm25 = createBm25Retriever(documents);
const bm25Run = await runOf(bm25);
const hybridRun = await runOf(createHybridRetriever({ retrievers: [bm25, dense], fusion: { method: 'rrf', k: 60 }, candidateDepth: depth }));
const rocchio = createRocchioExpander({ embedder, retriever: dense, alpha: 1, beta: 0.75, feedbackDocuments: 3, getVector: store.getVector });
const rocchioRun = await runOf(dense, (query) => rocchio.expand({ query }));

const scored = Object.fromEntries(
  Object.entries({ 'dense (USE-lite, exact cosine)': denseRun, 'BM25 (k1=0.9, b=0.4)': bm25Run, 'hybrid RRF (BM25 + dense, k=60)': hybridRun, 'dense + Rocchio (α=1, β=0.75, k=3)': rocchioRun }).map(([name, run]) => [
    name,
    evaluateRun(dataset.qrels, run, { metrics }).aggregate,
  ]),
);
const results = {
  date: new Date().toISOString(),
  dataset: 'SciFact BEIR test split (data root scifact/, qrels/test.tsv)',
  queries: dataset.queries.length,
  documents: documents.length,
  embedder: embedder.id,
  embeddingCache: cacheDirectory,
  embedSeconds: Number(embedSeconds.toFixed(1)),
  denseQuerySeconds: Number(denseQuerySeconds.toFixed(2)),
  depth,
  metrics: scored,
};
const outDirectory = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(outDirectory, { recursive: true });
await writeFile(`${outDirectory}scifact-baseline.json`, `${JSON.stringify(results, null, 2)}\n`);
const lines = [
  `# SciFact dense baseline (${results.date})`,
  '',
  `${results.queries} test queries, ${results.documents} documents, run depth ${depth}; embedding ${results.embedSeconds} s, dense querying ${results.denseQuerySeconds} s.`,
  '',
  `| system | ${metrics.join(' | ')} |`,
  `| --- | ${metrics.map(() => '---:').join(' | ')} |`,
  ...Object.entries(scored).map(([name, aggregate]) => `| ${name} | ${metrics.map((metric) => ((aggregate as Record<string, number>)[metric] ?? Number.NaN).toFixed(4)).join(' | ')} |`),
  '',
];
await writeFile(`${outDirectory}scifact-baseline.md`, lines.join('\n'));
process.stdout.write(lines.join('\n'));
