import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import { computeMeanStandardError } from '../stats/mean-standard-error.js';
import { adjustPValuesHolm } from '../stats/holm-bonferroni.js';
import { pairedRandomizationTest } from '../stats/paired-randomization-test.js';
import { pairedTTest } from '../stats/paired-t-test.js';
import type { EvaluateRunResult } from './evaluate-run.js';

/** The paired test `compareRuns` uses: Student's paired t-test (ranx's default) or the sign-flip randomization test. */
export type PairedTestName = 't-test' | 'randomization';
export const PAIRED_TESTS: readonly PairedTestName[] = ['t-test', 'randomization'];

/** One system to compare: a name and its evaluation (`evaluateRun(..., { completeQueries: true })`). */
export interface NamedEvaluation {
  readonly name: string;
  readonly evaluation: EvaluateRunResult;
}

export interface CompareRunsOptions {
  /** @default 't-test' */
  readonly test?: PairedTestName;
  /** Index of the baseline system in the list. @default 0 */
  readonly baseline?: number;
  /** Family-wise significance level (after Holm–Bonferroni). @default 0.05 */
  readonly alpha?: number;
  /** Randomization test: random sign flips (exact enumeration when 2^n ≤ resamples). @default 9999 */
  readonly resamples?: number;
  /** Randomization test seed. @default 0 */
  readonly seed?: number;
}

/** One system's mean of one measure over the compared queries; `mean` is null over zero queries. */
export interface SystemScore {
  readonly mean: number | null;
  /** SciPy `sem` (ddof 1); null over fewer than 2 queries. */
  readonly standardError: number | null;
}

/** One paired test of system `a` against system `b` on one measure. */
export interface PairComparison {
  readonly measure: string;
  /** Indexes into `systems`. */
  readonly a: number;
  readonly b: number;
  /** mean(a) − mean(b); null over zero queries. */
  readonly meanDifference: number | null;
  /** The raw two-sided p-value; null when the test cannot be run (fewer than 2 queries, or every difference 0 under the t-test, where SciPy answers NaN). */
  readonly pvalue: number | null;
  /** Holm–Bonferroni adjusted p-value within the family (see `CompareRunsResult`); null when `pvalue` is. */
  readonly adjustedPValue: number | null;
  /** `adjustedPValue < alpha`. */
  readonly significant: boolean;
}

