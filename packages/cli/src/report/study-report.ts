import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { escapeHtml } from './escape-html.js';
import { renderHtmlPage } from './html-page.js';

/** A collapsible section of a study report; `html` is trusted markup built by the caller from escaped strings. */
export interface StudyReportSection {
  readonly summary: string;
  readonly html: string;
  /** Expanded when the page opens. @default false */
  readonly open?: boolean;
  /** CSS class of the <details> element (tests and styles find sections by it). */
  readonly className?: string;
}

export interface StudyReportOptions {
  /** Page title and heading, e.g. 'factkit trace'. */
  readonly title: string;
  /** One line under the heading (plain text; escaped here). */
  readonly meta: string;
  /** Inline SVG charts (from renderBarChartSvg, which escapes its labels). */
  readonly charts: readonly string[];
  /** The Markdown report, shown verbatim (escaped) in an expanded section. */
  readonly markdown: string;
  /** More collapsible sections (per-item details), after the Markdown. */
  readonly sections?: readonly StudyReportSection[];
}

/**
 * The one HTML page of the study commands (audit, eval, trace, enrich): heading, a meta line, the SVG charts, the
 * Markdown tables and optional collapsible sections, in the shared self-contained shell (renderHtmlPage: inline CSS,
 * no script, no external asset). Every plain-text input is escaped.
 */
export function renderStudyReport(options: StudyReportOptions): string {
  const { title, meta, charts, markdown, sections = [] } = options;
  const figures = charts.map((svg) => `<figure>${svg}</figure>`).join('\n');
  const extra = sections.map((section) => `<details class="${escapeHtml(section.className ?? 'section')}"${section.open ? ' open' : ''}><summary>${escapeHtml(section.summary)}</summary>${section.html}</details>`).join('\n');
  const body = `<header><h1>${escapeHtml(title)}</h1><p class="meta">${escapeHtml(meta)}</p></header>
${figures}
<details class="markdown" open><summary>Markdown report</summary><pre>${escapeHtml(markdown)}</pre></details>
${extra}`;
  return renderHtmlPage({ title, body });
}

/**
 * A Markdown table; `|` and line breaks inside cells are escaped so a corpus string cannot break the table, and `&`, `<`,
 * `>` become entities so a corpus string cannot become raw HTML where the Markdown is rendered (they display unchanged).
 */
export function formatMarkdownTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (value: string | number) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  return [`| ${headers.map(cell).join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

/** Writes the report files a study command was asked for (--out Markdown, --svg the first chart, --html the page). */
export async function writeStudyReportFiles(paths: { readonly markdown?: string | undefined; readonly svg?: string | undefined; readonly html?: string | undefined }, report: StudyReportOptions): Promise<void> {
  const write = async (path: string, text: string) => {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(path, text);
  };
  if (paths.markdown) await write(paths.markdown, report.markdown.endsWith('\n') ? report.markdown : `${report.markdown}\n`);
  if (paths.svg && report.charts[0] !== undefined) await write(paths.svg, report.charts[0]);
  if (paths.html) await write(paths.html, renderStudyReport(report));
}
