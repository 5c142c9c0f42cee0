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
  type FastTrackIndexProgress,
  type SupportJudge,
} from '@factkit/fasttrack';
import { runTraceStudy, type FastTrack, type TraceMethodRun } from '@factkit/fasttrack';
import { createBm25Retriever } from '@factkit/retrieval';
import type { TracingBenchmark } from './benchmark.js';

/** One row of Table 1: macro P/R/F1 over the queries scored (absent when none could be scored). */
export interface TableRow {
  readonly method: string;
  readonly f1?: number;
  readonly precision?: number;
  readonly recall?: number;
  /** The shared top-k cutoff of a ranking method (best mean F1 over k). */
  readonly k?: number;
  readonly queries: number;
}

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
  const onProgress = ({ stage, completed: done, total }: FastTrackIndexProgress) => {
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

const mean = (values: readonly number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
const fixed = (value: number | undefined, digits = 3) => (value === undefined ? '—' : value.toFixed(digits));

/** Embedding-similarity ranking of the whole corpus for each query (cosine over the index's own document vectors). */
async function embeddingRankings(index: FastTrackIndex, embedder: Embedder, claims: readonly string[], documents: readonly Document[]): Promise<string[][]> {
  const { embeddings: queryVectors } = await embedder.embed({ texts: claims, kind: 'query' });
  const { rows, dimensions, data } = index.embeddings;
  const normalized = new Float32Array(data.length);
  for (let row = 0; row < rows; row++) normalized.set(normalizeL2(data.subarray(row * dimensions, (row + 1) * dimensions)), row * dimensions);
  return queryVectors.map((vector) => {
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
}

/** The per-query cost of a FastTrack row beside brute force. */
function costOf(method: TraceMethodRun, corpus: number): CostRow {
  const results = method.perStatement.flatMap((run) => (run.result ? [run.result] : []));
  const bruteForceTokens = results.flatMap((result) => (result.cost.bruteForce.estimatedTokens === undefined ? [] : [result.cost.bruteForce.estimatedTokens]));
  return {
    method: method.method,
    corpus,
    meanCandidates: mean(results.map((result) => result.cost.candidatesJudged)),
    medianCandidates: median(results.map((result) => result.cost.candidatesJudged)),
    meanLlmCalls: mean(results.map((result) => result.cost.llmCalls)),
    bruteForceLlmCalls: results.at(-1)?.cost.bruteForce.llmCalls ?? 0,
    meanTokens: mean(results.map((result) => result.cost.usage.totalTokens)),
    ...(bruteForceTokens.length ? { estimatedBruteForceTokens: mean(bruteForceTokens) } : {}),
    meanLatencyMs: mean(method.perStatement.flatMap((run) => (run.latencyMs === undefined ? [] : [run.latencyMs]))),
  };
}

function formatMarkdown(options: StudyOptions, rows: readonly TableRow[], costs: readonly CostRow[], excluded: Record<string, string[]>, timings: Record<string, number>): string {
  const { benchmark } = options;
  return [
    `## ${options.name}: ${benchmark.documents.length.toLocaleString('en')} documents, ${benchmark.queries.length} queries`,
    '',
    `Corpus: ${Object.entries(benchmark.stats).map(([key, value]) => `${key} ${value}`).join(', ')}.`,
    '',
    '| method | F1 | Precision | Recall | k | queries |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.method} | ${fixed(row.f1)} | ${fixed(row.precision)} | ${fixed(row.recall)} | ${row.k ?? '—'} | ${row.queries} |`),
    '',
    '| method | corpus | candidates judged / query (mean, median) | share of corpus | LLM calls / query | brute-force LLM calls | tokens / query | est. brute-force tokens | latency / query (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...costs.map(
      (cost) =>
        `| ${cost.method} | ${cost.corpus} | ${cost.meanCandidates.toFixed(1)}, ${cost.medianCandidates} | ${((100 * cost.meanCandidates) / cost.corpus).toFixed(2)}% | ${cost.meanLlmCalls.toFixed(2)} | ${cost.bruteForceLlmCalls} | ${cost.meanTokens.toFixed(0)} | ${fixed(cost.estimatedBruteForceTokens, 0)} | ${cost.meanLatencyMs.toFixed(1)} |`,
    ),
    '',
    Object.keys(excluded).length ? `Queries left out (judge failures): ${JSON.stringify(excluded)}` : 'No query was left out (every candidate was judged).',
    '',
    `Timings (ms): ${Object.entries(timings).map(([key, value]) => `${key} ${value.toFixed(0)}`).join('; ')}.`,
    '',
  ].join('\n');
}

/**
 * Runs Table 1's comparison on one corpus through `runTraceStudy` (@factkit/fasttrack): BM25 and embedding similarity
 * (best macro F1 over one top-k), FastTrack with the offline NLI judge (also with 5 centroid leaves, and an ensemble of
 * clusterings), each with its stage-1 upper bound "Ours*", and, with an LLM, FastTrack with the paper's keyword
 * labeller and batched judge. Also the per-query cost beside brute force.
 */
export async function runStudy(options: StudyOptions): Promise<StudyResult> {
  const { benchmark, embedder, nli, llm } = options;
  const { documents, queries } = benchmark;
  const timings: Record<string, number> = {};
  const index = await loadOrBuildIndex(documents, options, 'c-tf-idf', timings);
  const offlineJudge = createNliSupportJudge({ model: nli });
  const tracers: { name: string; fastTrack: FastTrack }[] = [
    { name: `FastTrack, offline judge (${nli.id}), c-TF-IDF labels`, fastTrack: createFastTrack({ index, judge: offlineJudge, embedder }) },
    { name: 'FastTrack + 5 centroid leaves, offline judge, c-TF-IDF labels', fastTrack: createFastTrack({ index, judge: offlineJudge, embedder, centroidLeaves: 5 }) },
  ];
  const ensembleSize = options.ensemble ?? 1;
  if (ensembleSize > 1) {
    const members = [index];
    for (let offset = 1; offset < ensembleSize; offset++) members.push(await loadOrBuildIndex(documents, options, 'c-tf-idf', timings, offset, index));
    tracers.push({ name: `FastTrack, ensemble of ${ensembleSize} clusterings (seeds), offline judge`, fastTrack: createFastTrack({ index: members, judge: offlineJudge, embedder }) });
  }
  if (llm) {
    const llmIndex = await loadOrBuildIndex(documents, options, 'llm', timings);
    tracers.push({ name: `FastTrack, LLM judge (${llm.id}), LLM labels`, fastTrack: createFastTrack({ index: llmIndex, judge: createLlmSupportJudge({ model: llm }), embedder }) });
  }
  const started = performance.now();
  const study = await runTraceStudy({
    statements: queries.map((query) => ({ text: query.claim, gold: query.gold })),
    tracers,
    rankers: [
      { name: 'BM25', retriever: createBm25Retriever(documents) },
      { name: `Embedding similarity (${embedder.id})`, rankings: await embeddingRankings(index, embedder, queries.map((query) => query.claim), documents) },
    ],
    onProgress: ({ stage, completed, total }) => completed % 20 === 0 && completed > 0 && options.log?.(`  ${stage}: ${completed}/${total} queries`),
  });
  timings[`trace study (${queries.length} queries)`] = performance.now() - started;
  const rows: TableRow[] = study.methods.map((method) => ({
    method: method.method,
    ...(method.scores ? { f1: method.scores.f1.mean, precision: method.scores.precision.mean, recall: method.scores.recall.mean } : {}),
    ...(method.k === undefined ? {} : { k: method.k }),
    queries: method.scores?.statements ?? 0,
  }));
  const costs = study.methods.filter((method) => method.kind === 'fasttrack').map((method) => costOf(method, documents.length));
  const excluded: Record<string, string[]> = {};
  for (const method of study.methods) {
    const left = method.perStatement.flatMap((run, position) => (run.incomplete ? [(queries[position] as { id: string }).id] : []));
    if (left.length) excluded[method.method] = left; // a failure is never a result: the query is left out of this row
  }
  return { rows, costs, timings, excluded, markdown: formatMarkdown(options, rows, costs, excluded, timings) };
}
