import { describe, expect, it } from 'vitest';
import { computeHallucinationMetrics } from './hallucination-metrics.js';

describe('computeHallucinationMetrics', () => {
  // Hand-computed: gold [H, H, ok, ok, H, ok], predicted [H, unv, ok, H, failed, unv]
  const segments = [
    { gold: true, predicted: 'hallucinated' as const },
    { gold: true, predicted: 'unverifiable' as const },
    { gold: false, predicted: 'not-hallucinated' as const },
    { gold: false, predicted: 'hallucinated' as const },
    { gold: true },
    { gold: false, predicted: 'unverifiable' as const },
  ];
  it('overall: unverifiable scored as not hallucinated; failed left out', () => {
    const metrics = computeHallucinationMetrics(segments);
    // scored 5: TP=1 (0), FN=1 (1), TN=2 (2,5), FP=1 (3) -> acc 3/5, P 1/2, R 1/2, F1 1/2
    expect(metrics.overall).toMatchObject({ n: 5, accuracy: 0.6, precision: 0.5, recall: 0.5, f1: 0.5 });
    // balanced accuracy: recall of H 1/2, of ok 2/3 -> 7/12
    expect(metrics.overall.balancedAccuracy).toBeCloseTo(7 / 12, 10);
    expect(metrics.nUnverifiable).toBe(2);
    expect(metrics.nFailed).toBe(1);
  });
  it('verifiable-only leaves unverifiable out', () => {
    const metrics = computeHallucinationMetrics(segments);
    // scored 3: TP=1, TN=1, FP=1 -> acc 2/3, P 1/2, R 1, F1 2/3
    expect(metrics.verifiableOnly.n).toBe(3);
    expect(metrics.verifiableOnly.accuracy).toBeCloseTo(2 / 3, 10);
    expect(metrics.verifiableOnly.f1).toBeCloseTo(2 / 3, 10);
    expect(metrics.verifiableOnly.balancedAccuracy).toBeCloseTo(3 / 4, 10); // recall H 1, ok 1/2
  });
  it('other convention: unverifiable as hallucinated', () => {
    const metrics = computeHallucinationMetrics(segments, { convention: 'hallucinated' });
    // TP=2 (0,1), FP=2 (3,5), TN=1 -> acc 3/5, P 1/2, R 1, F1 2/3
    expect(metrics.overall.accuracy).toBeCloseTo(0.6, 10);
    expect(metrics.overall.f1).toBeCloseTo(2 / 3, 10);
  });
  it('empty input gives NaN, not a crash', () => {
    expect(Number.isNaN(computeHallucinationMetrics([]).overall.accuracy)).toBe(true);
    // one gold class only: balanced accuracy is undefined (NaN), not the accuracy
    expect(Number.isNaN(computeHallucinationMetrics([{ gold: true, predicted: 'hallucinated' }]).overall.balancedAccuracy)).toBe(true);
  });
});
