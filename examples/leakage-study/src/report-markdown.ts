import { type LeakageStudyResult, type MeanWithError, type SignificanceTest, isEmptyGeneration } from '@factkit/nli-match';
import { renderBarChart, type PlotGroup } from './report-svg.js';

/** One study (method) of the report. */
export interface MethodResult {
  /** Shown in the tables, e.g. 'BM25+RM3', 'Query2doc'. */
  readonly method: string;
  /** Name of the baseline row this method is compared with, e.g. 'BM25'. */
  readonly baselineName: string;
  readonly result: LeakageStudyResult;
  /** False for LLM-free expanders (RM3): they generate no document, so there is no M / ¬M split. */
  readonly matching: boolean;
}

export interface ReportContext {
  readonly datasetName: string;
  readonly claims: number;
  readonly corpusSize: number;
  readonly command: string;
  /** Extra lines for the settings list (model ids, cache folder, …). */
  readonly notes?: readonly string[];
  /** What the knowledge store is and how its numbers relate to the paper's (printed under the heading). */
  readonly corpusNote?: string;
  /** Reasons some numbers are not whole beyond what the results say (e.g. documents that could not be embedded). */
  readonly incomplete?: readonly string[];
}

/** Every reason the report's numbers are not whole: the context's, then each method's. */
export function incompleteReasons(methods: readonly MethodResult[], context: Pick<ReportContext, 'incomplete'>): string[] {
  return [...(context.incomplete ?? []), ...methods.flatMap((entry) => entry.result.incomplete.map((reason) => `${entry.method}: ${reason}`))];
}

const METRIC_LABELS: Record<string, string> = { recall: 'Recall', ndcg: 'NDCG', f1: 'F1' };

/** 'recall@5' → 'Recall@5'. */
export function metricLabel(name: string): string {
  const [family = name, k] = name.split('@');
  return `${METRIC_LABELS[family] ?? family}${k === undefined ? '' : `@${k}`}`;
}

/** Value ×100 with one decimal and ± standard error (when defined), as in the paper's tables. */
export function formatMean(value: MeanWithError | null | undefined): string {
  if (!value || !Number.isFinite(value.mean)) return '–';
  const mean = (value.mean * 100).toFixed(1);
  return Number.isFinite(value.standardError) ? `${mean} ± ${(value.standardError * 100).toFixed(1)}` : mean;
}

function formatP(test: SignificanceTest | null | undefined): string {
  if (!test || !Number.isFinite(test.pvalue)) return '–';
  const p = test.pvalue < 0.001 ? '< 0.001' : test.pvalue.toFixed(3);
  return `${p} (${test.test === 'bootstrap' ? 'bootstrap' : 'MWU'})`;
}

function hasMatching(entry: MethodResult): boolean {
  return entry.matching && entry.result.matchedProportion !== null;
}

