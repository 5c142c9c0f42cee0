import { basename } from 'node:path';
import type { EvaluateRunResult } from '@factkit/metrics';
import type { RunComparison } from '../commands/eval-runs.js';
import { renderBarChartSvg } from './bar-chart.js';
import type { StudyReportOptions } from './study-report.js';
import { type NumberCell, numberCell, type StudyTable } from './study-table.js';

/** The significance level of the marks on the eval page. */
export const EVAL_ALPHA = 0.05;

/** Short, distinct names for run files: the base names, or the paths where two base names collide. */
export function runNames(paths: readonly string[]): string[] {
  const bases = paths.map((path) => basename(path));
  return bases.map((base, k) => (bases.indexOf(base) === bases.lastIndexOf(base) ? base : paths[k]!));
}

/** A p-value cell: 4 decimals, '<0.001' below that, * under α; '–' when the test is undefined (e.g. zero variance). */
const pCell = (p: number): NumberCell => (Number.isFinite(p) ? { value: p, text: p < 0.001 ? '<0.001' : p.toFixed(4), ...(p < EVAL_ALPHA ? { marks: '*' } : {}) } : numberCell(null));

/**
 * The `factkit eval --runs` page: one row per run (mean per measure over the judged queries, the best per measure in
 * bold; with two runs, † where run b differs from run a by the paired randomization test at p < 0.05), the paired tests
 * as a second table, and a chart of the means. `markdown` is the command's printed report.
 */
export function buildEvalReport(input: {
  readonly qrels: string;
  readonly paths: readonly string[];
  readonly evaluations: readonly EvaluateRunResult[];
  readonly comparison?: readonly RunComparison[] | undefined;
  readonly resamples: number;
  readonly seed: number;
  readonly markdown: string;
}): StudyReportOptions {
  const { paths, evaluations, comparison } = input;
  const names = runNames(paths);
  const measures = (evaluations[0]?.measures ?? []).filter((measure) => !measure.startsWith('num_'));
  const best = (measure: string) => {
    const values = evaluations.map((evaluation) => evaluation.aggregate[measure] ?? Number.NEGATIVE_INFINITY);
    const top = Math.max(...values);
    return evaluations.length > 1 && values.filter((value) => value === top).length === 1 ? top : undefined;
  };
  const marked = new Set((comparison ?? []).filter((row) => row.randomizationP < EVAL_ALPHA).map((row) => row.measure));
  const runsTable: StudyTable = {
    id: 'runs',
    caption: `Runs scored on ${input.qrels}`,
    columns: [{ label: 'run' }, { label: 'queries', numeric: true }, ...measures.map((measure) => ({ label: measure, numeric: true }))],
    rows: evaluations.map((evaluation, k) => [
      names[k]!,
      numberCell(evaluation.evaluatedQueries.length, { digits: 0 }),
      ...measures.map((measure) => {
        const value = evaluation.aggregate[measure];
        return numberCell(value, { digits: 4, bold: value !== undefined && value === best(measure), ...(k === 1 && marked.has(measure) ? { marks: '†' } : {}) });
      }),
    ]),
    notes: [
      'Mean over the judged queries (trec_eval -c: a query missing from a run scores 0). Best run per measure in bold.',
      ...(comparison ? [`† differs from ${names[0]} at p < ${EVAL_ALPHA} (paired randomization test, two-sided).`] : []),
    ],
  };
  const tables: StudyTable[] = [runsTable];
  if (comparison) {
    tables.push({
      id: 'paired',
      caption: `Paired tests: a = ${names[0]} vs b = ${names[1]}`,
      columns: [{ label: 'measure' }, { label: 'a', numeric: true }, { label: 'b', numeric: true }, { label: 'a − b', numeric: true }, { label: 't-test p', numeric: true }, { label: 'randomization p', numeric: true }],
      rows: comparison.map((row) => [
        row.measure,
        numberCell(row.meanA, { digits: 4 }),
        numberCell(row.meanB, { digits: 4 }),
        { ...numberCell(row.difference, { digits: 4 }), text: `${row.difference >= 0 ? '+' : ''}${row.difference.toFixed(4)}` },
        pCell(row.tTestP),
        pCell(row.randomizationP),
      ]),
      notes: [`${comparison[0]?.queries ?? 0} queries; randomization: ${input.resamples} sign flips, seed ${input.seed}, exact when 2^n ≤ resamples. * p < ${EVAL_ALPHA}.`],
    });
  }
  const chart = renderBarChartSvg({
    title: `Runs on ${input.qrels}`,
    scale: 'score',
    yLabel: 'mean over queries',
    xLabel: 'measure',
    groups: measures.map((measure) => ({ label: measure, bars: evaluations.map((evaluation, k) => ({ label: names[k]!, value: evaluation.aggregate[measure] ?? null })) })),
  });
  return { title: 'factkit eval', meta: `${input.qrels} · ${paths.join(' vs ')}`, charts: [{ id: 'measures', svg: chart }], tables, markdown: input.markdown };
}
