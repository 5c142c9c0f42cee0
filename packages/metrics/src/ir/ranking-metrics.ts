import { assertFiniteNumber, assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import type { ParsedMeasure } from './metric-names.js';
import { buildQueryFacts, measureValue } from './query-evaluation.js';

/** Options of `computeNdcgAtK` and `computeRecallAtK`. */
export interface CutoffMetricOptions {
  /** Cutoff rank. */
  k: number;
  /** Minimum relevance level counted as relevant (trec_eval `-l`). @default 1 */
  relevanceLevel?: number;
}
/** Options of the single-query helpers without a cutoff. */
export type RankingMetricOptions = Omit<CutoffMetricOptions, 'k'>;

function compute(where: string, ranking: readonly string[], judgments: Readonly<Record<string, number>>, measure: ParsedMeasure, relevanceLevel: number | undefined): number {
  if (!Array.isArray(ranking)) throw new InvalidArgumentError({ where, argument: 'ranking', message: 'must be an array of document ids in rank order' });
  const seen = new Set<string>();
  for (const documentId of ranking) {
    if (typeof documentId !== 'string') throw new InvalidArgumentError({ where, argument: 'ranking', message: `must contain document id strings (got ${String(documentId)})` });
    if (seen.has(documentId)) throw new InvalidArgumentError({ where, argument: 'ranking', message: `lists document "${documentId}" twice` });
    seen.add(documentId);
  }
  if (typeof judgments !== 'object' || judgments === null) throw new InvalidArgumentError({ where, argument: 'judgments', message: 'must map document ids to relevance levels' });
  for (const [documentId, level] of Object.entries(judgments)) {
    if (typeof level !== 'number' || !Number.isFinite(level)) {
      throw new InvalidArgumentError({ where, argument: 'judgments', message: `has a non-finite level for "${documentId}" (${String(level)})` });
    }
  }
  const level = relevanceLevel ?? 1;
  assertFiniteNumber('relevanceLevel', level, where);
  if ('k' in measure) assertPositiveInteger('k', measure.k, where);
  return measureValue(measure, buildQueryFacts(ranking, judgments, level));
}

/** Fraction of relevant documents found in the top k (trec_eval `recall_k`; 0 when there are none). @example computeRecallAtK(['a', 'b'], { a: 1, c: 1 }, { k: 2 }) // 0.5 */
export function computeRecallAtK(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: CutoffMetricOptions): number {
  return compute('computeRecallAtK', ranking, judgments, { name: 'recall', family: 'recall', k: options.k }, options.relevanceLevel);
}
/** Relevant documents in the top k divided by k, even when fewer than k were retrieved (trec_eval `P_k`). */
export function computePrecisionAtK(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: CutoffMetricOptions): number {
  return compute('computePrecisionAtK', ranking, judgments, { name: 'P', family: 'P', k: options.k }, options.relevanceLevel);
}
/** trec_eval `ndcg_cut_k`: gain = relevance level, discount log2(rank+1), ideal DCG from every judged document. */
export function computeNdcgAtK(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: CutoffMetricOptions): number {
  return compute('computeNdcgAtK', ranking, judgments, { name: 'ndcg_cut', family: 'ndcg_cut', k: options.k }, options.relevanceLevel);
}
/** Reciprocal rank of the first relevant document, 0 if none (trec_eval `recip_rank`; its mean is MRR). */
export function computeReciprocalRank(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: RankingMetricOptions = {}): number {
  return compute('computeReciprocalRank', ranking, judgments, { name: 'recip_rank', family: 'recip_rank' }, options.relevanceLevel);
}
/** Average precision: precision at each relevant retrieved document, summed, over all relevant (trec_eval `map`). */
export function computeAveragePrecision(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: RankingMetricOptions = {}): number {
  return compute('computeAveragePrecision', ranking, judgments, { name: 'map', family: 'map' }, options.relevanceLevel);
}
