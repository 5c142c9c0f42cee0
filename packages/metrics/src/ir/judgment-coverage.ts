import type { Qrels, Run } from '@factkit/core';
import { compareCodePoints } from '../internal/compare.js';
import { rankDocuments } from './rank-documents.js';

export interface JudgmentCoverageOptions {
  /** Depth at which judged fractions are measured. @default 10 */
  k?: number;
}

export interface JudgmentCoverage {
  /** Queries in the run that the qrels do not know (trec_eval ignores them). */
  readonly runOnlyQueries: readonly string[];
  /** Queries judged in the qrels but absent from the run. */
  readonly qrelsOnlyQueries: readonly string[];
  /** Per evaluated query: retrieved documents that have no judgment (unknown document ids). */
  readonly unjudgedRetrieved: Readonly<Record<string, number>>;
  /** Per evaluated query: share of the top k (trec_eval order) that is judged. */
  readonly judgedAtK: Readonly<Record<string, number>>;
  /** Mean of `judgedAtK` over evaluated queries (0 when there are none). */
  readonly meanJudgedAtK: number;
}

/**
 * Reports ids a run and qrels disagree on: unknown queries either side and unjudged retrieved documents,
 * the usual reason why a new system's scores are underestimated on pooled judgments.
 */
export function summarizeJudgmentCoverage(qrels: Qrels, run: Run, options: JudgmentCoverageOptions = {}): JudgmentCoverage {
  const { k = 10 } = options;
  const runOnlyQueries = Object.keys(run)
    .filter((queryId) => !Object.hasOwn(qrels, queryId))
    .sort(compareCodePoints);
  const qrelsOnlyQueries = Object.keys(qrels)
    .filter((queryId) => !Object.hasOwn(run, queryId))
    .sort(compareCodePoints);
  const unjudged: [string, number][] = [];
  const judged: [string, number][] = [];
  for (const queryId of Object.keys(run)
    .filter((id) => Object.hasOwn(qrels, id))
    .sort(compareCodePoints)) {
    const judgments = qrels[queryId]!;
    const ranking = rankDocuments(run[queryId]!);
    unjudged.push([queryId, ranking.filter((documentId) => !Object.hasOwn(judgments, documentId)).length]);
    const top = ranking.slice(0, k);
    judged.push([queryId, top.length === 0 ? 0 : top.filter((documentId) => Object.hasOwn(judgments, documentId)).length / top.length]);
  }
  const meanJudgedAtK = judged.length === 0 ? 0 : judged.reduce((sum, [, value]) => sum + value, 0) / judged.length;
  return { runOnlyQueries, qrelsOnlyQueries, unjudgedRetrieved: Object.fromEntries(unjudged), judgedAtK: Object.fromEntries(judged), meanJudgedAtK };
}
