import { createHash } from 'node:crypto';
import { escapeHtml } from './escape-html.js';

/** A number cell: the value (for sorting), how it prints, and optionally its ± standard error and significance marks. */
export interface NumberCell {
  /** The value sorted on; null when absent (printed "–", sorted last). */
  readonly value: number | null;
  /** The value as printed, e.g. '83.3'. */
  readonly text: string;
  /** The standard error as printed (without "±"), e.g. '16.7'. */
  readonly se?: string;
  /** Significance marks after the number, e.g. '†'; explained in the table's notes. */
  readonly marks?: string;
  /** Plain text after the number, e.g. '(1 incomplete, left out)'. */
  readonly note?: string;
  /** Shown in bold (the best of a comparison). */
  readonly bold?: boolean;
}

/** A cell: plain text, or a {@link NumberCell}. Text is escaped when rendered; never pass markup. */
export type StudyCell = string | NumberCell;

export interface StudyColumn {
  readonly label: string;
  /** A number column: right-aligned with tabular figures, sorted numerically. @default false */
  readonly numeric?: boolean;
}

/** A table of a study page, rendered both as Markdown and as a sortable HTML table from the same rows. */
export interface StudyTable {
  /** A short id (HTML id and test hook), e.g. 'scores'. */
  readonly id: string;
  /** The caption (plain text). */
  readonly caption: string;
  readonly columns: readonly StudyColumn[];
  readonly rows: readonly (readonly StudyCell[])[];
  /** Lines under the table: units, what ± and the marks mean (plain text). */
  readonly notes?: readonly string[];
}

/**
 * A {@link NumberCell} from a value: `scale` multiplies before printing (100 for %), `digits` decimals; a null,
 * undefined or non-finite value prints "–" (a metric over zero samples is absent, never 0). A non-finite SE is left out.
 */
export function numberCell(
  value: number | null | undefined,
  options: { readonly scale?: number; readonly digits?: number; readonly se?: number | null; readonly marks?: string; readonly note?: string; readonly bold?: boolean } = {},
): NumberCell {
  const { scale = 1, digits = 1, se, marks, note, bold } = options;
  const finite = value !== null && value !== undefined && Number.isFinite(value);
  return {
    value: finite ? value : null,
    text: finite ? (value * scale).toFixed(digits) : '–',
    ...(finite && se !== null && se !== undefined && Number.isFinite(se) ? { se: (se * scale).toFixed(digits) } : {}),
    ...(marks ? { marks } : {}),
    ...(note ? { note } : {}),
    ...(bold ? { bold } : {}),
  };
}

/** A cell as one line of plain text (Markdown and tests): "83.3 ± 16.7†", "–". */
export function cellText(cell: StudyCell): string {
  if (typeof cell === 'string') return cell;
  return `${cell.text}${cell.se !== undefined ? ` ± ${cell.se}` : ''}${cell.marks ?? ''}${cell.note ? ` ${cell.note}` : ''}`;
}

/**
 * A Markdown table; `|` and line breaks inside cells are escaped so a corpus string cannot break the table, and `&`, `<`,
 * `>` become entities so a corpus string cannot become raw HTML where the Markdown is rendered (they display unchanged).
 * Columns flagged in `numeric` are right-aligned.
 */
export function formatMarkdownTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[], numeric: readonly boolean[] = []): string {
  const cell = (value: string | number) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  return [`| ${headers.map(cell).join(' | ')} |`, `|${headers.map((_, k) => (numeric[k] ? '---:' : '---')).join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

/** The table as Markdown (bold cells in `**`), its notes as lines after it. */
export function renderTableMarkdown(table: StudyTable): string {
  const rows = table.rows.map((row) => row.map((cell) => (typeof cell !== 'string' && cell.bold ? `**${cellText(cell)}**` : cellText(cell))));
  const body = formatMarkdownTable(
    table.columns.map((column) => column.label),
    rows,
    table.columns.map((column) => column.numeric === true),
  );
  return table.notes && table.notes.length > 0 ? `${body}\n\n${table.notes.join('\n')}` : body;
}

function renderCellHtml(cell: StudyCell | undefined, numeric: boolean): string {
  if (cell === undefined) return '<td></td>';
  if (typeof cell === 'string') return numeric ? `<td class="num">${escapeHtml(cell)}</td>` : `<td>${escapeHtml(cell)}</td>`;
  const number = `${escapeHtml(cell.text)}${cell.se !== undefined ? `<span class="se"> ± ${escapeHtml(cell.se)}</span>` : ''}${cell.marks ? `<sup class="sig">${escapeHtml(cell.marks)}</sup>` : ''}`;
  const note = cell.note ? ` <span class="note">${escapeHtml(cell.note)}</span>` : '';
  return `<td class="num${cell.bold ? ' best' : ''}" data-sort="${cell.value === null ? '' : cell.value}">${cell.bold ? `<strong>${number}</strong>` : number}${note}</td>`;
}

/**
 * The table as an HTML `<table class="study sortable">`: a caption, one header button per column (the page script sorts
 * on click; missing values stay last), number cells right-aligned with their exact value in `data-sort`, ± SE and marks
 * as their own elements, notes in a `<p class="table-notes">` after it. Every text is escaped exactly once.
 */
export function renderTableHtml(table: StudyTable): string {
  const head = table.columns.map((column) => `<th scope="col"${column.numeric ? ' class="num" data-kind="number"' : ' data-kind="text"'}><button type="button">${escapeHtml(column.label)}</button></th>`).join('');
  const body = table.rows.map((row) => `<tr>${table.columns.map((column, k) => renderCellHtml(row[k], column.numeric === true)).join('')}</tr>`).join('\n');
  const notes = table.notes && table.notes.length > 0 ? `<p class="table-notes">${table.notes.map(escapeHtml).join('<br>')}</p>` : '';
  return `<div class="table-wrap"><table class="study sortable" id="table-${escapeHtml(table.id)}"><caption>${escapeHtml(table.caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${notes}</div>`;
}

/**
 * The one script of a study page (no framework): a click on a column's header button sorts the rows by that column,
 * ascending then descending; number columns by `data-sort`, text columns by text; empty values last either way.
 */
export const SORT_SCRIPT = `for (const table of document.querySelectorAll('table.sortable')) {
  const body = table.tBodies[0];
  const headers = [...table.tHead.rows[0].cells];
  headers.forEach((th, column) => {
    th.querySelector('button').addEventListener('click', () => {
      const ascending = th.getAttribute('aria-sort') !== 'ascending';
      for (const other of headers) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const numeric = th.dataset.kind === 'number';
      const key = (row) => {
        const cell = row.cells[column];
        if (!cell) return '';
        return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
      };
      const rows = [...body.rows];
      rows.sort((a, b) => {
        const x = key(a);
        const y = key(b);
        if (x === '' || y === '') return (x === '') - (y === '');
        const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return ascending ? order : -order;
      });
      body.append(...rows);
    });
  });
}`;

/** The Content-Security-Policy source that allows exactly {@link SORT_SCRIPT} (and no other script) to run. */
export const SORT_SCRIPT_CSP_SOURCE = `'sha256-${createHash('sha256').update(SORT_SCRIPT).digest('base64')}'`;
