import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linearSumAssignment } from './linear-sum-assignment.js';

function bruteForce(matrix: number[][], maximize: boolean): number {
  const rows = matrix.length;
  const columns = matrix[0]!.length;
  const transpose = columns < rows;
  const small = transpose ? columns : rows;
  const large = transpose ? rows : columns;
  const value = (i: number, j: number) => (transpose ? matrix[j]![i]! : matrix[i]![j]!);
  let best = maximize ? -Infinity : Infinity;
  const used = new Array<boolean>(large).fill(false);
  const visit = (i: number, sum: number) => {
    if (i === small) {
      best = maximize ? Math.max(best, sum) : Math.min(best, sum);
      return;
    }
    for (let j = 0; j < large; j++) {
      if (used[j]) continue;
      used[j] = true;
      visit(i + 1, sum + value(i, j));
      used[j] = false;
    }
  };
  visit(0, 0);
  return best;
}

describe('linearSumAssignment', () => {
  it('solves the SciPy documentation example (cost 5 with rows [0,1,2] → cols [1,0,2])', () => {
    const result = linearSumAssignment([
      [4, 1, 3],
      [2, 0, 5],
      [3, 2, 2],
    ]);
    expect(result).toEqual({ rows: [0, 1, 2], columns: [1, 0, 2], total: 5 });
  });

  it('handles rectangular matrices both ways and maximization', () => {
    expect(linearSumAssignment([[1, 2, 3]], { maximize: true })).toEqual({ rows: [0], columns: [2], total: 3 });
    expect(linearSumAssignment([[1], [5], [3]], { maximize: true })).toEqual({ rows: [1], columns: [0], total: 5 });
    expect(
      linearSumAssignment([
        [5, 1],
        [1, 5],
        [0, 0],
      ]).total,
    ).toBe(1);
    expect(linearSumAssignment([])).toEqual({ rows: [], columns: [], total: 0 });
  });

  it('is optimal against brute force on random rectangular matrices (fast-check)', () => {
    const matrix = fc
      .integer({ min: 1, max: 5 })
      .chain((rows) => fc.integer({ min: 1, max: 5 }).chain((columns) => fc.array(fc.array(fc.integer({ min: -20, max: 20 }), { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows })));
    fc.assert(
      fc.property(matrix, fc.boolean(), (values, maximize) => {
        const result = linearSumAssignment(values, { maximize });
        expect(result.rows.length).toBe(Math.min(values.length, values[0]!.length));
        expect(new Set(result.rows).size).toBe(result.rows.length);
        expect(new Set(result.columns).size).toBe(result.columns.length);
        expect(result.total).toBe(bruteForce(values, maximize));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects NaN, ragged rows and infeasible matrices with typed errors', () => {
    expect(() => linearSumAssignment([[Number.NaN]])).toThrow(/argument "matrix"/);
    expect(() => linearSumAssignment([[1, 2], [1]])).toThrow(/argument "matrix"/);
    expect(() =>
      linearSumAssignment([
        [Infinity, Infinity],
        [1, 2],
      ]),
    ).toThrow(/infeasible/);
    expect(() => linearSumAssignment([[Infinity]], { maximize: true })).toThrow(/unbounded/);
  });
});
