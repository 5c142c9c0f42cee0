import { assertFiniteNumber, assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
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
/** trec_eval `ndcg` over the whole ranking. */
export function computeNdcg(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: RankingMetricOptions = {}): number {
  return compute('computeNdcg', ranking, judgments, { name: 'ndcg', family: 'ndcg' }, options.relevanceLevel);
}
/** 1 when a relevant document is in the top k, else 0 (trec_eval `success_k`, a.k.a. Top@k accuracy). */
export function computeSuccessAtK(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: CutoffMetricOptions): number {
  return compute('computeSuccessAtK', ranking, judgments, { name: 'success', family: 'success', k: options.k }, options.relevanceLevel);
}
/** Reciprocal rank of the first relevant document, 0 if none (trec_eval `recip_rank`; its mean is MRR). */
export function computeReciprocalRank(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: RankingMetricOptions = {}): number {
  return compute('computeReciprocalRank', ranking, judgments, { name: 'recip_rank', family: 'recip_rank' }, options.relevanceLevel);
}
/** Average precision: precision at each relevant retrieved document, summed, over all relevant (trec_eval `map`). */
export function computeAveragePrecision(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: RankingMetricOptions = {}): number {
  return compute('computeAveragePrecision', ranking, judgments, { name: 'map', family: 'map' }, options.relevanceLevel);
}

/** Result of `computeBestF1OverTopK`. */
export interface BestF1 {
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
  /** Cutoff that gives the best F1 (smallest on ties; 0 when nothing relevant is retrieved). */
  readonly k: number;
}

/**
 * Best F1 over cutoffs k = 1..maxK of a ranking, with the precision and recall at that cutoff (FastTrack's way of
 * comparing ranked baselines with set-valued methods).
 * @throws InvalidArgumentError for duplicate ids, non-finite judgments or a bad `maxK`.
 */
export function computeBestF1OverTopK(ranking: readonly string[], judgments: Readonly<Record<string, number>>, options: RankingMetricOptions & { maxK?: number } = {}): BestF1 {
  const { maxK = ranking.length, relevanceLevel = 1 } = options;
  assertNonNegativeInteger('maxK', maxK, 'computeBestF1OverTopK');
  const numRel = compute('computeBestF1OverTopK', ranking, judgments, { name: 'num_rel', family: 'num_rel' }, relevanceLevel);
  let best: BestF1 = { f1: 0, precision: 0, recall: 0, k: 0 };
  if (numRel === 0) return best;
  let found = 0;
  const limit = Math.min(maxK, ranking.length);
  for (let index = 0; index < limit; index++) {
    const level = Object.hasOwn(judgments, ranking[index]!) ? judgments[ranking[index]!]! : undefined;
    if (level !== undefined && level >= relevanceLevel) found++;
    const precision = found / (index + 1);
    const recall = found / numRel;
    const f1 = found === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    if (f1 > best.f1) best = { f1, precision, recall, k: index + 1 };
  }
  return best;
}
