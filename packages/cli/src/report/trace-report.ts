import type { Document } from '@factkit/core';
import type { TraceMethodRun, TraceStatement, TraceStudyResult } from '@factkit/fasttrack';
import { computeSetScores } from '@factkit/metrics';
import { renderBarChartSvg } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import { formatMarkdownTable, type StudyReportOptions } from './study-report.js';

export interface TraceReportInput {
  readonly corpus: string;
  readonly documents: readonly Document[];
  readonly statements: readonly TraceStatement[];
  /** `runTraceStudy`'s result: FastTrack first, then the baselines. */
  readonly study: TraceStudyResult;
}

/** A method's row label; a ranking baseline shows its shared cutoff. */
const methodLabel = (run: TraceMethodRun) => (run.kind === 'ranking' ? `${run.method} top-${run.k} (best F1 over k)` : run.method);
/** Mean ± SE in %; the SE of a single statement is unknown (–). */
const meanCell = (value: { mean: number; standardError: number } | undefined) => (value ? `${percent(value.mean)} ± ${Number.isFinite(value.standardError) ? percent(value.standardError) : '–'}` : '–');
const percent = (value: number | undefined) => (value === undefined ? '–' : (value * 100).toFixed(1));

/**
 * The `factkit trace` report: P/R/F1 per method (mean ± SE over the statements with gold ids; a statement whose
 * candidates the judge could not all decide is left out of that method's numbers), a per-statement table, an SVG
 * chart and one collapsible section per statement with the supporting documents. Corpus strings are escaped.
 */
export function buildTraceReport(input: TraceReportInput): StudyReportOptions {
  const { corpus, documents, statements, study } = input;
  const runs = study.methods;
  const textById = new Map(documents.map((document) => [document.id, document.text]));
  const lines = [`## Fact tracing: ${corpus}`, '', `${documents.length} documents, ${statements.length} statements, ${study.statementsWithGold} with gold supporting ids.`, ''];
  if (study.statementsWithGold > 0) {
    lines.push(
      formatMarkdownTable(
        ['method', 'statements scored', 'precision', 'recall', 'F1', 'candidates judged'],
        runs.map((run) => {
          const judged = run.perStatement.flatMap((entry) => (entry.judged === undefined ? [] : [entry.judged]));
          const scored = run.scores?.statements ?? 0;
          const left = study.statementsWithGold - scored;
          return [
            methodLabel(run) + (run.kind === 'ranking' ? ` (k = ${run.k})` : ''),
            `${scored}${left > 0 ? ` (${left} incomplete, left out)` : ''}`,
            meanCell(run.scores?.precision),
            meanCell(run.scores?.recall),
            meanCell(run.scores?.f1),
            judged.length > 0 ? judged.reduce((sum, value) => sum + value, 0) : '–',
          ];
        }),
      ),
      '',
      'Mean ± standard error over statements, in %.',
      '',
    );
  } else lines.push('No gold supporting ids (give --queries as JSON lines with "supporting"): no precision, recall or F1.', '');
  if (study.incomplete.length > 0)
    lines.push(
      '### Incomplete',
      '',
      ...study.incomplete.map((line) => `- ${line}`),
      ...[
        ...new Set(
          runs.flatMap((run) =>
            run.perStatement.filter((entry) => entry.incomplete).flatMap((entry) => entry.problems.filter((problem) => problem.code !== 'unjudged' && problem.code !== 'no-cluster-matched').map((problem) => problem.message)),
          ),
        ),
      ]
        .slice(0, 5)
        .map((message) => `- ${message}`),
      '',
    );
  lines.push('### Per statement', '');
  lines.push(
    formatMarkdownTable(
      ['statement', 'gold', ...runs.map(methodLabel)],
      statements.map((statement, position) => [
        statement.text,
        statement.gold?.join(', ') ?? '–',
        ...runs.map((run) => {
          const entry = run.perStatement[position];
          if (!entry) return '–';
          const found = `${entry.supporting.length} found${entry.incomplete ? ', incomplete' : ''}`;
          return statement.gold ? `${found}; F1 ${percent(computeSetScores(entry.supporting, statement.gold).f1)}` : found;
        }),
      ]),
    ),
  );
  const markdown = `${lines.join('\n')}\n`;
  const chart =
    study.statementsWithGold > 0
      ? renderBarChartSvg({
          title: `Fact tracing: precision, recall, F1 per method (${study.statementsWithGold} statements)`,
          groups: (['precision', 'recall', 'f1'] as const).map((metric) => ({
            label: metric === 'f1' ? 'F1' : metric,
            bars: runs.map((run) => {
              const value = run.scores?.[metric];
              return { label: methodLabel(run), value: value?.mean ?? null, ...(value && Number.isFinite(value.standardError) ? { error: value.standardError } : {}) };
            }),
          })),
        })
      : renderBarChartSvg({
          title: 'Fact tracing: supporting documents found per statement',
          percent: false,
          max: Math.max(1, ...runs.flatMap((run) => run.perStatement.map((entry) => entry.supporting.length))),
          groups: statements.map((_, position) => ({ label: `S${position + 1}`, bars: runs.map((run) => ({ label: methodLabel(run), value: run.perStatement[position]?.supporting.length ?? null })) })),
        });
  const sections = statements.map((statement, position) => {
    const goldIds = new Set(statement.gold ?? []);
    const result = runs.find((run) => run.kind === 'fasttrack')?.perStatement[position]?.result;
    const methods = runs
      .map((run) => {
        const entry = run.perStatement[position];
        const items = (entry?.supporting ?? [])
          .map((id) => `<li data-document="${escapeHtml(id)}"${goldIds.has(id) ? ' class="gold"' : ''}><code>${escapeHtml(id)}</code>${goldIds.has(id) ? ' ✓' : ''} ${escapeHtml((textById.get(id) ?? '').slice(0, 300))}</li>`)
          .join('');
        return `<h4>${escapeHtml(methodLabel(run))}</h4>${items ? `<ol class="supporting">${items}</ol>` : '<p><em>none</em></p>'}`;
      })
      .join('');
    const clusters = result ? `<p class="meta">leaves matched: ${result.clusters.length} · candidates judged ${result.cost.candidatesJudged} of ${result.cost.bruteForce.candidates}</p>` : '';
    return { summary: `S${position + 1}: ${statement.text}`, className: 'statement', html: `${goldIds.size > 0 ? `<p>gold: ${[...goldIds].map((id) => `<code>${escapeHtml(id)}</code>`).join(', ')}</p>` : ''}${clusters}${methods}` };
  });
  return { title: 'factkit trace', meta: `${corpus} · ${documents.length} documents · ${statements.length} statements · methods: ${runs.map(methodLabel).join(', ')}`, charts: [chart], markdown, sections };
}
