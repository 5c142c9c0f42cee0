import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';

/** Precision, recall and F1 of a predicted set of ids against a gold set. */
export interface SetScores {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/**
 * Scores a predicted set of ids (duplicates count once) against a non-empty gold set: precision = |P∩G| / |P| (0 when
 * nothing was predicted, scikit-learn's `zero_division=0`), recall = |P∩G| / |G|, F1 = their harmonic mean (0 when
 * nothing predicted is gold). FastTrack's set-valued P/R/F1 per statement.
 * @throws InvalidArgumentError when `gold` is empty (recall has no meaning without gold ids).
 * @example computeSetScores(['a', 'b'], ['b', 'c']) // { precision: 0.5, recall: 0.5, f1: 0.5 }
 */
export function computeSetScores(predicted: Iterable<string>, gold: Iterable<string>): SetScores {
  const goldSet = new Set(gold);
  if (goldSet.size === 0) throw new InvalidArgumentError({ where: 'computeSetScores', argument: 'gold', message: 'must hold at least one id' });
  const predictedSet = new Set(predicted);
  let hits = 0;
  for (const id of predictedSet) if (goldSet.has(id)) hits++;
  const precision = predictedSet.size === 0 ? 0 : hits / predictedSet.size;
  const recall = hits / goldSet.size;
  return { precision, recall, f1: hits === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Result of {@link computeBestMeanF1OverTopK}: the shared cutoff and the mean scores over queries at it. */
export interface BestMeanF1 extends SetScores {
  /** The one cutoff for every query (smallest on ties). */
  readonly k: number;
  /** Each query's scores at `k`, in input order. */
  readonly perQuery: readonly SetScores[];
}

/**
 * The ranking baseline of FastTrack's Table 1 (after Akyürek et al.): one cutoff k for all queries, chosen among
 * 1..maxK to maximise the mean (macro) F1 of the top-k sets; precision and recall are the means at that k. The k
 * is a threshold shared by every query, not picked per ranking.
 * @returns the best shared cutoff, or `undefined` for zero queries (no mean over zero samples).
 * @throws InvalidArgumentError when the lists differ in length, a gold set is empty or `maxK` is not a positive integer.
 * @example computeBestMeanF1OverTopK([['a', 'x'], ['y', 'b']], [['a'], ['b']]).k // 2
 */
export function computeBestMeanF1OverTopK(rankings: readonly (readonly string[])[], golds: readonly (readonly string[])[], options: { maxK?: number } = {}): BestMeanF1 | undefined {
  const where = 'computeBestMeanF1OverTopK';
  if (!Array.isArray(rankings) || !Array.isArray(golds) || rankings.length !== golds.length) {
    throw new InvalidArgumentError({ where, argument: 'golds', message: `must be an array as long as rankings (${Array.isArray(rankings) ? rankings.length : 'not an array'})` });
  }
  const { maxK = Math.max(1, ...rankings.map((ranking) => ranking.length)) } = options;
  assertPositiveInteger('maxK', maxK, where);
  if (rankings.length === 0) return undefined;
  let best: BestMeanF1 | undefined;
  for (let k = 1; k <= maxK; k++) {
    const perQuery = rankings.map((ranking, index) => computeSetScores(ranking.slice(0, k), golds[index] as readonly string[]));
    const mean = (pick: (scores: SetScores) => number) => perQuery.reduce((sum, scores) => sum + pick(scores), 0) / perQuery.length;
    const f1 = mean((scores) => scores.f1);
    if (!best || f1 > best.f1 + 1e-12) best = { k, precision: mean((scores) => scores.precision), recall: mean((scores) => scores.recall), f1, perQuery };
  }
  return best;
}
