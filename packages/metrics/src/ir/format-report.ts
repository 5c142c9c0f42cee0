import { InvalidArgumentError } from '@factkit/core';
import type { EvaluateRunResult } from './evaluate-run.js';
import { COUNT_MEASURES } from './metric-names.js';

/** Options of `formatReport`. */
export interface FormatReportOptions {
  /**
   * `markdown`: a table, one column per measure and an `all` row; `json`: pretty JSON with `measures`, `aggregate`,
   * the query lists and `perQuery`; `trec_eval`: trec_eval's `-q` text (`measure<TAB>qid<TAB>value`, `%6.4f`).
   * @default 'markdown'
   */
  format?: 'markdown' | 'json' | 'trec_eval';
  /** Decimals for non-count measures (markdown only; trec_eval prints 4 as trec_eval does). @default 4 */
  digits?: number;
  /** Include the per-query values (rows before the `all` row). @default false for markdown, true for json and trec_eval */
  perQuery?: boolean;
}

function formatValue(measure: string, value: number | undefined, digits: number): string {
  if (value === undefined) return '';
  return COUNT_MEASURES.has(measure) ? String(value) : value.toFixed(digits);
}

function checkDigits(digits: number, where: string): void {
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new InvalidArgumentError({ where, argument: 'digits', message: `must be an integer in [0, 20] (got ${String(digits)})` });
}

/** Renders an evaluation as a Markdown table: one column per measure, an `all` row (and per-query rows if asked). */
function formatMarkdownReport(result: EvaluateRunResult, options: FormatReportOptions = {}): string {
  const { digits = 4, perQuery = false } = options;
  checkDigits(digits, 'formatReport');
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const header = `| query | ${result.measures.map(escape).join(' | ')} |`;
  const rule = `|---|${result.measures.map(() => '---:').join('|')}|`;
  const row = (label: string, values: Readonly<Record<string, number>>) => `| ${escape(label)} | ${result.measures.map((measure) => formatValue(measure, values[measure], digits)).join(' | ')} |`;
  const rows = perQuery ? result.evaluatedQueries.map((queryId) => row(queryId, result.perQuery[queryId] ?? {})) : [];
  return [header, rule, ...rows, row('all', result.aggregate)].join('\n') + '\n';
}

/** Renders an evaluation as pretty JSON with `measures`, `aggregate`, query lists and (optionally) `perQuery`. */
function formatJsonReport(result: EvaluateRunResult, options: Pick<FormatReportOptions, 'perQuery'> = {}): string {
  const { perQuery = true } = options;
  const body = {
    measures: result.measures,
    aggregate: result.aggregate,
    evaluatedQueries: result.evaluatedQueries,
    runOnlyQueries: result.runOnlyQueries,
    qrelsOnlyQueries: result.qrelsOnlyQueries,
    ...(perQuery ? { perQuery: result.perQuery } : {}),
  };
  return JSON.stringify(body, null, 2) + '\n';
}

/** Renders an evaluation in trec_eval's `-q` text layout (`measure<TAB>qid<TAB>value`, `%6.4f` floats), measures in request order. */
function formatTrecEvalReport(result: EvaluateRunResult, options: Pick<FormatReportOptions, 'perQuery'> = {}): string {
  const { perQuery = true } = options;
  const out: string[] = [];
  const emit = (label: string, values: Readonly<Record<string, number>>) => {
    for (const measure of result.measures) out.push(`${measure.padEnd(22)}\t${label}\t${formatValue(measure, values[measure], 4)}\n`);
  };
  if (perQuery) for (const queryId of result.evaluatedQueries) emit(queryId, result.perQuery[queryId] ?? {});
  emit('all', result.aggregate);
  return out.join('');
}

const REPORT_FORMATS: readonly NonNullable<FormatReportOptions['format']>[] = ['markdown', 'json', 'trec_eval'];

/**
 * Renders an `evaluateRun` result as a Markdown table (default), pretty JSON or trec_eval's `-q` text.
 * @throws InvalidArgumentError for an unknown `format` or a bad `digits`.
 * @example formatReport(evaluateRun(qrels, run, { metrics: ['map'] }), { format: 'trec_eval' })
 */
export function formatReport(result: EvaluateRunResult, options: FormatReportOptions = {}): string {
  const { format = 'markdown', ...rest } = options;
  if (format === 'markdown') return formatMarkdownReport(result, rest);
  if (format === 'json') return formatJsonReport(result, rest);
  if (format === 'trec_eval') return formatTrecEvalReport(result, rest);
  throw new InvalidArgumentError({ where: 'formatReport', argument: 'format', message: `must be one of ${REPORT_FORMATS.join(', ')} (got ${String(format)})` });
}
