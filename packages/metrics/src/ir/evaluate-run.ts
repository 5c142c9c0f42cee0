import type { Qrels, Run } from '@factkit/core';
import { assertFiniteNumber, InvalidArgumentError } from '@factkit/core';
import { compareCodePoints } from '../internal/compare.js';
import { COUNT_MEASURES, parseMeasureNames } from './metric-names.js';
import { buildQueryFacts, measureValue } from './query-evaluation.js';
import { rankDocuments } from './rank-documents.js';

export interface EvaluateRunOptions {
  /** Measure names in trec_eval/pytrec_eval spelling, e.g. `['ndcg_cut_10', 'recall_100', 'map', 'P.5,10']`. */
  metrics: readonly string[];
  /** Minimum relevance level counted as relevant (trec_eval `-l`); nDCG gains are unaffected. @default 1 */
  relevanceLevel?: number;
  /** Also average in qrels queries missing from the run, with 0 for every measure (trec_eval `-c`). @default false */
  completeQueries?: boolean;
}

export interface EvaluateRunResult {
  /** Expanded measure names, in request order. */
  readonly measures: readonly string[];
  /** Query id (byte order, as trec_eval prints) → measure → value. */
  readonly perQuery: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** trec_eval's `all` row: mean over evaluated queries; count measures (`num_*`) are sums. */
  readonly aggregate: Readonly<Record<string, number>>;
  /** Queries that were evaluated, in byte order. */
  readonly evaluatedQueries: readonly string[];
  /** Queries only in the run: ignored, as trec_eval does. */
  readonly runOnlyQueries: readonly string[];
  /** Queries only in the qrels: ignored by default, scored 0 with `completeQueries`. */
  readonly qrelsOnlyQueries: readonly string[];
}

function validateTable(table: unknown, argument: 'qrels' | 'run'): asserts table is Qrels {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new InvalidArgumentError({ where: 'evaluateRun', argument, message: 'must be an object of query id → document id → number' });
  }
  for (const [queryId, documents] of Object.entries(table)) {
    if (typeof documents !== 'object' || documents === null || Array.isArray(documents)) {
      throw new InvalidArgumentError({ where: 'evaluateRun', argument, message: `query "${queryId}" must map document ids to numbers` });
    }
    for (const [documentId, value] of Object.entries(documents as Record<string, unknown>)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new InvalidArgumentError({ where: 'evaluateRun', argument, message: `query "${queryId}", document "${documentId}" has a non-finite value (${String(value)})` });
      }
    }
  }
}

/**
 * Scores a run against qrels with trec_eval 9/10 semantics (ranking by score then docno descending, `-l`
 * threshold, `-c` for missing queries, means over evaluated queries).
 * @throws InvalidArgumentError for unknown measures, a bad `relevanceLevel`, or non-finite qrels/run values.
 * @example evaluateRun(qrels, run, { metrics: ['ndcg_cut_10', 'recall_100', 'map'] }).aggregate.map
 */
export function evaluateRun(qrels: Qrels, run: Run, options: EvaluateRunOptions): EvaluateRunResult {
  const { metrics, relevanceLevel = 1, completeQueries = false } = options;
  const measures = parseMeasureNames(metrics, 'evaluateRun');
  assertFiniteNumber('relevanceLevel', relevanceLevel, 'evaluateRun');
  validateTable(qrels, 'qrels');
  validateTable(run, 'run');

  const qrelsIds = Object.keys(qrels).sort(compareCodePoints);
  const runIds = new Set(Object.keys(run));
  const evaluatedQueries: string[] = [];
  const qrelsOnlyQueries: string[] = [];
  for (const queryId of qrelsIds) (runIds.has(queryId) ? evaluatedQueries : qrelsOnlyQueries).push(queryId);
  const runOnlyQueries = [...runIds].filter((queryId) => !Object.hasOwn(qrels, queryId)).sort(compareCodePoints);

  const scoredIds = completeQueries ? qrelsIds : evaluatedQueries;
  const perQueryRows: [string, Record<string, number>][] = [];
  const sums: Record<string, number> = {};
  for (const measure of measures) sums[measure.name] = 0;
  for (const queryId of scoredIds) {
    const judgments = qrels[queryId] ?? {};
    const scores = Object.hasOwn(run, queryId) ? run[queryId] : undefined;
    const ranking = scores === undefined ? [] : rankDocuments(scores);
    const facts = buildQueryFacts(ranking, judgments, relevanceLevel);
    const row: Record<string, number> = {};
    for (const measure of measures) {
      const value = measureValue(measure, facts);
      row[measure.name] = value;
      sums[measure.name] = (sums[measure.name] ?? 0) + value;
    }
    perQueryRows.push([queryId, row]);
  }
  const aggregate: Record<string, number> = {};
  for (const measure of measures) {
    const sum = sums[measure.name] ?? 0;
    aggregate[measure.name] = COUNT_MEASURES.has(measure.name) ? sum : scoredIds.length === 0 ? 0 : sum / scoredIds.length;
  }
  const perQuery: Record<string, Record<string, number>> = Object.fromEntries(perQueryRows);
  return { measures: measures.map((measure) => measure.name), perQuery, aggregate, evaluatedQueries: completeQueries ? qrelsIds : evaluatedQueries, runOnlyQueries, qrelsOnlyQueries };
}
