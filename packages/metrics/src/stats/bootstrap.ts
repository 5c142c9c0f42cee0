import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import { createRandom } from '../internal/random.js';
import { assertFiniteArray } from '../internal/validate.js';

export interface BootstrapOptions {
  /** Statistic of a resample. @default mean */
  statistic?: (values: readonly number[]) => number;
  /** Two-sided confidence level in (0, 1). @default 0.95 */
  confidenceLevel?: number;
  /** Number of resamples. @default 10000 */
  resamples?: number;
  /** PRNG seed; the same seed gives the same interval. @default 0 */
  seed?: number;
}

/** Result of `bootstrapConfidenceInterval`. */
export type BootstrapResult = Omit<BootstrapTestResult, 'pvalue'>;

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Linear-interpolated quantile of sorted values (NumPy's default 'linear' method). */
function quantile(sorted: Float64Array, probability: number): number {
  const position = probability * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/** Draws `resamples` bootstrap resamples of `values` (seeded) and returns the statistic of each. */
function resampleStatistics<T>(values: readonly T[], statistic: (sample: readonly T[]) => number, resamples: number, seed: number): Float64Array {
  const random = createRandom(seed);
  const n = values.length;
  const sample = new Array<T>(n);
  const stats = new Float64Array(resamples);
  for (let draw = 0; draw < resamples; draw++) {
    for (let index = 0; index < n; index++) sample[index] = values[Math.floor(random() * n)]!;
    stats[draw] = statistic(sample);
  }
  return stats;
}

function checkLevelAndResamples(where: string, confidenceLevel: number, resamples: number): void {
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new InvalidArgumentError({ where, argument: 'confidenceLevel', message: `must be in (0, 1) (got ${String(confidenceLevel)})` });
  assertPositiveInteger('resamples', resamples, where);
}

/**
 * Seeded percentile bootstrap confidence interval of a statistic (the mean by default).
 * @throws InvalidArgumentError for empty/non-finite values or a bad level/resample count.
 * @example bootstrapConfidenceInterval([0.2, 0.4, 0.9], { seed: 1 }) // { estimate: 0.5, lower, upper, ... }
 */
export function bootstrapConfidenceInterval(values: readonly number[], options: BootstrapOptions = {}): BootstrapResult {
  const { statistic = mean, confidenceLevel = 0.95, resamples = 10_000, seed = 0 } = options;
  const where = 'bootstrapConfidenceInterval';
  assertFiniteArray(values, 'values', where);
  checkLevelAndResamples(where, confidenceLevel, resamples);
  const stats = resampleStatistics(values, statistic, resamples, seed);
  stats.sort();
  const alpha = (1 - confidenceLevel) / 2;
  return { estimate: statistic(values), lower: quantile(stats, alpha), upper: quantile(stats, 1 - alpha), confidenceLevel, resamples };
}

export interface BootstrapTestOptions<T> {
  /** The statistic of a resample of units, e.g. a difference in macro-F1 between two systems over the resampled claims. */
  readonly statistic: (units: readonly T[]) => number;
  /** Value of the statistic under the null hypothesis. @default 0 */
  readonly nullValue?: number;
  /** @default 0.95 */
  readonly confidenceLevel?: number;
  /** @default 10000 */
  readonly resamples?: number;
  /** @default 0 */
  readonly seed?: number;
}

export interface BootstrapTestResult {
  /** Statistic of the original sample. */
  readonly estimate: number;
  /** Percentile interval of the resampled statistics at `confidenceLevel`. */
  readonly lower: number;
  readonly upper: number;
  readonly confidenceLevel: number;
  readonly resamples: number;
  /**
   * Two-sided percentile-bootstrap p-value: twice the smaller share of resampled statistics on either side of
   * `nullValue` (at most 1; at least 1/resamples when every resample falls on one side).
   */
  readonly pvalue: number;
}

/**
 * Seeded bootstrap test over units (e.g. claims): resamples the units with replacement, recomputes the statistic,
 * and returns its percentile interval and a two-sided p-value against `nullValue`. Units may be any values (ids,
 * records), so statistics such as macro-F1 differences, which are not means, can be tested over claims.
 * @throws InvalidArgumentError when `units` is empty or an option is out of range.
 * @example bootstrapTest(claimIds, { statistic: (ids) => macroF1(runsOf(ids, 'M')) - macroF1(runsOf(ids, 'notM')) })
 */
export function bootstrapTest<T>(units: readonly T[], options: BootstrapTestOptions<T>): BootstrapTestResult {
  const { statistic, nullValue = 0, confidenceLevel = 0.95, resamples = 10_000, seed = 0 } = options;
  const where = 'bootstrapTest';
  if (!Array.isArray(units) || units.length === 0) throw new InvalidArgumentError({ where, argument: 'units', message: 'must be a non-empty array' });
  if (typeof statistic !== 'function') throw new InvalidArgumentError({ where, argument: 'statistic', message: 'must be a function' });
  checkLevelAndResamples(where, confidenceLevel, resamples);
  const stats = resampleStatistics(units, statistic, resamples, seed);
  let below = 0;
  let above = 0;
  for (const value of stats) {
    if (value <= nullValue) below += 1;
    if (value >= nullValue) above += 1;
  }
  const pvalue = Math.min(1, Math.max(2 * Math.min(below, above), 1) / resamples);
  stats.sort();
  const alpha = (1 - confidenceLevel) / 2;
  return { estimate: statistic(units), lower: quantile(stats, alpha), upper: quantile(stats, 1 - alpha), confidenceLevel, resamples, pvalue };
}
