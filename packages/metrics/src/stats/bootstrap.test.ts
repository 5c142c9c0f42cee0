import { describe, expect, it } from 'vitest';
import { expectInvalidArgument } from '../../test/expect-errors.js';
import { bootstrapConfidenceInterval, bootstrapTest } from './bootstrap.js';
import { computeMeanStandardError } from './mean-standard-error.js';

describe('bootstrapConfidenceInterval', () => {
  const values = Array.from({ length: 400 }, (_, index) => Math.sin(index * 12.9898) * 0.5 + 0.5);

  it('is the interval bootstrapTest gives for the same statistic and seed (the public route to it)', () => {
    const mean = (sample: readonly number[]) => sample.reduce((sum, value) => sum + value, 0) / sample.length;
    const { pvalue, ...interval } = bootstrapTest(values, { statistic: mean, seed: 3, resamples: 1500, confidenceLevel: 0.9 });
    expect(pvalue).toBeGreaterThan(0);
    expect(interval).toEqual(bootstrapConfidenceInterval(values, { seed: 3, resamples: 1500, confidenceLevel: 0.9 }));
  });

  it('is deterministic for a seed and changes with the seed', () => {
    const first = bootstrapConfidenceInterval(values, { seed: 7, resamples: 2000 });
    expect(bootstrapConfidenceInterval(values, { seed: 7, resamples: 2000 })).toEqual(first);
    expect(bootstrapConfidenceInterval(values, { seed: 8, resamples: 2000 }).lower).not.toBe(first.lower);
  });

  it('agrees with the normal approximation mean ± 1.96·SE for a large sample (within 10% of the half-width)', () => {
    const result = bootstrapConfidenceInterval(values, { seed: 1, resamples: 5000 });
    const { mean, standardError } = computeMeanStandardError(values, { ddof: 0 });
    const halfWidth = 1.959963984540054 * standardError;
    expect(result.estimate).toBeCloseTo(mean, 12);
    expect(Math.abs(result.lower - (mean - halfWidth))).toBeLessThan(0.1 * halfWidth);
    expect(Math.abs(result.upper - (mean + halfWidth))).toBeLessThan(0.1 * halfWidth);
  });

  it('gives a zero-width interval for a constant sample and supports other statistics', () => {
    expect(bootstrapConfidenceInterval([3, 3, 3], { resamples: 100 })).toMatchObject({ lower: 3, upper: 3, estimate: 3 });
    const median = (sample: readonly number[]) => [...sample].sort((a, b) => a - b)[Math.floor(sample.length / 2)]!;
    const result = bootstrapConfidenceInterval([1, 2, 3, 4, 100], { statistic: median, resamples: 500 });
    expect(result.estimate).toBe(3);
    expect(result.upper).toBeLessThanOrEqual(100);
  });

  it('rejects bad input with typed errors naming the argument', () => {
    for (const [call, argument] of [
      [() => bootstrapConfidenceInterval([]), 'values'],
      [() => bootstrapConfidenceInterval([1, Number.NaN]), 'values'],
      [() => bootstrapConfidenceInterval([1], { confidenceLevel: 1 }), 'confidenceLevel'],
      [() => bootstrapConfidenceInterval([1], { resamples: 0 }), 'resamples'],
    ] as const) {
      expectInvalidArgument(call, argument);
    }
  });
});

describe('bootstrapTest', () => {
  const normalCdf = (z: number) => {
    // Abramowitz–Stegun 7.1.26 erf approximation (|error| < 1.5e-7), enough for a 10%-tolerance check.
    const x = Math.abs(z) / Math.SQRT2;
    const t = 1 / (1 + 0.3275911 * x);
    const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
    return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
  };

  it('with the mean as statistic matches the CI of bootstrapConfidenceInterval and the normal-approximation p-value', () => {
    const differences = Array.from({ length: 300 }, (_, index) => Math.sin(index * 78.233) * 0.5 + 0.045);
    const test = bootstrapTest(differences, { statistic: (sample) => sample.reduce((a, b) => a + b, 0) / sample.length, resamples: 4000, seed: 3 });
    const interval = bootstrapConfidenceInterval(differences, { resamples: 4000, seed: 3 });
    expect(test.lower).toBe(interval.lower);
    expect(test.upper).toBe(interval.upper);
    const { mean, standardError } = computeMeanStandardError(differences, { ddof: 0 });
    const normalP = 2 * (1 - normalCdf(Math.abs(mean / standardError)));
    expect(normalP).toBeGreaterThan(0.01);
    expect(Math.abs(test.pvalue - normalP)).toBeLessThan(0.25 * normalP + 0.005);
  });

  it('resamples arbitrary units (claim ids) and reports p = 1/resamples floor and 1 for a null statistic', () => {
    const claims = Array.from({ length: 50 }, (_, index) => `claim-${index}`);
    const always = bootstrapTest(claims, { statistic: (ids) => ids.length, resamples: 200, nullValue: 0 });
    expect(always.pvalue).toBe(1 / 200);
    const none = bootstrapTest(claims, { statistic: () => 0, resamples: 200 });
    expect(none.pvalue).toBe(1);
    expect(none.estimate).toBe(0);
  });

  it('rejects bad input with typed errors naming the argument', () => {
    expectInvalidArgument(() => bootstrapTest([], { statistic: () => 0 }), 'units');
    expectInvalidArgument(() => bootstrapTest([1], { statistic: () => 0, resamples: 0 }), 'resamples');
    expectInvalidArgument(() => bootstrapTest([1], { statistic: 3 as unknown as () => number }), 'statistic');
  });
});
