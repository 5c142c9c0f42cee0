import type { LeakageStudyResult, MeanWithError, SignificanceTest } from '@factkit/nli-match';
import { renderBarChartSvg } from './bar-chart.js';
import type { StudyReportOptions } from './study-report.js';
import { type NumberCell, numberCell, type StudyCell, type StudyTable } from './study-table.js';

/** The significance level of the marks on the audit page. */
export const AUDIT_ALPHA = 0.05;

const LABELS: Readonly<Record<string, string>> = { recall: 'Recall', ndcg: 'NDCG', f1: 'F1' };
const metricTitle = (name: string) => {
  const [kind, k] = name.split('@') as [string, string | undefined];
  return k === undefined ? (LABELS[kind] ?? kind) : `${LABELS[kind] ?? kind}@${k}`;
};

/** A p-value cell: 3 decimals, '<0.001' below that, '–' when the test could not run. */
function pCell(test: SignificanceTest | null | undefined): NumberCell {
  if (!test || !Number.isFinite(test.pvalue)) return numberCell(null);
  const detail = `(${test.test === 'bootstrap' ? 'bootstrap' : `U = ${test.statistic.toFixed(1)}`}, n = ${test.sizes[0]}/${test.sizes[1]})`;
  return { value: test.pvalue, text: test.pvalue < 0.001 ? '<0.001' : test.pvalue.toFixed(3), ...(test.pvalue < AUDIT_ALPHA ? { marks: '*' } : {}), note: detail };
}

const significant = (test: SignificanceTest | null | undefined) => test !== null && test !== undefined && test.pvalue < AUDIT_ALPHA;

/**
 * The `factkit audit` page from a leakage study: the paper's Table 2/4 as a sortable table (baseline, ALL, M, ¬M per
 * metric in %, mean ± SE over repeats, the best of ALL/M/¬M in bold, significance marks), the p-values, the matched
 * proportion (Table 3) and the problems by code; a chart of the metrics and one of the run counts per match outcome.
 * `markdown` is formatLeakageReport's text (printed and written by --out).
 */
