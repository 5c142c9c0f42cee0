import { describeWithData } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { type EvaluateRunResult, compareRuns } from '../src/index.js';
import { goldenNumber, readGoldenJson } from './golden.js';

interface PairedCase {
  id: string;
  a: number[];
  b: number[];
  ttest_rel_two_sided: { pvalue: number | string };
  paired_randomization_exact?: { pvalue: number | string };
}

/** An evaluation whose per-query `map` values are `values` (queries q00, q01, … in byte order). */
function evaluationOf(values: readonly number[]): EvaluateRunResult {
  const ids = values.map((_, index) => `q${String(index).padStart(2, '0')}`);
  return { measures: ['map'], perQuery: Object.fromEntries(ids.map((id, index) => [id, { map: values[index]! }])), aggregate: {}, evaluatedQueries: ids, runOnlyQueries: [], qrelsOnlyQueries: [] };
}

describeWithData('golden', 'compareRuns against SciPy', () => {
  const paired = readGoldenJson<{ paired: PairedCase[] }>('stats/stats.json').paired;
  const golden = paired.find((entry) => entry.id === 'paired_metric_like_10')!;

  it('raw p-values are scipy.stats.ttest_rel; Holm over the testable pairs doubles them (hand-checked)', () => {
    const p = goldenNumber(golden.ttest_rel_two_sided.pvalue);
    // c is a copy of a: (a, c) has every difference 0, where SciPy's t-test answers NaN, so it is not testable
    // and leaves the family; the family is then {(a,b), (b,c)}, both with p, and Holm gives min(1, 2p) to both.
    const result = compareRuns([
      { name: 'a', evaluation: evaluationOf(golden.a) },
      { name: 'b', evaluation: evaluationOf(golden.b) },
      { name: 'c', evaluation: evaluationOf(golden.a) },
    ]);
    const pair = (a: number, b: number) => result.allPairs.find((row) => row.a === a && row.b === b)!;
    expect(pair(0, 1).pvalue).toBeCloseTo(p, 12);
    expect(pair(1, 2).pvalue).toBeCloseTo(p, 12);
    expect(pair(0, 2).pvalue).toBeNull();
    expect(pair(0, 2).adjustedPValue).toBeNull();
    expect(pair(0, 1).adjustedPValue).toBeCloseTo(Math.min(1, 2 * p), 12);
    // Baseline a: b and c against a; only (b, a) is testable, a family of one.
    expect(result.againstBaseline.map((row) => [row.a, row.b, row.adjustedPValue === null ? null : Number(row.adjustedPValue.toFixed(12))])).toEqual([
      [1, 0, Number(p.toFixed(12))],
      [2, 0, null],
    ]);
    const mean = golden.a.reduce((sum, value) => sum + value, 0) / golden.a.length;
    expect(result.systems[0]!.scores.map!.mean).toBeCloseTo(mean, 12);
  });

  it('randomization test: exact p from SciPy; the identical pair has p = 1 and stays in the family of 3', () => {
    const p = goldenNumber(golden.paired_randomization_exact!.pvalue);
    const result = compareRuns(
      [
        { name: 'a', evaluation: evaluationOf(golden.a) },
        { name: 'b', evaluation: evaluationOf(golden.b) },
        { name: 'c', evaluation: evaluationOf(golden.a) },
      ],
      { test: 'randomization', baseline: 1 },
    );
    // Family {p, 1, p}: sorted p·3, p·2 → 3p (running max), 1·1 → 1.
    expect(result.allPairs.map((row) => row.pvalue)).toEqual([p, 1, p]);
    result.allPairs.forEach((row, index) => expect(row.adjustedPValue).toBeCloseTo([3 * p, 1, 3 * p][index]!, 12));
    expect(result.allPairs.every((row) => row.significant === false)).toBe(true);
    expect(result.againstBaseline.map((row) => [row.a, row.b])).toEqual([
      [0, 1],
      [2, 1],
    ]);
  });

  it('refuses evaluations over different queries, one system, or a baseline out of range', () => {
    expect(() => compareRuns([{ name: 'a', evaluation: evaluationOf(golden.a) }])).toThrow(/argument "systems"/);
    expect(() =>
      compareRuns([
        { name: 'a', evaluation: evaluationOf(golden.a) },
        { name: 'b', evaluation: evaluationOf(golden.b.slice(1)) },
      ]),
    ).toThrow(/argument "systems\[1\]".*other queries/);
    expect(() =>
      compareRuns(
        [
          { name: 'a', evaluation: evaluationOf(golden.a) },
          { name: 'b', evaluation: evaluationOf(golden.b) },
        ],
        { baseline: 2 },
      ),
    ).toThrow(/argument "baseline"/);
  });

  it('over zero queries every mean and test is absent, not 0', () => {
    const result = compareRuns([
      { name: 'a', evaluation: evaluationOf([]) },
      { name: 'b', evaluation: evaluationOf([]) },
    ]);
    expect(result.systems[0]!.scores.map).toEqual({ mean: null, standardError: null });
    expect(result.allPairs[0]).toMatchObject({ meanDifference: null, pvalue: null, adjustedPValue: null, significant: false });
  });
});
