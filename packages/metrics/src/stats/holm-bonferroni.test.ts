import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustPValuesHolm } from './holm-bonferroni.js';

/** The textbook step-down procedure (Holm 1979), written independently of the adjusted-p formulation. */
function holmRejects(pvalues: readonly number[], alpha: number): boolean[] {
  const m = pvalues.length;
  const order = pvalues.map((_, index) => index).sort((a, b) => pvalues[a]! - pvalues[b]!);
  const rejected = pvalues.map(() => false);
  for (let step = 0; step < m; step++) {
    const index = order[step]!;
    if (pvalues[index]! > alpha / (m - step)) break;
    rejected[index] = true;
  }
  return rejected;
}

describe('adjustPValuesHolm', () => {
  it("matches Wikipedia's worked Holm example (p = .01, .04, .03, .005; H1 and H4 rejected at α = .05)", () => {
    // By hand: sorted .005·4 = .02, .01·3 = .03, .03·2 = .06, .04·1 = .04 → running max .02, .03, .06, .06.
    const adjusted = adjustPValuesHolm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((expected, index) => expect(adjusted[index]).toBeCloseTo(expected, 15));
    expect(adjusted.map((p) => p < 0.05)).toEqual([true, false, false, true]);
  });

  it('carries the running maximum over ties and caps at 1 (hand-checked)', () => {
    // Sorted .001·4 = .004, .02·3 = .06, .02·2 = .04 → .06 (max), .5·1 = .5.
    const adjusted = adjustPValuesHolm([0.02, 0.5, 0.001, 0.02]);
    [0.06, 0.5, 0.004, 0.06].forEach((expected, index) => expect(adjusted[index]).toBeCloseTo(expected, 15));
    expect(adjustPValuesHolm([0.4, 0.6, 0.9])).toEqual([1, 1, 1]);
    expect(adjustPValuesHolm([])).toEqual([]);
    expect(adjustPValuesHolm([0.3])).toEqual([0.3]);
  });

  it('rejects exactly what the step-down procedure rejects, and never lowers a p-value', () => {
    const pvalue = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.01, 0.025, 0.05, 1));
    fc.assert(
      fc.property(fc.array(pvalue, { maxLength: 12 }), fc.constantFrom(0.01, 0.05, 0.1), (pvalues, alpha) => {
        const adjusted = adjustPValuesHolm(pvalues);
        expect(adjusted.map((p) => p <= alpha)).toEqual(holmRejects(pvalues, alpha));
        adjusted.forEach((p, index) => {
          expect(p).toBeGreaterThanOrEqual(pvalues[index]!);
          expect(p).toBeLessThanOrEqual(1);
        });
      }),
    );
  });

  it('names the argument for a value outside [0, 1]', () => {
    expect(() => adjustPValuesHolm([0.1, Number.NaN])).toThrow(/argument "pvalues".*index 1/);
    expect(() => adjustPValuesHolm([1.5])).toThrow(/argument "pvalues"/);
  });
});