export function buildAuditReport(input: { readonly result: LeakageStudyResult; readonly dataset: string; readonly claims: number; readonly unit: string; readonly markdown: string }): StudyReportOptions {
  const { result } = input;
  const names = result.metricNames;
  const baselineName = `${result.retrieverId} (claim only)`;
  const method = result.expanderId;
  const percentCell = (value: MeanWithError | null | undefined, options: { bold?: boolean; marks?: string } = {}) =>
    numberCell(value?.mean, { scale: 100, se: value?.standardError ?? null, ...(options.marks ? { marks: options.marks } : {}), ...(options.bold ? { bold: true } : {}) });
  const conditions: Array<[string, 'all' | 'matched' | 'unmatched' | 'unknown']> = [
    ['ALL', 'all'],
    ['M', 'matched'],
    ['¬M', 'unmatched'],
  ];
  if (result.counts.unknown > 0) conditions.push(['unknown', 'unknown']);
  const rows: StudyCell[][] = [];
  if (result.baseline) rows.push([baselineName, 'ALL', ...names.map((name) => numberCell(result.baseline?.[name], { scale: 100 }))]);
  for (const [label, key] of conditions) {
    rows.push([
      method,
      label,
      ...names.map((name) => {
        const summary = result.summary[name];
        const value = summary?.[key];
        if (!summary || !value) return numberCell(null);
        const means = [summary.all, summary.matched, summary.unmatched].map((entry) => entry?.mean ?? Number.NEGATIVE_INFINITY);
        const best = Math.max(...means);
        const bold = key !== 'unknown' && value.mean === best && means.filter((mean) => mean === best).length === 1;
        const marks = `${key === 'all' && significant(summary.versusBaseline) ? '†' : ''}${key === 'matched' && significant(summary.matchedVsUnmatched) ? '‡' : ''}`;
        return percentCell(value, { bold, marks });
      }),
    ]);
  }
  const results: StudyTable = {
    id: 'results',
    caption: `Retrieval with the bare claim and with ${method} expansions, split by whether the expansion matched the gold evidence`,
    columns: [{ label: 'method' }, { label: 'data' }, ...names.map((name) => ({ label: metricTitle(name), numeric: true }))],
    rows,
    notes: [
      `In %, mean ± standard error over ${result.repeats} repeat(s) (no ± with one repeat). ALL: every claim; M: claims whose expansion the NLI model (${result.nliId}) found to entail the gold evidence; ¬M: the others. Best of ALL/M/¬M in bold.`,
      `† ALL differs from the baseline, ‡ M differs from ¬M, at p < ${AUDIT_ALPHA} (two-sided; Mann–Whitney U over per-claim means, bootstrap for F1).`,
    ],
  };
  const significance: StudyTable = {
    id: 'significance',
    caption: 'Significance over claims (p-values)',
    columns: [{ label: 'metric' }, { label: 'M vs ¬M', numeric: true }, { label: 'M vs ALL', numeric: true }, { label: `${method} vs baseline`, numeric: true }],
    rows: names.map((name) => {
      const summary = result.summary[name];
      return [metricTitle(name), pCell(summary?.matchedVsUnmatched), pCell(summary?.matchedVsAll), pCell(summary?.versusBaseline)];
    }),
    notes: [`* p < ${AUDIT_ALPHA}. Recall/NDCG: Mann–Whitney U, two-sided, one value per claim (its mean over repeats); F1: bootstrap over claims of the macro-F1 difference, two-sided. n = claims per group.`],
  };
  const counts = result.counts;
  const matched: StudyTable = {
    id: 'matched',
    caption: 'Proportion of matched claims (the paper’s Table 3)',
    columns: [
      { label: 'method' },
      { label: 'matched (%)', numeric: true },
      { label: 'M runs', numeric: true },
      { label: '¬M runs', numeric: true },
      { label: 'unknown runs (NLI failed)', numeric: true },
      { label: 'no gold evidence', numeric: true },
    ],
    rows: [[method, percentCell(result.matchedProportion), ...[counts.matched, counts.unmatched, counts.unknown, counts.undecidable].map((count) => numberCell(count, { digits: 0 }))]],
    notes: ['The matched proportion counts claims whose match is known; unknown runs are in neither M nor ¬M. Runs = claims × repeats.'],
  };
  const byCode = new Map<string, number>();
  for (const problem of result.problems) byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
  const tables = [results, significance, matched];
  if (byCode.size > 0) {
    tables.push({
      id: 'problems',
      caption: 'Problems by code',
      columns: [{ label: 'code' }, { label: 'count', numeric: true }],
      rows: [...byCode.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([code, count]) => [code, numberCell(count, { digits: 0 })]),
    });
  }
  const metricsChart = renderBarChartSvg({
    title: `Leakage study: ${input.dataset}`,
    yLabel: 'mean over claims',
    xLabel: 'metric (whiskers: ± 1 standard error over repeats)',
    groups: names.map((name) => {
      const summary = result.summary[name];
      const bar = (label: string, value: MeanWithError | null | undefined) => ({ label, value: value ? value.mean : null, ...(value && Number.isFinite(value.standardError) ? { error: value.standardError } : {}) });
      return {
        label: metricTitle(name),
        bars: [{ label: baselineName, value: result.baseline?.[name] ?? null }, bar(`${method} ALL`, summary?.all), bar(`${method} M (matched)`, summary?.matched), bar(`${method} ¬M (unmatched)`, summary?.unmatched)],
      };
    }),
  });
  const countsChart = renderBarChartSvg({
    title: `Runs per match outcome (${input.claims} claims × ${result.repeats} repeat(s))`,
    scale: 'count',
    yLabel: 'runs',
    xLabel: 'match outcome',
    groups: [
      ['M (matched)', counts.matched],
      ['¬M (unmatched)', counts.unmatched],
      ['unknown', counts.unknown],
      ['no gold evidence', counts.undecidable],
      ['expansion failed', counts.expansionFailed],
    ].map(([label, value]) => ({ label: String(label), bars: [{ label: `${method} runs`, value: Number(value) }] })),
  });
  return {
    title: 'factkit audit',
    meta: `${input.dataset} · ${input.claims} claims · gold: ${input.unit === 'sentence' ? 'rationale sentences' : 'relevant documents'} · expander ${result.expanderId} · NLI ${result.nliId}`,
    charts: [
      { id: 'metrics', svg: metricsChart },
      { id: 'runs', svg: countsChart },
    ],
    tables,
    markdown: input.markdown,
    ...(result.incomplete.length > 0 ? { warnings: ['Incomplete: these numbers are not whole.', ...result.incomplete] } : {}),
  };
}
