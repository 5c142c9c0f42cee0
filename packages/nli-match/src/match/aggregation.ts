import type { NliLabel, NliPrediction } from '@factkit/core';
import { assertProbability, InvalidArgumentError } from '@factkit/core';

/**
 * How the (evidence x sentence) label matrix becomes matched / unmatched.
 * - `any` (the paper): matched if at least one pair is entailment.
 * - `max`: matched if the highest entailment score over all pairs is >= `threshold` (scores from the model; a label
 *   without scores counts 1 for entailment, 0 otherwise).
 * - `majority`: matched if more than half of the gold evidence items entail at least one generated sentence.
 * - `threshold`: matched if at least `minFraction` of the gold evidence items entail at least one sentence.
 */
export type MatchAggregation =
  | 'any'
  | 'max'
  | 'majority'
  | { readonly type: 'any' }
  | { readonly type: 'max' /** @default 0.5 */; readonly threshold?: number }
  | { readonly type: 'majority' }
  | { readonly type: 'threshold'; readonly minFraction: number };

export interface AggregationOutcome {
  /**
   * Matched (M) or unmatched (¬M); null (unknown) when some pairs got no NLI label and the labels that did come back
   * cannot decide the outcome on their own (e.g. no entailment among them under 'any'). A failed NLI call is never
   * read as "not entailment".
   */
  readonly matched: boolean | null;
  /** any: 1/0; max: highest entailment score; majority/threshold: fraction of evidence items entailing some sentence (labelled pairs only). */
  readonly score: number;
}

/** Validates and normalises an aggregation option. @throws InvalidArgumentError */
export function resolveAggregation(aggregation: MatchAggregation | undefined, where: string): Exclude<MatchAggregation, string> {
  const value = aggregation ?? 'any';
  const resolved = typeof value === 'string' ? ({ type: value } as Exclude<MatchAggregation, string>) : value;
  switch (resolved?.type) {
    case 'any':
    case 'majority':
      return resolved;
    case 'max': {
      const threshold = resolved.threshold ?? 0.5;
      assertProbability('aggregation.threshold', threshold, where);
      return { type: 'max', threshold };
    }
    case 'threshold':
      if (!(resolved.minFraction > 0 && resolved.minFraction <= 1)) {
        throw new InvalidArgumentError({ where, argument: 'aggregation.minFraction', message: `must be in (0, 1] (got ${String(resolved.minFraction)})` });
      }
      return resolved;
    default:
      throw new InvalidArgumentError({ where, argument: 'aggregation', message: `must be 'any', 'max', 'majority' or { type: 'threshold', minFraction } (got ${JSON.stringify(value)})` });
  }
}

/** Entailment score of a prediction: the model's entailment probability, else 1 for an entailment label and 0 otherwise. */
export function entailmentScore(prediction: NliPrediction): number {
  const score = prediction.scores?.entailment;
  if (typeof score === 'number' && Number.isFinite(score)) return score;
  return prediction.label === 'entailment' ? 1 : 0;
}

/**
 * Applies an aggregation to a label matrix `predictions[evidenceIndex][sentenceIndex]`. Pairs without a label (a failed
 * or unreadable NLI call) are unknown: the outcome is decided only when it is the same whatever those labels would be,
 * otherwise `matched` is null. Pure.
 */
export function aggregateLabelMatrix(predictions: readonly (readonly NliPrediction[])[], aggregation: MatchAggregation = 'any'): AggregationOutcome {
  const rule = resolveAggregation(aggregation, 'aggregateLabelMatrix');
  const isEntailment = (prediction: NliPrediction) => prediction.label === ('entailment' satisfies NliLabel);
  const isUnknown = (prediction: NliPrediction) => prediction.label === null || prediction.label === undefined;
  const anyUnknown = predictions.some((row) => row.some(isUnknown));
  switch (rule.type) {
    case 'any': {
      const matched = predictions.some((row) => row.some(isEntailment));
      return { matched: matched ? true : anyUnknown ? null : false, score: matched ? 1 : 0 };
    }
    case 'max': {
      let best = 0;
      for (const row of predictions) for (const prediction of row) if (!isUnknown(prediction)) best = Math.max(best, entailmentScore(prediction));
      const threshold = rule.threshold ?? 0.5;
      const matched = best >= threshold && predictions.some((row) => row.length > 0);
      return { matched: matched ? true : anyUnknown ? null : false, score: best };
    }
    case 'majority':
    case 'threshold': {
      const decide = (fraction: number) => (rule.type === 'majority' ? fraction > 0.5 : fraction >= rule.minFraction);
      const rows = predictions.length;
      const covered = predictions.filter((row) => row.some(isEntailment)).length;
      const possible = predictions.filter((row) => row.some(isEntailment) || row.some(isUnknown)).length;
      const low = rows === 0 ? 0 : covered / rows;
      const high = rows === 0 ? 0 : possible / rows;
      const matched = decide(low) === decide(high) ? decide(low) : null;
      return { matched, score: low };
    }
  }
}
