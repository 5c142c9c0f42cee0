/** Precision, recall and F1 of a predicted set of ids against a gold set. */
export interface SetScores {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/**
 * Scores `predicted` ids against non-empty `gold` ids: precision = |P∩G|/|P| (0 when nothing was predicted, as
 * scikit-learn's zero_division=0), recall = |P∩G|/|G|, F1 = their harmonic mean (0 when both are 0).
 */
export function scoreIdSets(predicted: Iterable<string>, gold: Iterable<string>): SetScores {
  const p = new Set(predicted);
  const g = new Set(gold);
  let hits = 0;
  for (const id of p) if (g.has(id)) hits++;
  const precision = p.size === 0 ? 0 : hits / p.size;
  const recall = g.size === 0 ? 0 : hits / g.size;
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Mean and standard error (sample SD / √n; 0 for one value) of a list of numbers; null for an empty list. */
export function meanWithError(values: readonly number[]): { mean: number; standardError: number } | null {
  if (values.length === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  if (values.length === 1) return { mean, standardError: 0 };
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, standardError: Math.sqrt(variance / values.length) };
}
