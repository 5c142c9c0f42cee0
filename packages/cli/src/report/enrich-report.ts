import type { AnnotatedChunk, PassageLayout } from '@factkit/chunk-knowledge';
import { renderPassage } from '@factkit/chunk-knowledge';
import type { Retriever } from '@factkit/core';
import { renderBarChartSvg } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import { formatMarkdownTable, type StudyReportOptions } from './study-report.js';

/** A test query of `factkit enrich --queries`: the text and the id of the document that answers it. */
export interface LayoutQuery {
  readonly query: string;
  readonly documentId: string;
}

/** Top@k accuracy of one passage layout. */
export interface LayoutAccuracy {
  readonly layout: PassageLayout;
  /** k → share of queries whose gold document has a chunk among the top k passages. */
  readonly topK: Readonly<Record<number, number>>;
  /** Queries whose gold document was not in the top max(k). */
  readonly misses: readonly LayoutQuery[];
}

/** The Top@k cut-offs of the paper's Table 7. */
export const TOP_KS = [1, 3, 5, 10] as const;

/**
 * Top@k accuracy per passage layout: every annotated chunk is rendered in the layout (fields joined, no `<s>` markers),
 * indexed by `createRetriever` (e.g. BM25), and each query counts as a hit at k when one of the top k passages is a
 * chunk of its gold document (the paper's Top@k).
 */
export async function measureLayoutAccuracy(
  chunks: readonly AnnotatedChunk[],
  queries: readonly LayoutQuery[],
  layouts: readonly PassageLayout[],
  createRetriever: (documents: { id: string; text: string }[]) => Retriever,
  abortSignal?: AbortSignal,
): Promise<LayoutAccuracy[]> {
  const documentOf = new Map(chunks.map((item) => [item.chunk.id, item.chunk.documentId]));
  const out: LayoutAccuracy[] = [];
  const deepest = Math.max(...TOP_KS);
  for (const layout of layouts) {
    const retriever = createRetriever(chunks.map((item) => ({ id: item.chunk.id, text: renderPassage(item, layout, { open: '', close: '' }) })));
    const hits: Record<number, number> = Object.fromEntries(TOP_KS.map((k) => [k, 0]));
    const misses: LayoutQuery[] = [];
    for (const query of queries) {
      abortSignal?.throwIfAborted();
      const { evidence } = await retriever.retrieve({ query: { text: query.query }, topK: deepest, ...(abortSignal ? { abortSignal } : {}) });
      const first = evidence.findIndex((hit) => documentOf.get(hit.documentId) === query.documentId);
      for (const k of TOP_KS) if (first >= 0 && first < k) hits[k] = (hits[k] as number) + 1;
      if (first < 0) misses.push(query);
    }
    out.push({ layout, topK: Object.fromEntries(TOP_KS.map((k) => [k, queries.length === 0 ? 0 : (hits[k] as number) / queries.length])), misses });
  }
  return out;
}

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
  readonly queries: readonly LayoutQuery[];
  readonly accuracy: readonly LayoutAccuracy[];
  /** Chunks whose annotation call failed. @default 0 */
  readonly failedChunks?: number;
  /** Queries left out because a chunk of their document failed. @default 0 */
  readonly queriesLeftOut?: number;
}): StudyReportOptions {
  const { accuracy, chunks, queries } = input;
  const table = formatMarkdownTable(
    ['layout', 'template', ...TOP_KS.map((k) => `Top@${k}`)],
    accuracy.map((row) => [row.layout.name, row.layout.template, ...TOP_KS.map((k) => ((row.topK[k] ?? 0) * 100).toFixed(1))]),
  );
  const { failedChunks = 0, queriesLeftOut = 0 } = input;
  const incomplete =
    failedChunks > 0
      ? `**Incomplete:** ${failedChunks} chunk(s) could not be annotated (the model call failed); ${queriesLeftOut} query(ies) on their documents are left out of every Top@k.\n\n`
      : '';
  const markdown = `## Chunk knowledge: Top@k per passage layout\n\n${incomplete}${chunks.length} chunks of ${input.input}, annotated by ${input.method}; ${queries.length} queries; retrieval: ${input.retrieverName}. Top@k in %.\n\n${table}\n`;
  const chart = renderBarChartSvg({
    title: `Top@k per passage layout (${queries.length} queries, ${input.retrieverName})`,
    groups: TOP_KS.map((k) => ({ label: `Top@${k}`, bars: accuracy.map((row) => ({ label: row.layout.name, value: row.topK[k] ?? null })) })),
  });
  const sections = accuracy.map((row) => {
    const examples = chunks
      .slice(0, 5)
      .map((item) => `<li><code>${escapeHtml(item.chunk.id)}</code> <span class="passage">${escapeHtml(renderPassage(item, row.layout))}</span></li>`)
      .join('');
    const misses = row.misses.length > 0 ? `<h4>Missed at Top@${Math.max(...TOP_KS)} (${row.misses.length})</h4><ul class="misses">${row.misses.map((miss) => `<li>${escapeHtml(miss.query)} → <code>${escapeHtml(miss.documentId)}</code></li>`).join('')}</ul>` : '<p><em>no query missed</em></p>';
    return { summary: `${row.layout.name}: ${row.layout.template}`, className: 'layout', html: `<h4>Example passages</h4><ol class="examples">${examples}</ol>${misses}` };
  });
  return { title: 'factkit enrich', meta: `${input.input} · ${chunks.length} chunks · ${input.method} · ${queries.length} queries · ${input.retrieverName}${failedChunks > 0 ? ` · incomplete: ${failedChunks} chunk(s) failed, ${queriesLeftOut} query(ies) left out` : ''}`, charts: [chart], markdown, sections };
}
