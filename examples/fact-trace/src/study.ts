import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeL2, type Document, type Embedder, type LanguageModel, type NliModel } from '@factkit/core';
import {
  buildFastTrackIndex,
  createClassTfidfLabeller,
  createFastTrack,
  createLlmKeywordLabeller,
  createLlmSupportJudge,
  createNliSupportJudge,
  deserializeFastTrackIndex,
  serializeFastTrackIndex,
  type FastTrackIndex,
  type IndexProgress,
  type SupportJudge,
} from '@factkit/fasttrack';
import { createBm25Retriever } from '@factkit/retrieval';
import type { TracingBenchmark } from './benchmark.js';
import { averagePrf, bestF1OverTopK, formatTable, setPrf, type TableRow } from './evaluate.js';

export interface StudyOptions {
  readonly benchmark: TracingBenchmark;
  readonly embedder: Embedder;
  /** Offline judge's NLI model. */
  readonly nli: NliModel;
  /** With a model: the paper's LLM labeller and judge too (wrap it with withCache to make runs resumable). */
  readonly llm?: LanguageModel;
  /** Folder for the saved index and reports. */
  readonly outDir: string;
  /** Name of this corpus (file names). */
  readonly name: string;
  readonly seed?: number;
  /** Clusterings in the ensemble rows (seeds seed, seed+1, …; same embeddings). 1 = no ensemble rows. @default 1 */
  readonly ensemble?: number;
  readonly log?: (line: string) => void;
}

export interface CostRow {
  readonly method: string;
  readonly corpus: number;
  readonly meanCandidates: number;
  readonly medianCandidates: number;
  readonly meanLlmCalls: number;
  readonly bruteForceLlmCalls: number;
  readonly meanTokens: number;
  readonly estimatedBruteForceTokens?: number;
  readonly meanLatencyMs: number;
}

