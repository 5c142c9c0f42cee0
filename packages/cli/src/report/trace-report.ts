import type { Document } from '@factkit/core';
import type { TraceResult } from '@factkit/fasttrack';
import { renderBarChartSvg } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import { meanWithError, scoreIdSets } from './set-scores.js';
import { formatMarkdownTable, type StudyReportOptions } from './study-report.js';

/** What one method returned for each statement (same order as the statements). */
export interface TraceMethodRun {
  readonly method: string;
  readonly perStatement: ReadonlyArray<{ readonly supporting: readonly string[]; readonly judged?: number; readonly incomplete?: boolean }>;
  /** E.g. the chosen k of a ranking baseline. */
  readonly note?: string;
}

/**
 * The ranking baseline of the FastTrack paper: the top k of each ranking, with one k for all statements chosen to
 * maximise mean F1 over the statements that have gold ids (best-F1 over top-k). Without gold, k = 10.
 */
export function bestTopKRun(rankings: readonly (readonly string[])[], statements: readonly string[], gold: ReadonlyMap<string, readonly string[]>): TraceMethodRun {
  const maxK = Math.max(1, ...rankings.map((ranking) => ranking.length));
  let bestK = Math.min(10, maxK);
  let bestF1 = -1;
  if (statements.some((statement) => gold.has(statement))) {
    for (let k = 1; k <= maxK; k++) {
      const scores = statements.flatMap((statement, position) => (gold.has(statement) ? [scoreIdSets((rankings[position] ?? []).slice(0, k), gold.get(statement)!).f1] : []));
      const mean = scores.reduce((sum, value) => sum + value, 0) / scores.length;
      if (mean > bestF1 + 1e-12) {
        bestF1 = mean;
        bestK = k;
      }
    }
  }
  return { method: `BM25 top-${bestK} (best F1 over k)`, perStatement: rankings.map((ranking) => ({ supporting: ranking.slice(0, bestK) })), note: `k = ${bestK} of 1–${maxK}` };
}

export interface TraceReportInput {
  readonly corpus: string;
  readonly documents: readonly Document[];
  readonly statements: readonly string[];
  readonly gold: ReadonlyMap<string, readonly string[]>;
  readonly runs: readonly TraceMethodRun[];
  /** FastTrack's own results (clusters and judge calls for the per-statement sections). */
  readonly results: readonly TraceResult[];
}

const percent = (value: number | undefined) => (value === undefined ? '–' : (value * 100).toFixed(1));

/**
 * The `factkit trace` report: P/R/F1 per method (mean ± SE over the statements with gold ids; a statement whose
 * candidates the judge could not all decide is left out of that method's numbers), a per-statement table, an SVG
 * chart and one collapsible section per statement with the supporting documents. Corpus strings are escaped.
 */
