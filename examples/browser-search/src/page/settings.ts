import type { Qrels } from '@factkit/core';

/** Shared by the page, the build script and the tests (so the Node run searches exactly like the page). */
export const RESULTS_SHOWN = 10;
/** Hits per claim in the evaluated run (BEIR / Anserini use 1000). */
export const EVALUATION_DEPTH = 1000;
export const MEASURES = ['ndcg_cut_10', 'recall_100', 'map'] as const;
export const INDEX_FILE = 'scifact.bm25';
export const EVALUATION_FILE = 'scifact-test.json';

/** What src/build.ts writes next to the index: the judged test claims and their qrels. */
export interface EvaluationData {
  readonly dataset: string;
  readonly split: string;
  readonly queries: readonly { readonly id: string; readonly text: string }[];
  readonly qrels: Qrels;
}
