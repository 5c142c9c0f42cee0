// Table 1 on one corpus: the FastTrack tracers and the rankers, run through @factkit/fasttrack's runTraceStudy.
import type { Embedder, LanguageModel, NliModel } from '@factkit/core';
import { createFastTrack, createLlmSupportJudge, createNliSupportJudge, runTraceStudy, type FastTrack } from '@factkit/fasttrack';
import { createBm25Retriever } from '@factkit/retrieval';
import type { TracingBenchmark } from './benchmark.js';
import { embeddingRankings, loadOrBuildIndex } from './index-store.js';
import { costOf, formatMarkdown, type CostRow, type TableRow } from './report.js';

export type { CostRow, TableRow };

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

export interface StudyResult {
  readonly rows: TableRow[];
  readonly costs: CostRow[];
  readonly timings: Record<string, number>;
  /** Queries left out of a row because the judge could not decide some of their candidates. */
  readonly excluded: Record<string, string[]>;
  readonly markdown: string;
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
      {
        name: `Embedding similarity (${embedder.id})`,
        rankings: await embeddingRankings(
          index,
          embedder,
          queries.map((query) => query.claim),
          documents,
        ),
      },
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