export interface StudyResult {
  readonly rows: TableRow[];
  readonly costs: CostRow[];
  readonly timings: Record<string, number>;
  /** Queries left out of a row because the judge could not decide some of their candidates. */
  readonly excluded: Record<string, string[]>;
  readonly markdown: string;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Loads the saved index for this corpus and labeller, or builds and saves it (progress on `log`). */
async function loadOrBuildIndex(documents: readonly Document[], options: StudyOptions, labellerName: 'c-tf-idf' | 'llm', timings: Record<string, number>, seedOffset = 0, reuse?: FastTrackIndex): Promise<FastTrackIndex> {
  const suffix = seedOffset ? `-seed+${seedOffset}` : '';
  const path = join(options.outDir, `index-${options.name}-${options.embedder.id.replace(/[^\w.-]+/g, '_')}-${labellerName}${suffix}.ftix`);
  if (existsSync(path)) {
    const started = performance.now();
    const index = await deserializeFastTrackIndex(new Uint8Array(readFileSync(path)), { source: path });
    timings[`load index (${labellerName})`] = performance.now() - started;
    options.log?.(`loaded ${path}`);
    return index;
  }
  // Reuse the embeddings of an index saved with the other labeller (embedding is the slow stage).
  const other = join(options.outDir, `index-${options.name}-${options.embedder.id.replace(/[^\w.-]+/g, '_')}-${labellerName === 'llm' ? 'c-tf-idf' : 'llm'}.ftix`);
  let embeddings: Float32Array[] | undefined;
  if (reuse) {
    embeddings = Array.from({ length: reuse.embeddings.rows }, (_, row) => reuse.embeddings.data.slice(row * reuse.embeddings.dimensions, (row + 1) * reuse.embeddings.dimensions));
  } else if (existsSync(other)) {
    const saved = await deserializeFastTrackIndex(new Uint8Array(readFileSync(other)), { source: other });
    embeddings = Array.from({ length: saved.embeddings.rows }, (_, row) => saved.embeddings.data.slice(row * saved.embeddings.dimensions, (row + 1) * saved.embeddings.dimensions));
  }
  const labeller = labellerName === 'llm' && options.llm ? createLlmKeywordLabeller({ model: options.llm }) : createClassTfidfLabeller();
  let lastLine = 0;
  const onProgress = ({ stage, completed: done, total }: IndexProgress) => {
    const now = performance.now();
    if (now - lastLine > 2000 || done === total) {
      lastLine = now;
      options.log?.(`  ${stage}: ${done}/${total}`);
    }
  };
  const built = await buildFastTrackIndex(documents, { ...(embeddings ? { embeddings, embedderId: options.embedder.id } : { embedder: options.embedder }), labeller, seed: (options.seed ?? 0) + seedOffset, onProgress });
  for (const [stage, ms] of Object.entries(built.timings)) timings[`${stage} (${labellerName}${suffix})`] = ms;
  options.log?.(`built index: ${built.index.tree.leaves.length} leaves; embed ${(built.timings.embed / 1000).toFixed(1)} s, cluster ${(built.timings.cluster / 1000).toFixed(1)} s, label ${(built.timings.label / 1000).toFixed(1)} s`);
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(path, await serializeFastTrackIndex(built.index));
  return built.index;
}

/**
 * Runs Table 1's comparison on one corpus: BM25 and embedding similarity (best macro F1 over a single top-k), FastTrack
 * with the offline NLI judge, the stage-1 upper bound "Ours*" (perfect judge on the retrieved clusters) and, with an
 * LLM, FastTrack with the paper's keyword labeller and batched judge. Also the per-query cost beside brute force.
 */
export async function runStudy(options: StudyOptions): Promise<StudyResult> {
  const { benchmark, embedder, nli, llm, log } = options;
  const { documents, queries } = benchmark;
  const golds = queries.map((query) => query.gold);
  const timings: Record<string, number> = {};
  const index = await loadOrBuildIndex(documents, options, 'c-tf-idf', timings);

  // Baselines.
  let started = performance.now();
  const bm25 = createBm25Retriever(documents);
  const bm25Rankings: string[][] = [];
  for (const query of queries) bm25Rankings.push((await bm25.retrieve({ query: { text: query.claim }, topK: 100 })).evidence.map((evidence) => evidence.documentId));
  timings['bm25 (100 queries)'] = performance.now() - started;
  started = performance.now();
  const { embeddings: queryVectors } = await embedder.embed({ texts: queries.map((query) => query.claim), kind: 'query' });
  const { rows, dimensions, data } = index.embeddings;
  const normalized = new Float32Array(data.length);
  for (let row = 0; row < rows; row++) normalized.set(normalizeL2(data.subarray(row * dimensions, (row + 1) * dimensions)), row * dimensions);
  const embeddingRankings = queryVectors.map((vector) => {
    const query = normalizeL2(vector);
    const scores = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      let dot = 0;
      for (let column = 0; column < dimensions; column++) dot += (normalized[row * dimensions + column] as number) * (query[column] as number);
      scores[row] = dot;
    }
    return Array.from(scores.keys())
      .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b)
      .slice(0, 100)
      .map((row) => (documents[row] as Document).id);
  });
  timings['embedding similarity (100 queries)'] = performance.now() - started;

  const tableRows: TableRow[] = [bestF1OverTopK('BM25', bm25Rankings, golds), bestF1OverTopK(`Embedding similarity (${embedder.id})`, embeddingRankings, golds)];
  const costs: CostRow[] = [];
  const excluded: Record<string, string[]> = {};

  const runFastTrack = async (label: string, fastTrackIndex: FastTrackIndex | FastTrackIndex[], judge: SupportJudge, withUpperBound: boolean, centroidLeaves = 0) => {
    const fastTrack = createFastTrack({ index: fastTrackIndex, judge, embedder, centroidLeaves });
    const results: Array<{ precision: number; recall: number; f1: number }> = [];
    const upper: Array<{ precision: number; recall: number; f1: number }> = [];
    const candidates: number[] = [];
    const calls: number[] = [];
    const tokens: number[] = [];
    const latency: number[] = [];
    let bruteForceCalls = 0;
    const bruteForceTokens: number[] = [];
    const skipped: string[] = [];
    for (const [position, query] of queries.entries()) {
      const queryStarted = performance.now();
      const result = await fastTrack.trace(query.claim);
      latency.push(performance.now() - queryStarted);
      candidates.push(result.cost.candidatesJudged);
      calls.push(result.cost.llmCalls);
      tokens.push(result.cost.usage.totalTokens);
      bruteForceCalls = result.cost.bruteForce.llmCalls;
      if (result.cost.bruteForce.estimatedTokens !== undefined) bruteForceTokens.push(result.cost.bruteForce.estimatedTokens);
      const candidateIds = result.judgements.map((judgement) => judgement.documentId);
      if (withUpperBound) upper.push(setPrf(candidateIds.filter((id) => query.gold.includes(id)), query.gold));
      if (result.unjudged.length > 0) {
        skipped.push(query.id); // a failure is never a result: the query is left out of this row
        continue;
      }
      results.push(setPrf(result.supporting.map((document) => document.documentId), golds[position] as readonly string[]));
      if ((position + 1) % 20 === 0) log?.(`  ${label}: ${position + 1}/${queries.length} queries`);
    }
    tableRows.push(averagePrf(label, results));
    if (withUpperBound) tableRows.push(averagePrf(`Ours* (stage-1 upper bound of the row above)`, upper));
    if (skipped.length) excluded[label] = skipped;
    const mean = (values: readonly number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
    costs.push({
      method: label,
      corpus: documents.length,
      meanCandidates: mean(candidates),
      medianCandidates: median(candidates),
      meanLlmCalls: mean(calls),
      bruteForceLlmCalls: bruteForceCalls,
      meanTokens: mean(tokens),
      ...(bruteForceTokens.length ? { estimatedBruteForceTokens: mean(bruteForceTokens) } : {}),
      meanLatencyMs: mean(latency),
    });
  };

  started = performance.now();
  await runFastTrack(`FastTrack, offline judge (${nli.id}), c-TF-IDF labels`, index, createNliSupportJudge({ model: nli }), true);
  timings['fasttrack offline (100 queries)'] = performance.now() - started;
  started = performance.now();
  await runFastTrack(`FastTrack + 5 centroid leaves, offline judge, c-TF-IDF labels`, index, createNliSupportJudge({ model: nli }), true, 5);
  timings['fasttrack offline + centroids (100 queries)'] = performance.now() - started;
  const ensembleSize = options.ensemble ?? 1;
  if (ensembleSize > 1) {
    const members = [index];
    for (let offset = 1; offset < ensembleSize; offset++) members.push(await loadOrBuildIndex(documents, options, 'c-tf-idf', timings, offset, index));
    started = performance.now();
    await runFastTrack(`FastTrack, ensemble of ${ensembleSize} clusterings (seeds), offline judge`, members, createNliSupportJudge({ model: nli }), true);
    timings[`fasttrack offline ensemble of ${ensembleSize} (100 queries)`] = performance.now() - started;
  }
  if (llm) {
    const llmIndex = await loadOrBuildIndex(documents, options, 'llm', timings);
    started = performance.now();
    await runFastTrack(`FastTrack, LLM judge (${llm.id}), LLM labels`, llmIndex, createLlmSupportJudge({ model: llm }), true);
    timings['fasttrack llm (100 queries)'] = performance.now() - started;
  }

  const costLines = [
    '| method | corpus | candidates judged / query (mean, median) | share of corpus | LLM calls / query | brute-force LLM calls | tokens / query | est. brute-force tokens | latency / query (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...costs.map(
      (cost) =>
        `| ${cost.method} | ${cost.corpus} | ${cost.meanCandidates.toFixed(1)}, ${cost.medianCandidates} | ${((100 * cost.meanCandidates) / cost.corpus).toFixed(2)}% | ${cost.meanLlmCalls.toFixed(2)} | ${cost.bruteForceLlmCalls} | ${cost.meanTokens.toFixed(0)} | ${cost.estimatedBruteForceTokens?.toFixed(0) ?? '—'} | ${cost.meanLatencyMs.toFixed(1)} |`,
    ),
  ];
  const markdown = [
    `## ${options.name}: ${documents.length.toLocaleString('en')} documents, ${queries.length} queries`,
    '',
    `Corpus: ${Object.entries(benchmark.stats).map(([key, value]) => `${key} ${value}`).join(', ')}.`,
    '',
    formatTable(tableRows),
    '',
    costLines.join('\n'),
    '',
    Object.keys(excluded).length ? `Queries left out (judge failures): ${JSON.stringify(excluded)}` : 'No query was left out (every candidate was judged).',
    '',
    `Timings (ms): ${Object.entries(timings).map(([key, value]) => `${key} ${value.toFixed(0)}`).join('; ')}.`,
    '',
  ].join('\n');
  return { rows: tableRows, costs, timings, excluded, markdown };
}
