/** Precision, recall and F1 of one retrieved set against a gold set (P = 0 for an empty set, as in Table 1's upper bound). */
export function setPrf(retrieved: readonly string[], gold: readonly string[]): { precision: number; recall: number; f1: number } {
  const goldSet = new Set(gold);
  const unique = [...new Set(retrieved)];
  const hits = unique.filter((id) => goldSet.has(id)).length;
  const precision = unique.length ? hits / unique.length : 0;
  const recall = goldSet.size ? hits / goldSet.size : 0;
  return { precision, recall, f1: hits ? (2 * precision * recall) / (precision + recall) : 0 };
}

export interface TableRow {
  readonly method: string;
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
  /** The top-k cutoff of a ranking method (Table 1: best F1 over k). */
  readonly k?: number;
  readonly queries: number;
}

/** Macro average of per-query P/R/F1. */
export function averagePrf(method: string, results: ReadonlyArray<{ precision: number; recall: number; f1: number }>, k?: number): TableRow {
  const mean = (pick: (result: { precision: number; recall: number; f1: number }) => number) => (results.length ? results.reduce((sum, result) => sum + pick(result), 0) / results.length : 0);
  return { method, f1: mean((result) => result.f1), precision: mean((result) => result.precision), recall: mean((result) => result.recall), ...(k !== undefined ? { k } : {}), queries: results.length };
}

/**
 * The paper's comparison for ranking methods: one cutoff k for all queries (a threshold, as in Akyürek et al. and
 * FastTrack's Table 1), chosen to maximise the macro F1 over k = 1..maxK; P and R are reported at that k.
 */
export function bestF1OverTopK(method: string, rankings: readonly (readonly string[])[], golds: readonly (readonly string[])[], maxK = 100): TableRow {
  let best: TableRow = { method, f1: -1, precision: 0, recall: 0, k: 0, queries: rankings.length };
  for (let k = 1; k <= maxK; k++) {
    const row = averagePrf(method, rankings.map((ranking, index) => setPrf(ranking.slice(0, k), golds[index] as readonly string[])), k);
    if (row.f1 > best.f1) best = row;
  }
  return best;
}

export function formatTable(rows: readonly TableRow[]): string {
  const lines = ['| method | F1 | Precision | Recall | k | queries |', '|---|---:|---:|---:|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.method} | ${row.f1.toFixed(3)} | ${row.precision.toFixed(3)} | ${row.recall.toFixed(3)} | ${row.k ?? '—'} | ${row.queries} |`);
  return lines.join('\n');
}
