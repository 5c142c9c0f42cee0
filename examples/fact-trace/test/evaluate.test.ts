import { describe, expect, it } from 'vitest';
import { averagePrf, bestF1OverTopK, setPrf } from '../src/evaluate.js';

describe('evaluation', () => {
  it('computes set P/R/F1 by hand', () => {
    expect(setPrf(['a', 'b', 'c', 'd'], ['a', 'e'])).toEqual({ precision: 0.25, recall: 0.5, f1: (2 * 0.25 * 0.5) / 0.75 });
    expect(setPrf([], ['a'])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(averagePrf('m', [setPrf(['a'], ['a']), setPrf(['b'], ['a'])]).f1).toBe(0.5);
  });

  it('picks the single cutoff k that maximises macro F1', () => {
    // q1: gold at ranks 1 and 3; q2: gold at rank 2. k=1: F1 (2/3 + 0)/2 = 0.333; k=2: (0.5 + 0.667)/2 = 0.583;
    // k=3: (0.8 + 0.5)/2 = 0.65.
    const row = bestF1OverTopK('m', [['a', 'x', 'b'], ['y', 'c', 'z']], [['a', 'b'], ['c']], 3);
    expect(row.k).toBe(3);
    expect(row.f1).toBeCloseTo(0.65, 10);
  });
});
