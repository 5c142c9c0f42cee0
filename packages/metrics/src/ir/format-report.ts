import { InvalidArgumentError } from '@factkit/core';
import type { EvaluateRunResult } from './evaluate-run.js';
import { COUNT_MEASURES } from './metric-names.js';

/** Options of the report formatters. */
export interface FormatReportOptions {
  /** Decimals for non-count measures. @default 4 */
  digits?: number;
  /** Include one row per query before the `all` row. @default false */
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
export function formatMarkdownReport(result: EvaluateRunResult, options: FormatReportOptions = {}): string {
  const { digits = 4, perQuery = false } = options;
  checkDigits(digits, 'formatMarkdownReport');
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const header = `| query | ${result.measures.map(escape).join(' | ')} |`;
  const rule = `|---|${result.measures.map(() => '---:').join('|')}|`;
  const row = (label: string, values: Readonly<Record<string, number>>) => `| ${escape(label)} | ${result.measures.map((measure) => formatValue(measure, values[measure], digits)).join(' | ')} |`;
  const rows = perQuery ? result.evaluatedQueries.map((queryId) => row(queryId, result.perQuery[queryId] ?? {})) : [];
  return [header, rule, ...rows, row('all', result.aggregate)].join('\n') + '\n';
}

/** Renders an evaluation as pretty JSON with `measures`, `aggregate`, query lists and (optionally) `perQuery`. */
export function formatJsonReport(result: EvaluateRunResult, options: Pick<FormatReportOptions, 'perQuery'> = {}): string {
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
export function formatTrecEvalReport(result: EvaluateRunResult, options: Pick<FormatReportOptions, 'perQuery'> = {}): string {
  const { perQuery = true } = options;
  const out: string[] = [];
  const emit = (label: string, values: Readonly<Record<string, number>>) => {
    for (const measure of result.measures) out.push(`${measure.padEnd(22)}\t${label}\t${formatValue(measure, values[measure], 4)}\n`);
  };
  if (perQuery) for (const queryId of result.evaluatedQueries) emit(queryId, result.perQuery[queryId] ?? {});
  emit('all', result.aggregate);
  return out.join('');
}