export interface CompareRunsResult {
  readonly test: PairedTestName;
  readonly alpha: number;
  readonly baseline: number;
  /** Queries every comparison is paired over (the systems' common evaluated queries). */
  readonly queries: readonly string[];
  /** Measures compared (count measures `num_*` left out). */
  readonly measures: readonly string[];
  /** System names, in input order, and per measure their mean ± SE. */
  readonly systems: readonly { readonly name: string; readonly scores: Readonly<Record<string, SystemScore>> }[];
  /** Each non-baseline system against the baseline; Holm family = the k − 1 tests of one measure. */
  readonly againstBaseline: readonly PairComparison[];
  /** Every pair (a < b); Holm family = the k(k − 1)/2 tests of one measure. */
  readonly allPairs: readonly PairComparison[];
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * Compares any number of systems evaluated on the same qrels, as ranx's `compare` does: per measure, mean ± SE of
 * every system, a paired test of every system against the baseline and of every pair, each family Holm–Bonferroni
 * corrected per measure (the baseline family and the all-pairs family separately).
 * @throws InvalidArgumentError for fewer than 2 systems, evaluations over different queries or measures, a bad
 * baseline, alpha or test name.
 * @example compareRuns([{ name: 'bm25', evaluation: a }, { name: 'dense', evaluation: b }]).allPairs[0].adjustedPValue
 */
export function compareRuns(systems: readonly NamedEvaluation[], options: CompareRunsOptions = {}): CompareRunsResult {
  const where = 'compareRuns';
  const { test = 't-test', baseline = 0, alpha = 0.05, resamples = 9999, seed = 0 } = options;
  if (!Array.isArray(systems as unknown) || systems.length < 2)
    throw new InvalidArgumentError({ where, argument: 'systems', message: `must list at least 2 systems (got ${Array.isArray(systems as unknown) ? systems.length : typeof systems})` });
  if (!PAIRED_TESTS.includes(test)) throw new InvalidArgumentError({ where, argument: 'test', message: `must be one of ${PAIRED_TESTS.join(', ')} (got ${String(test)})` });
  if (!Number.isInteger(baseline) || baseline < 0 || baseline >= systems.length) throw new InvalidArgumentError({ where, argument: 'baseline', message: `must be an index of systems, 0..${systems.length - 1} (got ${String(baseline)})` });
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) throw new InvalidArgumentError({ where, argument: 'alpha', message: `must be in (0, 1) (got ${String(alpha)})` });
  assertPositiveInteger('resamples', resamples, where);
  const first = systems[0]!.evaluation;
  const queries = first.evaluatedQueries;
  const measures = first.measures.filter((measure) => !measure.startsWith('num_'));
  systems.forEach(({ name, evaluation }, index) => {
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError({ where, argument: `systems[${index}].name`, message: 'must be a non-empty string' });
    const same = evaluation.evaluatedQueries.length === queries.length && evaluation.evaluatedQueries.every((id, k) => queries[k] === id);
    if (!same) throw new InvalidArgumentError({ where, argument: `systems[${index}]`, message: `"${name}" is evaluated over other queries than "${systems[0]!.name}" (evaluate every run with completeQueries: true against the same qrels)` });
    if (evaluation.measures.join('\u0000') !== first.measures.join('\u0000')) throw new InvalidArgumentError({ where, argument: `systems[${index}]`, message: `"${name}" has other measures than "${systems[0]!.name}"` });
  });
  const values = systems.map(({ evaluation }) => Object.fromEntries(measures.map((measure) => [measure, queries.map((id) => evaluation.perQuery[id]?.[measure] ?? 0)])) as Record<string, number[]>);
  const scored = systems.map(({ name }, index) => ({
    name,
    scores: Object.fromEntries(
      measures.map((measure) => {
        const sample = values[index]![measure]!;
        const standardError = sample.length >= 2 ? computeMeanStandardError(sample).standardError : null;
        return [measure, { mean: mean(sample), standardError }];
      }),
    ),
  }));
  const pvalueOf = (x: readonly number[], y: readonly number[]): number | null => {
    if (x.length < 2) return null;
    if (test === 'randomization') return pairedRandomizationTest(x, y, { resamples, seed }).pvalue;
    const p = pairedTTest(x, y).pvalue;
    return Number.isNaN(p) ? null : p;
  };
  const family = (pairs: readonly (readonly [number, number])[]): PairComparison[] =>
    measures.flatMap((measure) => {
      const raw = pairs.map(([a, b]) => {
        const x = values[a]![measure]!;
        const y = values[b]![measure]!;
        const meanA = mean(x);
        const meanB = mean(y);
        return { measure, a, b, meanDifference: meanA === null || meanB === null ? null : meanA - meanB, pvalue: pvalueOf(x, y) };
      });
      const testable = raw.filter((row) => row.pvalue !== null);
      const adjusted = adjustPValuesHolm(testable.map((row) => row.pvalue as number));
      return raw.map((row) => {
        const position = testable.indexOf(row);
        const adjustedPValue = position < 0 ? null : adjusted[position]!;
        return { ...row, adjustedPValue, significant: adjustedPValue !== null && adjustedPValue < alpha };
      });
    });
  const againstBaseline = family(systems.map((_, index) => [index, baseline] as const).filter(([index]) => index !== baseline));
  const pairs: [number, number][] = [];
  for (let a = 0; a < systems.length; a++) for (let b = a + 1; b < systems.length; b++) pairs.push([a, b]);
  return { test, alpha, baseline, queries, measures, systems: scored, againstBaseline, allPairs: family(pairs) };
}
