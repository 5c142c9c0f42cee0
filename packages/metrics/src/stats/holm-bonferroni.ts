import { InvalidArgumentError } from '@factkit/core';

/**
 * Holm–Bonferroni step-down adjusted p-values (Holm 1979), as `statsmodels.stats.multitest.multipletests(p,
 * method='holm')[1]` and R's `p.adjust(p, 'holm')`: sort ascending, multiply the i-th smallest (0-based) by
 * (m − i), carry the running maximum forward, cap at 1. Reject hypothesis j at level α when `adjusted[j] < α`
 * (equivalently `≤`; the family-wise error rate is at most α). The output keeps the input order.
 * @throws InvalidArgumentError when a value is not a number in [0, 1].
 * @example adjustPValuesHolm([0.01, 0.04, 0.03, 0.005]) // [0.03, 0.06, 0.06, 0.02]
 */
export function adjustPValuesHolm(pvalues: readonly number[]): number[] {
  if (!Array.isArray(pvalues)) throw new InvalidArgumentError({ where: 'adjustPValuesHolm', argument: 'pvalues', message: 'must be an array of numbers' });
  pvalues.forEach((p, index) => {
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new InvalidArgumentError({ where: 'adjustPValuesHolm', argument: 'pvalues', message: `must hold p-values in [0, 1] (index ${index} is ${String(p)})` });
  });
  const m = pvalues.length;
  // Stable ascending order (ties keep input order; the running maximum makes tied values adjust equally anyway).
  const order = pvalues.map((_, index) => index).sort((a, b) => pvalues[a]! - pvalues[b]! || a - b);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pvalues[index]!));
    adjusted[index] = running;
  });
  return adjusted;
}
