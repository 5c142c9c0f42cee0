import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NliLabel, NliPrediction } from '@factkit/core';
import { NLI_LABELS } from '@factkit/core';
import { aggregateLabelMatrix } from './aggregation.js';

const matrix = (labels: (NliLabel | null)[][], scores?: number[][]): NliPrediction[][] => labels.map((row, i) => row.map((label, j) => ({ label, ...(scores ? { scores: { entailment: scores[i]?.[j] ?? 0 } } : {}) })));

describe('aggregateLabelMatrix', () => {
  const threeByTwo = matrix([
    ['neutral', 'entailment'],
    ['neutral', 'neutral'],
    ['contradiction', 'neutral'],
  ]);

  it('any (paper): matched when one pair is entailment', () => {
    expect(aggregateLabelMatrix(threeByTwo, 'any')).toEqual({ matched: true, score: 1 });
    // A pair without a label (failed NLI call) may have been the entailment: unknown, never unmatched.
    expect(aggregateLabelMatrix(matrix([['neutral', null]]), 'any')).toEqual({ matched: null, score: 0 });
    expect(aggregateLabelMatrix(matrix([['entailment', null]]), 'any')).toEqual({ matched: true, score: 1 });
    expect(aggregateLabelMatrix(matrix([['neutral', 'contradiction']]), 'any')).toEqual({ matched: false, score: 0 });
  });

  it('majority/threshold/max with missing labels decide only when every completion of the matrix agrees', () => {
    // 2 of 3 rows entail: majority whatever the unknown is.
    expect(aggregateLabelMatrix(matrix([['entailment'], ['entailment'], [null]]), 'majority').matched).toBe(true);
    // 0 of 3 known, 1 unknown: at most 1/3 — unmatched whatever it is.
    expect(aggregateLabelMatrix(matrix([['neutral'], ['neutral'], [null]]), 'majority').matched).toBe(false);
    // 1 of 3 entail, 1 unknown: 1/3 or 2/3 — unknown.
    expect(aggregateLabelMatrix(matrix([['entailment'], ['neutral'], [null]]), 'majority').matched).toBeNull();
    expect(aggregateLabelMatrix(matrix([['neutral', null]]), 'max').matched).toBeNull();
  });

  it('majority: more than half of the evidence items covered (1 of 3 is not)', () => {
    expect(aggregateLabelMatrix(threeByTwo, 'majority')).toEqual({ matched: false, score: 1 / 3 });
    const twoOfThree = matrix([['entailment'], ['entailment'], ['neutral']]);
    expect(aggregateLabelMatrix(twoOfThree, 'majority')).toEqual({ matched: true, score: 2 / 3 });
    expect(aggregateLabelMatrix(matrix([['entailment'], ['neutral']]), 'majority').matched).toBe(false);
  });

  it('threshold: at least minFraction of the evidence items covered', () => {
    expect(aggregateLabelMatrix(threeByTwo, { type: 'threshold', minFraction: 1 / 3 }).matched).toBe(true);
    expect(aggregateLabelMatrix(threeByTwo, { type: 'threshold', minFraction: 0.5 }).matched).toBe(false);
  });

  it('max: uses the highest entailment probability, falling back to labels', () => {
    const scored = matrix([['neutral', 'neutral']], [[0.2, 0.45]]);
    expect(aggregateLabelMatrix(scored, 'max')).toEqual({ matched: false, score: 0.45 });
    expect(aggregateLabelMatrix(scored, { type: 'max', threshold: 0.4 })).toEqual({ matched: true, score: 0.45 });
    expect(aggregateLabelMatrix(threeByTwo, 'max')).toEqual({ matched: true, score: 1 });
  });

  it('properties: any = (an entailment exists, else unknown if a label is missing); majority implies any; decided outcomes survive any filling; empty matrix is unmatched', () => {
    const label = fc.constantFrom<NliLabel | null>(...NLI_LABELS, null);
    fc.assert(
      fc.property(fc.array(fc.array(label, { maxLength: 5 }), { maxLength: 5 }), (labels) => {
        const predictions = matrix(labels);
        const hasEntailment = labels.some((row) => row.includes('entailment'));
        const hasUnknown = labels.some((row) => row.includes(null));
        const expected = hasEntailment ? true : hasUnknown ? null : false;
        expect(aggregateLabelMatrix(predictions, 'any').matched).toBe(expected);
        if (aggregateLabelMatrix(predictions, 'majority').matched) expect(hasEntailment).toBe(true);
        expect(aggregateLabelMatrix(predictions, 'max').matched).toBe(expected);
        // Filling the unknown labels in any way never contradicts a decided outcome.
        for (const fill of NLI_LABELS) {
          const filled = matrix(labels.map((row) => row.map((value) => value ?? fill)));
          for (const rule of ['any', 'majority', 'max'] as const) {
            const decided = aggregateLabelMatrix(predictions, rule).matched;
            if (decided !== null) expect(aggregateLabelMatrix(filled, rule).matched).toBe(decided);
          }
        }
      }),
    );
    expect(aggregateLabelMatrix([], 'any').matched).toBe(false);
    expect(aggregateLabelMatrix([], 'majority').matched).toBe(false);
  });
});
