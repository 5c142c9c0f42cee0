import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { computeMeanStandardError, mannWhitneyU, pairedRandomizationTest, pairedTTest } from '../src/index.js';
import { closeTo, goldenNumber, readGoldenJson } from './golden.js';
describeWithData('golden', 'statistics golden', () => {
  type Num = number | string;
  interface UCase {
    id: string;
    x: number[];
    y: number[];
    has_ties: boolean;
    [variant: string]: unknown;
  }
  interface PairedCase {
    id: string;
    a: number[];
    b: number[];
    n: number;
    ttest_rel_two_sided: { statistic: Num; pvalue: Num; df: number };
    ttest_rel_less: { statistic: Num; pvalue: Num };
    ttest_rel_greater: { statistic: Num; pvalue: Num };
    mean_diff: Num;
    sem_diff: Num;
    paired_randomization_exact?: { statistic: Num; pvalue: Num; n_permutations: number; count_at_least_as_extreme: number };
  }
  interface SemCase {
    id: string;
    values: number[];
    sem_ddof1: Num;
    sem_ddof0: Num;
    mean: Num;
    std_ddof1: Num;
  }
  const golden = readGoldenJson<{ mannwhitneyu: UCase[]; paired: PairedCase[]; sem: SemCase[] }>('stats/stats.json');

  const P_TOLERANCE = 1e-12;
  function expectClose(actual: number, expected: Num, label: string, tolerance = P_TOLERANCE): void {
    const value = goldenNumber(expected);
    if (!closeTo(actual, value, tolerance)) throw new Error(`${label}: got ${actual}, SciPy ${value}`);
  }

  const U_VARIANTS: Record<string, Parameters<typeof mannWhitneyU>[2]> = {
    asymptotic_continuity: { method: 'asymptotic', useContinuity: true },
    asymptotic_no_continuity: { method: 'asymptotic', useContinuity: false },
    asymptotic_continuity_less: { method: 'asymptotic', alternative: 'less' },
    asymptotic_continuity_greater: { method: 'asymptotic', alternative: 'greater' },
    exact: { method: 'exact' },
    auto_default: {},
  };

  describe('Mann–Whitney U vs SciPy 1.17.1', () => {
    it.each(golden.mannwhitneyu.map((item) => [item.id, item] as const))('%s', (_id, item) => {
      let compared = 0;
      for (const [variant, options] of Object.entries(U_VARIANTS)) {
        const expected = item[variant] as { U1: Num; pvalue: Num } | undefined;
        if (!expected) continue;
        const result = mannWhitneyU(item.x, item.y, options);
        expectClose(result.statistic, expected.U1, `${item.id} ${variant} U1`);
        expectClose(result.pvalue, expected.pvalue, `${item.id} ${variant} p`);
        expect(result.hasTies).toBe(item.has_ties);
        compared++;
      }
      expect(compared).toBeGreaterThanOrEqual(5);
    });
  });

  describe('paired tests vs SciPy 1.17.1', () => {
    it.each(golden.paired.map((item) => [item.id, item] as const))('%s', (_id, item) => {
      const twoSided = pairedTTest(item.a, item.b);
      expectClose(twoSided.statistic, item.ttest_rel_two_sided.statistic, `${item.id} t`);
      expectClose(twoSided.pvalue, item.ttest_rel_two_sided.pvalue, `${item.id} p`);
      expect(twoSided.df).toBe(item.ttest_rel_two_sided.df);
      expectClose(twoSided.meanDifference, item.mean_diff, `${item.id} mean`);
      expectClose(twoSided.standardError, item.sem_diff, `${item.id} sem`);
      expectClose(pairedTTest(item.a, item.b, { alternative: 'less' }).pvalue, item.ttest_rel_less.pvalue, `${item.id} less`);
      expectClose(pairedTTest(item.a, item.b, { alternative: 'greater' }).pvalue, item.ttest_rel_greater.pvalue, `${item.id} greater`);
      const randomization = item.paired_randomization_exact;
      if (randomization) {
        const result = pairedRandomizationTest(item.a, item.b);
        expect(result.exact).toBe(true);
        expect(result.permutations).toBe(randomization.n_permutations);
        expectClose(result.statistic, randomization.statistic, `${item.id} randomization statistic`, 1e-9);
        expect(result.pvalue).toBe(goldenNumber(randomization.pvalue));
      }
    });
  });

  describe('standard error of the mean vs SciPy/NumPy', () => {
    it.each(golden.sem.map((item) => [item.id, item] as const))('%s', (_id, item) => {
      const ddof1 = computeMeanStandardError(item.values);
      expectClose(ddof1.mean, item.mean, `${item.id} mean`);
      expectClose(ddof1.standardError, item.sem_ddof1, `${item.id} sem ddof1`);
      expectClose(ddof1.standardDeviation, item.std_ddof1, `${item.id} std`);
      expectClose(computeMeanStandardError(item.values, { ddof: 0 }).standardError, item.sem_ddof0, `${item.id} sem ddof0`);
    });
  });
});
