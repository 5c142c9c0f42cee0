import type { AnnotatedChunk, LayoutStudyQuery, LayoutStudyResult } from '@factkit/chunk-knowledge';
import { renderPassage } from '@factkit/chunk-knowledge';
import { renderBarChartSvg } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import type { StudyReportOptions } from './study-report.js';
import { numberCell, renderTableMarkdown, type StudyTable } from './study-table.js';

/**
 * The `factkit enrich` report: Top@k per layout as a Markdown table and an SVG chart, then one collapsible section
 * per layout with example passages and the missed queries. Corpus and model strings are escaped.
 */
export function buildEnrichReport(input: {
  readonly input: string;
  readonly method: string;
  readonly retrieverName: string;
  readonly chunks: readonly AnnotatedChunk[];
  /** The queries scored (those on documents with a failed chunk already left out). */
  readonly queries: readonly LayoutStudyQuery[];
  /** `runLayoutStudy`'s result (one row per layout). */
  readonly study: LayoutStudyResult;
  /** Chunks whose annotation call failed. @default 0 */
  readonly failedChunks?: number;
  /** Queries left out because a chunk of their document failed. @default 0 */
  readonly queriesLeftOut?: number;
}): StudyReportOptions {
  const { study, chunks, queries } = input;
  const rows = study.rows;
  const { failedChunks = 0, queriesLeftOut = 0 } = input;
  // The best layout per cut-off in bold (only when it is the single best).
  const best = (k: number) => {
    const values = rows.map((row) => row.topK?.[k] ?? Number.NEGATIVE_INFINITY);
    const top = Math.max(...values);
    return values.filter((value) => value === top).length === 1 ? top : undefined;
  };
  const table: StudyTable = {
    id: 'top-k',
    caption: `Top@k per passage layout (${queries.length} queries; retrieval: ${input.retrieverName})`,
    columns: [{ label: 'layout' }, { label: 'template' }, ...study.ks.map((k) => ({ label: `Top@${k}`, numeric: true }))],
    rows: rows.map((row) => [row.name, row.layout?.template ?? '', ...study.ks.map((k) => numberCell(row.topK?.[k], { scale: 100, bold: row.topK?.[k] !== undefined && row.topK[k] === best(k) }))]),
    notes: ['Top@k: share of queries with a chunk of a gold document among the first k passages, in %; the best layout per column in bold.'],
  };
  const incomplete = failedChunks > 0 ? `**Incomplete:** ${failedChunks} chunk(s) could not be annotated (the model call failed); ${queriesLeftOut} query(ies) on their documents are left out of every Top@k.\n\n` : '';
  const markdown = `## Chunk knowledge: Top@k per passage layout\n\n${incomplete}${chunks.length} chunks of ${input.input}, annotated by ${input.method}; ${queries.length} queries; retrieval: ${input.retrieverName}. Top@k in %.\n\n${renderTableMarkdown(table)}\n`;
  const chart = renderBarChartSvg({
    title: `Top@k per passage layout (${queries.length} queries, ${input.retrieverName})`,
    yLabel: 'queries with a gold chunk in the top k',
    xLabel: 'cut-off k',
    groups: study.ks.map((k) => ({ label: `Top@${k}`, bars: rows.map((row) => ({ label: `${row.name}: ${row.layout?.template ?? 'system'}`, value: row.topK?.[k] ?? null })) })),
  });
  const deepest = study.ks[study.ks.length - 1];
  const sections = rows.map((row) => {
    const examples = row.layout
      ? chunks
          .slice(0, 5)
          .map((item) => `<li><code>${escapeHtml(item.chunk.id)}</code> <span class="passage">${escapeHtml(renderPassage(item, row.layout!))}</span></li>`)
          .join('')
      : '';
    const misses =
      row.misses.length > 0
        ? `<h4>Missed at Top@${deepest} (${row.misses.length})</h4><ul class="misses">${row.misses.map((miss) => `<li>${escapeHtml(miss.text)} → <code>${escapeHtml(miss.documentIds.join(', '))}</code></li>`).join('')}</ul>`
        : '<p><em>no query missed</em></p>';
    return { summary: `${row.name}: ${row.layout?.template ?? ''}`, className: 'layout', html: `<h4>Example passages</h4><ol class="examples">${examples}</ol>${misses}` };
  });
  return {
    title: 'factkit enrich',
    meta: `${input.input} · ${chunks.length} chunks · ${input.method} · ${queries.length} queries · ${input.retrieverName}${failedChunks > 0 ? ` · incomplete: ${failedChunks} chunk(s) failed, ${queriesLeftOut} query(ies) left out` : ''}`,
    charts: [{ id: 'top-k', svg: chart }],
    tables: [table],
    markdown,
    ...(failedChunks > 0 ? { warnings: [`Incomplete: ${failedChunks} chunk(s) could not be annotated (the model call failed); ${queriesLeftOut} query(ies) on their documents are left out of every Top@k.`] } : {}),
    sections,
  };
}
