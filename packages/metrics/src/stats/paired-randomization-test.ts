import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import { createRandom } from '../internal/random.js';
import type { Alternative } from './alternative.js';
import { ALTERNATIVES } from './alternative.js';
import { pairedDifferences } from './paired-t-test.js';

export interface PairedRandomizationTestOptions {
  /** @default 'two-sided' */
  alternative?: Alternative;
  /** Random sign flips when 2^n exceeds this; otherwise all 2^n are enumerated exactly (SciPy's rule). @default 9999 */
  resamples?: number;
  /** Seed of the random sign flips. @default 0 */
  seed?: number;
}

export interface PairedRandomizationTestResult {
  /** mean(a) − mean(b). */
  readonly statistic: number;
  readonly pvalue: number;
  /** True when every sign flip was enumerated. */
  readonly exact: boolean;
  /** Number of sign vectors evaluated. */
  readonly permutations: number;
}

/**
 * Paired randomization (sign-flip permutation) test on mean(a) − mean(b), matching
 * `scipy.stats.permutation_test(..., permutation_type='samples')`: exact p = count/2^n, Monte Carlo p = (count+1)/(R+1).
 * @throws InvalidArgumentError for empty or mismatched samples, non-finite values, or a bad `resamples`.
 */
export function pairedRandomizationTest(a: readonly number[], b: readonly number[], options: PairedRandomizationTestOptions = {}): PairedRandomizationTestResult {
  const { alternative = 'two-sided', resamples = 9999, seed = 0 } = options;
  const where = 'pairedRandomizationTest';
  if (!ALTERNATIVES.includes(alternative)) throw new InvalidArgumentError({ where, argument: 'alternative', message: `must be one of ${ALTERNATIVES.join(', ')}` });
  assertPositiveInteger('resamples', resamples, where);
  const differences = pairedDifferences(a, b, where);
  const n = differences.length;
  const meanOf = (signs: (index: number) => number) => {
    let sum = 0;
    for (let index = 0; index < n; index++) sum += signs(index) * differences[index]!;
    return sum / n;
  };
  const observed = meanOf(() => 1);
  const gamma = Math.abs(observed * Number.EPSILON * 100);
  let atMost = 0;
  let atLeast = 0;
  const tally = (value: number) => {
    if (value <= observed + gamma) atMost++;
    if (value >= observed - gamma) atLeast++;
  };
  const exact = n < 31 && 2 ** n <= resamples;
  let permutations: number;
  if (exact) {
    permutations = 2 ** n;
    for (let mask = 0; mask < permutations; mask++) tally(meanOf((index) => ((mask >>> index) & 1 ? -1 : 1)));
  } else {
    permutations = resamples;
    const random = createRandom(seed);
    const signs = new Float64Array(n);
    for (let draw = 0; draw < resamples; draw++) {
      for (let index = 0; index < n; index++) signs[index] = random() < 0.5 ? -1 : 1;
      tally(meanOf((index) => signs[index]!));
    }
  }
  const toP = (count: number) => (exact ? count / permutations : (count + 1) / (permutations + 1));
  const pLess = toP(atMost);
  const pGreater = toP(atLeast);
  const pvalue = alternative === 'less' ? pLess : alternative === 'greater' ? pGreater : Math.min(2 * Math.min(pLess, pGreater), 1);
  return { statistic: observed, pvalue, exact, permutations };
}