export function buildTraceReport(input: TraceReportInput): StudyReportOptions {
  const { corpus, documents, statements, gold, runs, results } = input;
  const textById = new Map(documents.map((document) => [document.id, document.text]));
  const withGold = statements.map((statement, position) => ({ statement, position })).filter(({ statement }) => gold.has(statement));
  const summary = runs.map((run) => {
    const scored = withGold.filter(({ position }) => run.perStatement[position]?.incomplete !== true).map(({ statement, position }) => scoreIdSets(run.perStatement[position]?.supporting ?? [], gold.get(statement)!));
    const judged = run.perStatement.map((entry) => entry.judged).filter((value): value is number => value !== undefined);
    return {
      run,
      precision: meanWithError(scored.map((score) => score.precision)),
      recall: meanWithError(scored.map((score) => score.recall)),
      f1: meanWithError(scored.map((score) => score.f1)),
      scored: scored.length,
      left: withGold.length - scored.length,
      judged: judged.length > 0 ? judged.reduce((sum, value) => sum + value, 0) : undefined,
    };
  });
  const lines = [`## Fact tracing: ${corpus}`, '', `${documents.length} documents, ${statements.length} statements, ${withGold.length} with gold supporting ids.`, ''];
  if (withGold.length > 0) {
    lines.push(
      formatMarkdownTable(
        ['method', 'statements scored', 'precision', 'recall', 'F1', 'candidates judged'],
        summary.map((row) => [
          row.run.method + (row.run.note ? ` (${row.run.note})` : ''),
          `${row.scored}${row.left > 0 ? ` (${row.left} incomplete, left out)` : ''}`,
          row.precision ? `${percent(row.precision.mean)} ± ${percent(row.precision.standardError)}` : '–',
          row.recall ? `${percent(row.recall.mean)} ± ${percent(row.recall.standardError)}` : '–',
          row.f1 ? `${percent(row.f1.mean)} ± ${percent(row.f1.standardError)}` : '–',
          row.judged ?? '–',
        ]),
      ),
      '',
      'Mean ± standard error over statements, in %.',
      '',
    );
  } else lines.push('No gold supporting ids (give --queries as JSON lines with "supporting"): no precision, recall or F1.', '');
  lines.push('### Per statement', '');
  lines.push(
    formatMarkdownTable(
      ['statement', 'gold', ...runs.map((run) => run.method)],
      statements.map((statement, position) => [
        statement,
        gold.get(statement)?.join(', ') ?? '–',
        ...runs.map((run) => {
          const entry = run.perStatement[position];
          if (!entry) return '–';
          const goldIds = gold.get(statement);
          const found = `${entry.supporting.length} found${entry.incomplete ? ', incomplete' : ''}`;
          return goldIds ? `${found}; F1 ${percent(scoreIdSets(entry.supporting, goldIds).f1)}` : found;
        }),
      ]),
    ),
  );
  const markdown = `${lines.join('\n')}\n`;
  const chart =
    withGold.length > 0
      ? renderBarChartSvg({
          title: `Fact tracing: precision, recall, F1 per method (${withGold.length} statements)`,
          groups: (['precision', 'recall', 'f1'] as const).map((metric) => ({
            label: metric === 'f1' ? 'F1' : metric,
            bars: summary.map((row) => ({ label: row.run.method, value: row[metric]?.mean ?? null, ...(row[metric] ? { error: row[metric].standardError } : {}) })),
          })),
        })
      : renderBarChartSvg({
          title: 'Fact tracing: supporting documents found per statement',
          percent: false,
          max: Math.max(1, ...runs.flatMap((run) => run.perStatement.map((entry) => entry.supporting.length))),
          groups: statements.map((statement, position) => ({ label: `S${position + 1}`, bars: runs.map((run) => ({ label: run.method, value: run.perStatement[position]?.supporting.length ?? null })) })),
        });
  const sections = statements.map((statement, position) => {
    const goldIds = new Set(gold.get(statement) ?? []);
    const result = results[position];
    const methods = runs
      .map((run) => {
        const entry = run.perStatement[position];
        const items = (entry?.supporting ?? [])
          .map((id) => `<li data-document="${escapeHtml(id)}"${goldIds.has(id) ? ' class="gold"' : ''}><code>${escapeHtml(id)}</code>${goldIds.has(id) ? ' ✓' : ''} ${escapeHtml((textById.get(id) ?? '').slice(0, 300))}</li>`)
          .join('');
        return `<h4>${escapeHtml(run.method)}</h4>${items ? `<ol class="supporting">${items}</ol>` : '<p><em>none</em></p>'}`;
      })
      .join('');
    const clusters = result ? `<p class="meta">leaves matched: ${result.clusters.length} · candidates judged ${result.cost.candidatesJudged} of ${result.cost.bruteForce.candidates}</p>` : '';
    return { summary: `S${position + 1}: ${statement}`, className: 'statement', html: `${goldIds.size > 0 ? `<p>gold: ${[...goldIds].map((id) => `<code>${escapeHtml(id)}</code>`).join(', ')}</p>` : ''}${clusters}${methods}` };
  });
  return { title: 'factkit trace', meta: `${corpus} · ${documents.length} documents · ${statements.length} statements · methods: ${runs.map((run) => run.method).join(', ')}`, charts: [chart], markdown, sections };
}
