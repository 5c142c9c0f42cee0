import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { escapeHtml } from './escape-html.js';
import { renderHtmlPage } from './html-page.js';
import { renderTableHtml, SORT_SCRIPT, SORT_SCRIPT_CSP_SOURCE, type StudyTable } from './study-table.js';

/** A collapsible section of a study report; `html` is trusted markup built by the caller from escaped strings. */
export interface StudyReportSection {
  readonly summary: string;
  readonly html: string;
  /** Expanded when the page opens. @default false */
  readonly open?: boolean;
  /** CSS class of the <details> element (tests and styles find sections by it). */
  readonly className?: string;
}

/** A chart of a study page: a standalone SVG document (from renderBarChartSvg) and a short id for its file name. */
export interface StudyChart {
  /** File-name-safe id, e.g. 'scores' (the page's charts are written as `<page>.<id>.svg`). */
  readonly id: string;
  readonly svg: string;
}

export interface StudyReportOptions {
  /** Page title and heading, e.g. 'factkit trace'. */
  readonly title: string;
  /** One line under the heading (plain text; escaped here). */
  readonly meta: string;
  /** The charts (from renderBarChartSvg, which escapes its labels). */
  readonly charts: readonly StudyChart[];
  /** The tables, rendered as sortable HTML tables (the Markdown report holds the same rows). @default [] */
  readonly tables?: readonly StudyTable[];
  /** The Markdown report (written by --out/--md and printed); not part of the HTML page. */
  readonly markdown: string;
  /** Warnings shown above everything (plain text), e.g. that some numbers are incomplete. */
  readonly warnings?: readonly string[];
  /** More collapsible sections (per-item details), after the tables. */
  readonly sections?: readonly StudyReportSection[];
}

const STUDY_CSS = `
body{max-width:72rem}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.85em;color:#555}
.table-wrap{overflow-x:auto;margin:1rem 0}
table.study{border-collapse:collapse;font-size:.92em}
table.study caption{text-align:left;font-weight:600;padding:.3rem 0}
table.study th,table.study td{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
table.study thead th{border-bottom:2px solid #333;white-space:nowrap}
table.study .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.study th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
table.study th[aria-sort=ascending] button::after{content:" \\2191"}table.study th[aria-sort=descending] button::after{content:" \\2193"}
table.study .num{padding-right:1.1rem}table.study .se{color:#555}table.study .sig{color:#b00020;font-weight:600;display:inline-block;width:0;line-height:0;text-align:left}table.study .note{color:#555;font-size:.9em}
.table-notes{font-size:.85em;color:#555;margin:.3rem 0 0}
.warnings{border-left:4px solid #a86b00;background:#fff1c2;padding:.4rem .8rem}
`;

/** Where a page's chart is written beside it: `report.html` + id 'scores' → `report.scores.svg`. */
export function chartFilePath(htmlPath: string, chartId: string): string {
  const base = basename(htmlPath, extname(htmlPath));
  return join(dirname(htmlPath), `${base}.${chartId}.svg`);
}

/**
 * The one HTML page of the study commands (audit, eval, trace, enrich): heading, a meta line, warnings, the SVG charts
 * (each with a link to its standalone file when `chartFiles` names one), the tables as sortable HTML tables and
 * optional collapsible sections, in the shared self-contained shell (inline CSS; one inline script, allowed by its
 * hash, sorts the tables). Every plain-text input is escaped exactly once.
 */
export function renderStudyReport(options: StudyReportOptions, chartFiles: readonly (string | undefined)[] = []): string {
  const { title, meta, charts, tables = [], warnings = [], sections = [] } = options;
  const figures = charts
    .map((chart, k) => {
      const file = chartFiles[k];
      return `<figure class="chart" id="chart-${escapeHtml(chart.id)}">${chart.svg}${file ? `<figcaption>Standalone SVG: <a href="${escapeHtml(encodeURI(file))}">${escapeHtml(file)}</a></figcaption>` : ''}</figure>`;
    })
    .join('\n');
  const warning = warnings.length > 0 ? `<div class="warnings">${warnings.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>` : '';
  const extra = sections.map((section) => `<details class="${escapeHtml(section.className ?? 'section')}"${section.open ? ' open' : ''}><summary>${escapeHtml(section.summary)}</summary>${section.html}</details>`).join('\n');
  const body = `<header><h1>${escapeHtml(title)}</h1><p class="meta">${escapeHtml(meta)}</p></header>
${warning}
${figures}
${tables.map(renderTableHtml).join('\n')}
${extra}`;
  return renderHtmlPage({ title, body, css: STUDY_CSS, script: { source: SORT_SCRIPT, cspSource: SORT_SCRIPT_CSP_SOURCE } });
}

/**
 * Writes the report files a study command was asked for: `markdown` the Markdown report; `svg` the first chart (and
 * chart k > 1 as `<svg path without .svg>.<id>.svg`); `html` the page, with every chart also written beside it as a
 * standalone SVG (`<page>.<id>.svg`) that the page links to.
 */
export async function writeStudyReportFiles(paths: { readonly markdown?: string | undefined; readonly svg?: string | undefined; readonly html?: string | undefined }, report: StudyReportOptions): Promise<void> {
  const write = async (path: string, text: string) => {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(path, text);
  };
  if (paths.markdown) await write(paths.markdown, report.markdown.endsWith('\n') ? report.markdown : `${report.markdown}\n`);
  if (paths.svg) {
    const svgPath = paths.svg;
    for (const [k, chart] of report.charts.entries()) await write(k === 0 ? svgPath : chartFilePath(svgPath, chart.id), `${chart.svg}\n`);
  }
  if (paths.html) {
    const htmlPath = paths.html;
    const files = report.charts.map((chart) => chartFilePath(htmlPath, chart.id));
    for (const [k, chart] of report.charts.entries()) await write(files[k]!, `${chart.svg}\n`);
    await write(
      htmlPath,
      renderStudyReport(
        report,
        files.map((file) => basename(file)),
      ),
    );
  }
}
