import type { LeakageStudyResult, MeanWithError, SignificanceTest } from './leakage-study-types.js';

export interface FormatLeakageReportOptions {
  /** Decimals of percentages (the paper prints one). @default 1 */
  readonly digits?: number;
  /** Heading line. @default `Leakage study: <dataset>` */
  readonly title?: string;
  /** Name of the baseline row. @default `<retriever id> (claim only)` */
  readonly baselineName?: string;
  /** Name of the expansion method rows. @default the expander id */
  readonly methodName?: string;
}

const LABELS: Readonly<Record<string, string>> = { recall: 'Recall', ndcg: 'NDCG', f1: 'F1' };

function metricTitle(name: string): string {
  const [kind, k] = name.split('@') as [string, string];
  return `${LABELS[kind] ?? kind}@${k}`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/gu, '\\|').replace(/\n/gu, ' ');
}

function formatP(pvalue: number): string {
  if (pvalue < 0.001) return '<0.001';
  return pvalue.toFixed(3);
}

/**
 * Lays out a {@link LeakageStudyResult} as Markdown like the paper: a Table 2/4-style table (baseline ALL, method ALL,
 * M, ¬M; percentages, mean±SE over repeats, best of ALL/M/¬M in bold), Mann–Whitney U p-values, the proportion of
 * matched claims (Table 3), and a count of problems by code. Pure.
 * @example formatLeakageReport(await runLeakageStudy(options))
 */
export function formatLeakageReport(result: LeakageStudyResult, options: FormatLeakageReportOptions = {}): string {
  const { digits = 1, title = `Leakage study: ${result.datasetName}`, baselineName = `${result.retrieverId} (claim only)`, methodName = result.expanderId } = options;
  const percent = (value: number) => (value * 100).toFixed(digits);
  const cell = (value: MeanWithError | null, bold: boolean) => {
    if (value === null) return '–';
    const error = Number.isFinite(value.standardError) ? `±${percent(value.standardError)}` : '';
    const text = `${percent(value.mean)}${error}`;
    return bold ? `**${text}**` : text;
  };
  const names = result.metricNames;
  const lines: string[] = [];
  lines.push(`## ${escapeCell(title)}`, '');
  lines.push(
    `Retriever \`${escapeCell(result.retrieverId)}\`, expander \`${escapeCell(result.expanderId)}\`, NLI \`${escapeCell(result.nliId)}\`` +
      `${result.verdictModelId ? `, verdict model \`${escapeCell(result.verdictModelId)}\`` : ''}; ${result.repeats} repeat(s); values in %, mean±SE over repeats.`,
    '',
  );
  lines.push(`| Method | Data | ${names.map(metricTitle).join(' | ')} |`);
  lines.push(`|---|---|${names.map(() => '---:').join('|')}|`);
  if (result.baseline) {
    lines.push(`| ${escapeCell(baselineName)} | ALL | ${names.map((name) => (result.baseline?.[name] === undefined ? '–' : percent(result.baseline[name] as number))).join(' | ')} |`);
  }
  const rows: Array<['ALL' | 'M' | '¬M' | 'unknown', 'all' | 'matched' | 'unmatched' | 'unknown']> = [
    ['ALL', 'all'],
    ['M', 'matched'],
    ['¬M', 'unmatched'],
  ];
  // Runs whose match is unknown (NLI failed) get their own row, so they are visibly in neither M nor ¬M.
  if (result.counts.unknown > 0) rows.push(['unknown', 'unknown']);
  rows.forEach(([label, key], rowIndex) => {
    const cells = names.map((name) => {
      const summary = result.summary[name];
      if (!summary) return '–';
      const candidates = [summary.all, summary.matched, summary.unmatched].map((value) => value?.mean ?? Number.NEGATIVE_INFINITY);
      const best = Math.max(...candidates);
      const value = summary[key];
      return cell(value, key !== 'unknown' && value !== null && candidates.filter((mean) => mean === best).length === 1 && value.mean === best);
    });
    lines.push(`| ${rowIndex === 0 ? escapeCell(methodName) : ''} | ${label} | ${cells.join(' | ')} |`);
  });
  const testCell = (test: SignificanceTest | null | undefined) => (test ? `${formatP(test.pvalue)} (${test.test === 'bootstrap' ? 'bootstrap' : `U=${test.statistic.toFixed(1)}`}, n=${test.sizes[0]}/${test.sizes[1]})` : '–');
  lines.push('', '**Significance over claims** (Recall/NDCG: Mann–Whitney U, two-sided, one value per claim = its mean over repeats; F1: bootstrap over claims of the macro-F1 difference, two-sided)', '');
  lines.push(`| Metric | M vs ¬M: p | M vs ALL: p | ${escapeCell(methodName)} vs baseline: p |`);
  lines.push('|---|---:|---:|---:|');
  for (const name of names) {
    const summary = result.summary[name];
    lines.push(`| ${metricTitle(name)} | ${testCell(summary?.matchedVsUnmatched)} | ${testCell(summary?.matchedVsAll)} | ${testCell(summary?.versusBaseline)} |`);
  }
  lines.push('', '**Proportion of matched claims (Table 3)**', '');
  lines.push(
    `| Method | Matched (%) | M runs | ¬M runs | unknown runs (NLI failed) | no gold evidence |`,
    `|---|---:|---:|---:|---:|---:|`,
    `| ${escapeCell(methodName)} | ${cell(result.matchedProportion, false)} | ${result.counts.matched} | ${result.counts.unmatched} | ${result.counts.unknown} | ${result.counts.undecidable} |`,
    '',
    'The matched proportion counts claims whose match is known; unknown runs are in neither M nor ¬M.',
  );
  if (result.incomplete.length > 0) {
    lines.push('', '**Incomplete: these numbers are not whole**', '', ...result.incomplete.map((reason) => `- ${escapeCell(reason)}`));
  }
  const counts = new Map<string, number>();
  for (const problem of result.problems) counts.set(problem.code, (counts.get(problem.code) ?? 0) + 1);
  lines.push('', '**Problems**', '');
  if (counts.size === 0) lines.push('None.');
  else {
    lines.push('| Code | Count |', '|---|---:|');
    for (const [code, count] of [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) lines.push(`| ${escapeCell(code)} | ${count} |`);
  }
  return `${lines.join('\n')}\n`;
}
