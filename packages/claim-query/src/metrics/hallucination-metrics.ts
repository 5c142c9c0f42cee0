import { InvalidArgumentError } from '@factkit/core';
import { computeClassificationReport } from '@factkit/metrics';
import type { UnverifiableConvention } from '../align/label-segments.js';
import { toBinaryPrediction } from '../align/label-segments.js';
import type { SegmentLabel } from '../types.js';

/** One scored unit (a response or a sentence): gold label and the detector's label, or a failure. */
export interface ScoredSegment {
  /** Gold: true when the segment contains a hallucination. */
  readonly gold: boolean;
  /** Detector label; undefined when the detector failed on this item (call failure), which leaves it out of every rate. */
  readonly predicted?: SegmentLabel;
}

export interface BinaryScores {
  /** Items scored. */
  readonly n: number;
  readonly accuracy: number;
  /** F1 of the "hallucinated" class (the paper's hallucination F1). */
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
  /** Mean recall of the two classes; NaN when the gold has only one class. */
  readonly balancedAccuracy: number;
}

export interface HallucinationMetrics {
  /** Unverifiable predictions scored per `convention` (default: as not hallucinated, the paper's Tables 2/3). */
  readonly overall: BinaryScores;
  /** Unverifiable predictions left out (the paper's Tables 11/12). */
  readonly verifiableOnly: BinaryScores;
  /** Predictions that are 'unverifiable' (Table 2 "N unv."). */
  readonly nUnverifiable: number;
  /** Items left out because the detector failed on them. */
  readonly nFailed: number;
  readonly convention: UnverifiableConvention;
}

function score(gold: readonly boolean[], predicted: readonly boolean[]): BinaryScores {
  if (gold.length === 0) return { n: 0, accuracy: Number.NaN, f1: Number.NaN, precision: Number.NaN, recall: Number.NaN, balancedAccuracy: Number.NaN };
  const report = computeClassificationReport(
    gold.map((g) => (g ? 'hallucinated' : 'ok')),
    predicted.map((p) => (p ? 'hallucinated' : 'ok')),
    { labels: ['hallucinated', 'ok'] },
  );
  const h = report.perClass.hallucinated!;
  const bothClasses = gold.includes(true) && gold.includes(false);
  return { n: gold.length, accuracy: report.accuracy, f1: h.f1, precision: h.precision, recall: h.recall, balancedAccuracy: bothClasses ? report.macro.recall : Number.NaN };
}

/**
 * Appendix C metrics: accuracy and hallucination F1 (sklearn semantics, zero_division 0), overall (unverifiable
 * scored per `convention`) and on the verifiable part only, plus N unverifiable. Failed items are counted, never scored.
 * @throws InvalidArgumentError when `segments` is not an array.
 */
export function computeHallucinationMetrics(segments: readonly ScoredSegment[], options: { readonly convention?: Exclude<UnverifiableConvention, 'exclude'> } = {}): HallucinationMetrics {
  const { convention = 'not-hallucinated' } = options;
  if (!Array.isArray(segments)) throw new InvalidArgumentError({ where: 'computeHallucinationMetrics', argument: 'segments', message: 'must be an array' });
  const scored = segments.filter((segment) => segment.predicted !== undefined);
  const overallGold: boolean[] = [];
  const overallPredicted: boolean[] = [];
  const verifiableGold: boolean[] = [];
  const verifiablePredicted: boolean[] = [];
  let nUnverifiable = 0;
  for (const segment of scored) {
    const label = segment.predicted!;
    if (label === 'unverifiable') nUnverifiable += 1;
    overallGold.push(segment.gold);
    overallPredicted.push(toBinaryPrediction(label, convention)!);
    const strict = toBinaryPrediction(label, 'exclude');
    if (strict !== undefined) {
      verifiableGold.push(segment.gold);
      verifiablePredicted.push(strict);
    }
  }
  return {
    overall: score(overallGold, overallPredicted),
    verifiableOnly: score(verifiableGold, verifiablePredicted),
    nUnverifiable,
    nFailed: segments.length - scored.length,
    convention,
  };
}
