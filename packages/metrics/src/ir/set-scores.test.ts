import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { computeBestMeanF1OverTopK, computeSetScores } from './set-scores.js';

describe('computeSetScores', () => {
  it('hand-checked cases', () => {
    expect(computeSetScores(['a', 'b'], ['b', 'c'])).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5 });
    // P = 1/3, R = 1: F1 = 2·(1/3)·1 / (4/3) = 1/2; duplicates count once.
    const scores = computeSetScores(['a', 'x', 'y', 'a'], ['a']);
    expect(scores.precision).toBeCloseTo(1 / 3, 12);
    expect(scores.recall).toBe(1);
    expect(scores.f1).toBeCloseTo(0.5, 12);
    expect(computeSetScores([], ['a'])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(computeSetScores(['x'], ['a'])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(() => computeSetScores(['a'], [])).toThrow(InvalidArgumentError);
  });

  it('F1 is the harmonic mean of P and R and lies between min and max of them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e')), fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1 }), (predicted, gold) => {
        const { precision, recall, f1 } = computeSetScores(predicted, gold);
        if (precision + recall === 0) return f1 === 0;
        return Math.abs(f1 - (2 * precision * recall) / (precision + recall)) < 1e-12 && f1 <= Math.max(precision, recall) + 1e-12 && f1 >= Math.min(precision, recall) - 1e-12;
      }),
    );
  });
});

describe('computeBestMeanF1OverTopK', () => {
  it('picks one k for all queries by mean F1 (hand-checked)', () => {
    // k=1: F1 = (1 + 0) / 2 = 0.5; k=2: q1 P 1/2 R 1 F1 2/3, q2 P 1/2 R 1 F1 2/3 → 2/3; k=3: q1 1/2, q2 1/2 → 1/2.
    const best = computeBestMeanF1OverTopK(
      [
        ['a', 'x', 'z'],
        ['y', 'b', 'z'],
      ],
      [['a'], ['b']],
    )!;
    expect(best.k).toBe(2);
    expect(best.f1).toBeCloseTo(2 / 3, 12);
    expect(best.precision).toBeCloseTo(0.5, 12);
    expect(best.recall).toBe(1);
    expect(best.perQuery).toHaveLength(2);
  });

  it('ties go to the smallest k; maxK caps the search; zero queries give no result', () => {
    expect(computeBestMeanF1OverTopK([['x', 'y']], [['a']])!.k).toBe(1);
    expect(computeBestMeanF1OverTopK([['x', 'a']], [['a']], { maxK: 1 })!.f1).toBe(0);
    expect(computeBestMeanF1OverTopK([], [])).toBeUndefined();
    expect(() => computeBestMeanF1OverTopK([['a']], [])).toThrow(InvalidArgumentError);
    expect(() => computeBestMeanF1OverTopK([['a']], [['a']], { maxK: 0 })).toThrow(/maxK/);
  });

  it('the chosen k is at least as good as every other k (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f')), fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { minLength: 1 })), { minLength: 1, maxLength: 5 }), (pairs) => {
        const rankings = pairs.map(([ranking]) => ranking);
        const golds = pairs.map(([, gold]) => gold);
        const best = computeBestMeanF1OverTopK(rankings, golds, { maxK: 6 })!;
        for (let k = 1; k <= 6; k++) {
          const mean = rankings.reduce((sum, ranking, index) => sum + computeSetScores(ranking.slice(0, k), golds[index]!).f1, 0) / rankings.length;
          if (mean > best.f1 + 1e-9) return false;
        }
        return true;
      }),
    );
  });
});
