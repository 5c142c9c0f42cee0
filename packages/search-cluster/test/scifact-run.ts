import type { ProgressCallback, Qrels, Query, Run } from '@factkit/core';
import { evaluateRun } from '@factkit/metrics';
import { loadBeirDataset, streamBeirCorpus } from '@factkit/retrieval/node';
import { requireDataset } from '@factkit/test-utils/data';
import type { IndexDocumentsResult, SearchClusterRetriever } from '../src/index.js';

/** `@factkit/retrieval`'s in-process BM25 on the 240 SciFact test queries of the data root (packages/retrieval/test/scifact.test.ts). */
export const RETRIEVAL_SCIFACT = { ndcg_cut_10: 0.696649, recall_100: 0.917083, map: 0.659107 } as const;

export interface SciFactRun {
  readonly indexing: IndexDocumentsResult;
  readonly queries: number;
  readonly metrics: { readonly ndcg_cut_10: number; readonly recall_100: number; readonly map: number };
  readonly indexSeconds: number;
  readonly searchSeconds: number;
}

/** Streams the SciFact corpus into the retriever's index (creating it), runs the 240 test queries (top 1000) and evaluates. */
export async function runSciFact(retriever: SearchClusterRetriever, options: { onProgress?: ProgressCallback } = {}): Promise<SciFactRun> {
  const dataset = await loadBeirDataset(requireDataset('scifact'), { split: 'test' });
  const { problems } = await retriever.ensureIndex();
  if (problems.length > 0) throw new Error(`index ${retriever.index}: ${problems.map((problem) => problem.message).join('; ')}`);
  let started = performance.now();
  const indexing = await retriever.indexDocuments(streamBeirCorpus(dataset.corpusPath), { onProgress: options.onProgress });
  const indexSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const run: Record<string, Record<string, number>> = {};
  for (const query of dataset.queries as Query[]) {
    const { evidence } = await retriever.retrieve({ query, topK: 1000 });
    run[query.id as string] = Object.fromEntries(evidence.map((item) => [item.documentId, item.score]));
  }
  const searchSeconds = (performance.now() - started) / 1000;
  const { aggregate } = evaluateRun(dataset.qrels as Qrels, run as Run, { metrics: ['ndcg_cut_10', 'recall_100', 'map'] });
  return {
    indexing,
    queries: dataset.queries.length,
    metrics: { ndcg_cut_10: aggregate['ndcg_cut_10'] as number, recall_100: aggregate['recall_100'] as number, map: aggregate['map'] as number },
    indexSeconds,
    searchSeconds,
  };
}