/** Renders the study as Markdown laid out like the paper's Tables 2–4 (ALL / M / ¬M, p-values, matched proportion). */
export function formatStudyReport(methods: readonly MethodResult[], context: ReportContext): string {
  const metricNames = [...new Set(methods.flatMap((entry) => entry.result.metricNames))];
  const lines: string[] = [];
  lines.push(`# Knowledge-leakage study: ${context.datasetName}`, '');
  const incomplete = incompleteReasons(methods, context);
  if (incomplete.length > 0) {
    lines.push('> **Incomplete: some numbers below are not whole.** Failed items are left out of every row and rate:', '>');
    for (const reason of incomplete) lines.push(`> - ${reason}`);
    lines.push('');
  }
  if (context.corpusNote) lines.push(context.corpusNote, '');
  lines.push(`- Claims: ${context.claims} (with gold evidence); knowledge store: ${context.corpusSize} documents`);
  const first = methods[0]?.result;
  if (first) lines.push(`- Repeats per claim: ${first.repeats}; cut-offs k = ${first.ks.join(', ')}`);
  for (const entry of methods) {
    lines.push(`- ${entry.method}: expander \`${entry.result.expanderId}\`, retriever \`${entry.result.retrieverId}\`, NLI \`${entry.result.nliId}\``);
  }
  for (const note of context.notes ?? []) lines.push(`- ${note}`);
  lines.push(`- Reproduce: \`${context.command}\``, '');

  lines.push('## Retrieval by matching condition (Tables 2 and 4)', '');
  lines.push('Values ×100, mean ± standard error over repeated generations. M = the generated document contains a sentence');
  lines.push('entailed by gold evidence; ¬M = it does not; unknown = the NLI calls failed, so the run is in neither. Methods');
  lines.push('without generations (RM3) have only ALL.', '');
  lines.push(`| Method | Data | ${metricNames.map(metricLabel).join(' | ')} | claim × repeat runs |`);
  lines.push(`|---|---|${metricNames.map(() => '---:').join('|')}|---:|`);
  const baselinesShown = new Set<string>();
  for (const entry of methods) {
    const { result } = entry;
    if (result.baseline && !baselinesShown.has(entry.baselineName)) {
      baselinesShown.add(entry.baselineName);
      lines.push(`| ${entry.baselineName} | ALL | ${metricNames.map((name) => (result.baseline?.[name] === undefined ? '–' : ((result.baseline[name] as number) * 100).toFixed(1))).join(' | ')} | |`);
    }
    const { counts } = result;
    lines.push(`| ${entry.method} | ALL | ${metricNames.map((name) => formatMean(result.summary[name]?.all)).join(' | ')} | |`);
    if (hasMatching(entry)) {
      lines.push(`| | M | ${metricNames.map((name) => formatMean(result.summary[name]?.matched)).join(' | ')} | ${counts.matched} |`);
      lines.push(`| | ¬M | ${metricNames.map((name) => formatMean(result.summary[name]?.unmatched)).join(' | ')} | ${counts.unmatched} |`);
    }
    if (entry.matching && counts.unknown > 0) {
      lines.push(`| | unknown | ${metricNames.map((name) => formatMean(result.summary[name]?.unknown)).join(' | ')} | ${counts.unknown} |`);
    }
  }
  lines.push('');

  lines.push('## Significance over claims', '');
  lines.push('One value per claim (its mean over repeats, within the condition). Recall/NDCG: Mann–Whitney U, two-sided (MWU),');
  lines.push('as in the paper; F1: bootstrap over claims of the macro-F1 difference, two-sided. Each cell names its test.', '');
  lines.push(`| Method | Comparison | ${metricNames.map(metricLabel).join(' | ')} |`);
  lines.push(`|---|---|${metricNames.map(() => '---:').join('|')}|`);
  for (const entry of methods) {
    const { summary } = entry.result;
    if (entry.result.baselineRuns) lines.push(`| ${entry.method} | vs ${entry.baselineName} | ${metricNames.map((name) => formatP(summary[name]?.versusBaseline)).join(' | ')} |`);
    if (hasMatching(entry)) {
      lines.push(`| ${entry.method} | M vs ¬M | ${metricNames.map((name) => formatP(summary[name]?.matchedVsUnmatched)).join(' | ')} |`);
      lines.push(`| ${entry.method} | M vs ALL | ${metricNames.map((name) => formatP(summary[name]?.matchedVsAll)).join(' | ')} |`);
    }
  }
  lines.push('');

  const withMatching = methods.filter((entry) => hasMatching(entry));
  if (withMatching.length > 0) {
    lines.push('## Proportion of claims matched (Table 3)', '');
    lines.push('Over claims whose match is known; unknown runs (NLI failed) are counted apart and are in neither M nor ¬M.', '');
    lines.push('| Method | matched (%) | M runs | ¬M runs | unknown runs | no gold evidence |', '|---|---:|---:|---:|---:|---:|');
    for (const entry of withMatching) {
      const { counts } = entry.result;
      lines.push(`| ${entry.method} | ${formatMean(entry.result.matchedProportion)} | ${counts.matched} | ${counts.unmatched} | ${counts.unknown} | ${counts.undecidable} |`);
    }
    lines.push('');
  }

  lines.push('## Problems', '');
  let anyProblem = false;
  for (const entry of methods) {
    const byCode = new Map<string, number>();
    for (const problem of entry.result.problems) {
      // An LLM-free expander has no generation to match: its empty-generation notes are expected, not problems.
      if (!entry.matching && isEmptyGeneration(problem)) continue;
      byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
    }
    if (byCode.size === 0) continue;
    anyProblem = true;
    lines.push(`- ${entry.method}: ${[...byCode.entries()].map(([code, count]) => `${code} × ${count}`).join(', ')}`);
  }
  if (!anyProblem) lines.push('- none');
  lines.push('', 'Plot: [leakage-study.svg](leakage-study.svg)', '');
  return lines.join('\n');
}

