import type { Document } from '@factkit/core';
import type { TraceMethodRun, TraceStatement, TraceStudyResult } from '@factkit/fasttrack';
import { traceProblemKind } from '@factkit/fasttrack';
import { computeSetScores } from '@factkit/metrics';
import { renderBarChartSvg } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import type { StudyChart, StudyReportOptions } from './study-report.js';
import { numberCell, renderTableMarkdown, type StudyTable } from './study-table.js';

export interface TraceReportInput {
  readonly corpus: string;
  readonly documents: readonly Document[];
  readonly statements: readonly TraceStatement[];
  /** `runTraceStudy`'s result: FastTrack first, then the baselines. */
  readonly study: TraceStudyResult;
}

/** A method's column label in the per-statement table (the full name is in the table's notes). */
const shortLabel = (run: TraceMethodRun) => (run.kind === 'fasttrack' ? 'FastTrack' : run.kind === 'brute-force' ? 'brute force' : run.kind === 'upper-bound' ? 'upper bound' : `${run.method.split(' ')[0]} top-${run.k}`);
/** A method's row label; a ranking baseline shows its shared cutoff. */
const methodLabel = (run: TraceMethodRun) => (run.kind === 'ranking' ? `${run.method} top-${run.k} (best F1 over k)` : run.method);
/** Mean ± SE in %; the SE of a single statement is unknown (left out). */
const meanCell = (value: { mean: number; standardError: number } | undefined) => numberCell(value?.mean, { scale: 100, se: value?.standardError ?? null });

/**
 * The `factkit trace` report: P/R/F1 per method (mean ± SE over the statements with gold ids; a statement whose
 * candidates the judge could not all decide is left out of that method's numbers), a per-statement table, an SVG
 * chart and one collapsible section per statement with the supporting documents. Corpus strings are escaped.
 */
export function buildTraceReport(input: TraceReportInput): StudyReportOptions {
  const { corpus, documents, statements, study } = input;
  const runs = study.methods;
  const textById = new Map(documents.map((document) => [document.id, document.text]));
  const tables: StudyTable[] = [];
  const lines = [`## Fact tracing: ${corpus}`, '', `${documents.length} documents, ${statements.length} statements, ${study.statementsWithGold} with gold supporting ids.`, ''];
  if (study.statementsWithGold > 0) {
    const scores: StudyTable = {
      id: 'scores',
      caption: `Precision, recall and F1 per method (${study.statementsWithGold} statements with gold ids)`,
      columns: [{ label: 'method' }, { label: 'statements scored', numeric: true }, { label: 'precision', numeric: true }, { label: 'recall', numeric: true }, { label: 'F1', numeric: true }, { label: 'candidates judged', numeric: true }],
      rows: runs.map((run) => {
        const judged = run.perStatement.flatMap((entry) => (entry.judged === undefined ? [] : [entry.judged]));
        const scored = run.scores?.statements ?? 0;
        const left = study.statementsWithGold - scored;
        return [
          methodLabel(run) + (run.kind === 'ranking' ? ` (k = ${run.k})` : ''),
          numberCell(scored, { digits: 0, ...(left > 0 ? { note: `(${left} incomplete, left out)` } : {}) }),
          meanCell(run.scores?.precision),
          meanCell(run.scores?.recall),
          meanCell(run.scores?.f1),
          numberCell(judged.length > 0 ? judged.reduce((sum, value) => sum + value, 0) : null, { digits: 0 }),
        ];
      }),
      notes: ['Mean ± standard error over statements, in %.'],
    };
    tables.push(scores);
    lines.push(renderTableMarkdown(scores), '');
  } else lines.push('No gold supporting ids (give --queries as JSON lines with "supporting"): no precision, recall or F1.', '');
  const withGold = study.statementsWithGold > 0;
  const perStatement: StudyTable = {
    id: 'statements',
    caption: 'Per statement: supporting documents found by each method',
    columns: [{ label: 'statement' }, { label: 'gold' }, ...runs.flatMap((run) => [{ label: `${shortLabel(run)}: found`, numeric: true }, ...(withGold ? [{ label: `${shortLabel(run)}: F1`, numeric: true }] : [])])],
    rows: statements.map((statement, position) => [
      statement.text,
      statement.gold?.join(', ') ?? '–',
      ...runs.flatMap((run) => {
        const entry = run.perStatement[position];
        const found = numberCell(entry?.supporting.length, { digits: 0, ...(entry?.incomplete ? { note: '(incomplete)' } : {}) });
        if (!withGold) return [found];
        // A statement without gold ids, or whose candidates were not all decided, has no F1 (absent, never 0).
        const f1 = entry && statement.gold && statement.gold.length > 0 && !entry.incomplete ? computeSetScores(entry.supporting, statement.gold).f1 : null;
        return [found, numberCell(f1, { scale: 100 })];
      }),
    ]),
    notes: [
      `found: supporting documents the method returned${withGold ? '; F1 of that set against the gold ids, in %' : ''}; (incomplete): the judge could not decide every candidate.`,
      `Methods: ${runs.map((run) => `${shortLabel(run)} = ${methodLabel(run)}`).join('; ')}.`,
    ],
  };
  tables.push(perStatement);
  lines.push('### Per statement', '', renderTableMarkdown(perStatement));
  if (study.incomplete.length > 0) {
    // Why: the first few distinct problems of the incomplete statements (a failed keyword or judge call), beside the counts.
    const causes = [
      ...new Set(runs.flatMap((run) => run.perStatement.filter((entry) => entry.incomplete).flatMap((entry) => entry.problems.filter((problem) => traceProblemKind(problem) === 'failure').map((problem) => problem.message)))),
    ].slice(0, 5);
    lines.push('', '**Incomplete: these numbers are not whole**', '', ...study.incomplete.map((reason) => `- ${reason}`), ...causes.map((message) => `- ${message}`));
  }
  const markdown = `${lines.join('\n')}\n`;
  const chart: StudyChart =
    study.statementsWithGold > 0
      ? {
          id: 'scores',
          svg: renderBarChartSvg({
            title: `Fact tracing: precision, recall, F1 per method (${study.statementsWithGold} statements)`,
            yLabel: 'mean over statements',
            xLabel: 'measure (whiskers: ± 1 standard error)',
            groups: (['precision', 'recall', 'f1'] as const).map((metric) => ({
              label: metric === 'f1' ? 'F1' : metric,
              bars: runs.map((run) => {
                const value = run.scores?.[metric];
                return { label: methodLabel(run), value: value?.mean ?? null, ...(value && Number.isFinite(value.standardError) ? { error: value.standardError } : {}) };
              }),
            })),
          }),
        }
      : {
          id: 'found',
          svg: renderBarChartSvg({
            title: 'Fact tracing: supporting documents found per statement',
            scale: 'count',
            yLabel: 'supporting documents found',
            xLabel: 'statement',
            groups: statements.map((_, position) => ({ label: `S${position + 1}`, bars: runs.map((run) => ({ label: methodLabel(run), value: run.perStatement[position]?.supporting.length ?? null })) })),
          }),
        };
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
  return {
    title: 'factkit trace',
    meta: `${corpus} · ${documents.length} documents · ${statements.length} statements · methods: ${runs.map(methodLabel).join(', ')}`,
    charts: [chart],
    tables,
    markdown,
    sections,
    ...(study.incomplete.length > 0 ? { warnings: ['Incomplete: these numbers are not whole.', ...study.incomplete] } : {}),
  };
}
