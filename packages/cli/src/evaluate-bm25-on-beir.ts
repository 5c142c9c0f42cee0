import type { ItemProblem, ProgressCallback, QueryExpander, Run } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { type EvaluateRunResult, evaluateRun } from '@factkit/metrics';
import { type Bm25Index, type Bm25IndexOptions, createBm25Retriever, createRm3Expander } from '@factkit/retrieval';
import { buildBm25IndexFromJsonl, findUnknownQrelsDocuments, loadBeirDataset } from '@factkit/retrieval/node';

export interface EvaluateBm25OnBeirOptions extends Pick<Bm25IndexOptions, 'k1' | 'b' | 'variant' | 'fields' | 'analyzer' | 'lengthEncoding'> {
  /** qrels split (`qrels/<split>.tsv`). @default 'test' */
  readonly split?: string;
  /** Hits per query kept in the run (BEIR/Anserini use 1000). @default 1000 */
  readonly hits?: number;
  /** trec_eval measure names. @default ['ndcg_cut_10', 'recall_100', 'recall_1000', 'map'] */
  readonly metrics?: readonly string[];
  /** Rerun with RM3 (Anserini defaults unless given). @default false */
  readonly rm3?: boolean | { fbDocs?: number; fbTerms?: number; originalQueryWeight?: number };
  /** Reuse an already-built index of the folder's corpus. */
  readonly index?: Bm25Index;
  readonly abortSignal?: AbortSignal;
  /**
   * Core `Progress` with `stage` 'index' then 'search'. Indexing streams the corpus, whose size is unknown until it
   * ends: while `stage` is 'index', `total` equals `completed` (documents read so far), and a last call gives the
   * indexed document count as both. Searching reports `completed` of `total` judged queries every 100 queries and at
   * the end. Not called for 'index' when `index` is given.
   */
  readonly onProgress?: ProgressCallback<'index' | 'search'>;
}

/** Indexing streams the corpus (its size unknown until the end), so `total` is the count so far. */
function reportIndexed(onProgress: ProgressCallback<'index' | 'search'>, documents: number): void {
  onProgress({ stage: 'index', completed: documents, total: documents });
}

export interface EvaluateBm25OnBeirResult {
  readonly evaluation: EvaluateRunResult;
  readonly run: Run;
  readonly index: Bm25Index;
  readonly queryCount: number;
  /** Judged queries without text, qrels naming unknown documents, corpus problems, per-query retrieval problems. */
  readonly problems: ItemProblem[];
}

/**
 * Runs BM25 (optionally + RM3) over every judged query of a BEIR folder through the public `Bm25Retriever` (and
 * `createRm3Expander`) and scores the run with @factkit/metrics (trec_eval semantics). What `factkit eval` prints.
 * @throws InvalidArgumentError for a missing folder/file, no judged query, an empty corpus or bad options; CorruptDataError for malformed files.
 * @example const { evaluation } = await evaluateBm25OnBeir('path/to/scifact'); evaluation.aggregate.ndcg_cut_10
 */
export async function evaluateBm25OnBeir(folder: string, options: EvaluateBm25OnBeirOptions = {}): Promise<EvaluateBm25OnBeirResult> {
  const { split = 'test', hits = 1000, metrics = ['ndcg_cut_10', 'recall_100', 'recall_1000', 'map'], rm3 = false, abortSignal, onProgress, index: givenIndex, ...indexOptions } = options;
  if (!Number.isInteger(hits) || hits < 1) throw new InvalidArgumentError({ where: 'evaluateBm25OnBeir', argument: 'hits', message: `must be a positive integer (got ${String(hits)})` });
  const signal = abortSignal ? { abortSignal } : {};
  const dataset = await loadBeirDataset(folder, { split, ...signal });
  // A metric over zero queries is absent, never 0: an empty split is bad input (issue 21 §2).
  if (dataset.queries.length === 0) throw new InvalidArgumentError({ where: 'evaluateBm25OnBeir', argument: 'folder', message: `has no judged query with text in split "${split}" (${folder}): nothing to score` });
  const problems: ItemProblem[] = [...dataset.problems];
  let index = givenIndex;
  if (!index) {
    const built = await buildBm25IndexFromJsonl(dataset.corpusPath, {
      ...indexOptions,
      storeDocuments: false,
      ...signal,
      ...(onProgress ? { onProgress: ({ completed }) => reportIndexed(onProgress, completed) } : {}),
    });
    index = built.index;
    problems.push(...built.problems);
    if (index.documentCount === 0) throw new InvalidArgumentError({ where: 'evaluateBm25OnBeir', argument: 'folder', message: `has an empty corpus (${dataset.corpusPath}): nothing to search` });
  }
  const target = index;
  problems.push(...findUnknownQrelsDocuments(dataset.qrels, (id) => target.hasDocument(id)));
  const retriever = createBm25Retriever(index);
  const expander: QueryExpander | undefined = rm3 ? createRm3Expander({ index, ...(typeof rm3 === 'object' ? rm3 : {}) }) : undefined;
  const run: Record<string, Record<string, number>> = {};
  let done = 0;
  for (const query of dataset.queries) {
    abortSignal?.throwIfAborted();
    const searched = expander ? await expander.expand({ query, ...signal }) : query;
    const result = await retriever.retrieve({ query: searched, topK: hits, ...signal });
    run[query.id as string] = Object.fromEntries(result.evidence.map((item) => [item.documentId, item.score]));
    for (const problem of result.problems ?? []) problems.push({ ...problem, id: query.id as string, message: `query "${query.id as string}": ${problem.message}` });
    done++;
    if (onProgress && (done % 100 === 0 || done === dataset.queries.length)) onProgress({ stage: 'search', completed: done, total: dataset.queries.length });
  }
  const evaluation = evaluateRun(dataset.qrels, run, { metrics });
  return { evaluation, run, index, queryCount: dataset.queries.length, problems };
}