/** One model's methods, for the multi-LLM grid. */
export interface ModelResults {
  readonly model: string;
  readonly methods: readonly MethodResult[];
}

/**
 * The multi-LLM grid: Table 3 (matched proportion per model and method) and, per LLM method, the Tables 2/4 and
 * A1–A3 layout (rows: baseline, then each model's ALL / M / ¬M; columns: every metric at every k).
 */
export function formatModelGrid(models: readonly ModelResults[], context: { readonly datasetName: string; readonly command: string; readonly corpusNote?: string }): string {
  const lines: string[] = [`# Knowledge-leakage study across LLMs: ${context.datasetName}`, ''];
  const incomplete = models.flatMap((entry) => incompleteReasons(entry.methods, {}).map((reason) => `${entry.model} ${reason}`));
  if (incomplete.length > 0) {
    lines.push('> **Incomplete: some numbers below are not whole.** Failed items are left out of every row and rate:', '>');
    for (const reason of incomplete) lines.push(`> - ${reason}`);
    lines.push('');
  }
  if (context.corpusNote) lines.push(context.corpusNote, '');
  lines.push(`Reproduce: \`${context.command}\``, '');
  const methodNames = [...new Set(models.flatMap((entry) => entry.methods.filter((method) => method.matching).map((method) => method.method)))];
  const find = (entry: ModelResults, name: string) => entry.methods.find((method) => method.method === name);
  lines.push('## Proportion of claims matched (Table 3)', '');
  lines.push(`| Model | ${methodNames.join(' | ')} |`, `|---|${methodNames.map(() => '---:').join('|')}|`);
  for (const entry of models) lines.push(`| ${entry.model} | ${methodNames.map((name) => formatMean(find(entry, name)?.result.matchedProportion)).join(' | ')} |`);
  lines.push('');
  for (const name of methodNames) {
    const sample = models.map((entry) => find(entry, name)).find((method) => method !== undefined);
    if (!sample) continue;
    const metricNames = sample.result.metricNames;
    lines.push(`## ${name} by model (Tables 2, 4 and A1–A3)`, '');
    lines.push(`| Model | Data | ${metricNames.map(metricLabel).join(' | ')} |`, `|---|---|${metricNames.map(() => '---:').join('|')}|`);
    if (sample.result.baseline) {
      lines.push(`| ${sample.baselineName} | ALL | ${metricNames.map((metric) => (sample.result.baseline?.[metric] === undefined ? '–' : ((sample.result.baseline[metric] as number) * 100).toFixed(1))).join(' | ')} |`);
    }
    for (const entry of models) {
      const method = find(entry, name);
      if (!method) continue;
      const { summary } = method.result;
      lines.push(`| ${entry.model} | ALL | ${metricNames.map((metric) => formatMean(summary[metric]?.all)).join(' | ')} |`);
      lines.push(`| | M | ${metricNames.map((metric) => formatMean(summary[metric]?.matched)).join(' | ')} |`);
      lines.push(`| | ¬M | ${metricNames.map((metric) => formatMean(summary[metric]?.unmatched)).join(' | ')} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** The SVG plot: for each method and Recall/NDCG metric, bars ALL / M / ¬M and a dashed baseline line. */
export function formatStudyPlot(methods: readonly MethodResult[], context: { readonly datasetName: string }): string {
  const groups: PlotGroup[] = [];
  const baselines: { groupIndex: number; value: number; label: string }[] = [];
  for (const entry of methods) {
    for (const name of entry.result.metricNames.filter((metric) => !metric.startsWith('f1'))) {
      const summary = entry.result.summary[name];
      const bars = [{ name: 'ALL', value: summary?.all?.mean ?? null, error: finite(summary?.all?.standardError) }];
      if (hasMatching(entry)) {
        bars.push({ name: 'matched (M)', value: summary?.matched?.mean ?? null, error: finite(summary?.matched?.standardError) });
        bars.push({ name: 'unmatched (¬M)', value: summary?.unmatched?.mean ?? null, error: finite(summary?.unmatched?.standardError) });
      }
      const baseline = entry.result.baseline?.[name];
      if (baseline !== undefined) baselines.push({ groupIndex: groups.length, value: baseline, label: entry.baselineName });
      groups.push({ label: `${entry.method} · ${metricLabel(name)}`, bars });
    }
  }
  return renderBarChart(groups, { title: `Knowledge leakage: ${context.datasetName} (matched vs unmatched vs baseline)`, baselines });
}

function finite(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) ? value : 0;
}
