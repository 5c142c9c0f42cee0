import type { ComparisonTable, PValueCell } from '../comparison-table.js';
import type { StudyTable } from './study-table.js';
import { escapeHtml } from './escape-html.js';
import { renderHtmlPage } from './html-page.js';

const TABLE_STYLE = `table.runs{border-collapse:collapse;margin:1em 0;font-variant-numeric:tabular-nums}
table.runs th,table.runs td{padding:.25em .7em;border-bottom:1px solid #ddd}table.runs td.num{text-align:right;white-space:nowrap}
table.runs th{text-align:left;border-bottom:2px solid #333}table.runs caption{caption-side:top;text-align:left;max-width:60em;padding:.3em 0}
table.runs tr.baseline td{font-style:italic}table.runs .sig{font-weight:600}`;

const pCellHtml = (cell: PValueCell) =>
  `<td class="num${cell.significant ? ' sig' : ''}">${escapeHtml(cell.difference)} <span class="p">(p ${escapeHtml(cell.pvalue)}, adj. ${escapeHtml(cell.adjustedPValue)})</span>${cell.significant ? ' †' : ''}</td>`;

/**
 * The comparison tables as HTML (`<table class="runs">`, numbers right-aligned, significance as <sup> letters and †).
 * Every name and number is escaped once here.
 */
export function renderRunsTableHtml(table: ComparisonTable): string {
  const head = (first: readonly string[]) => `<thead><tr>${[...first, ...table.measures].map((text) => `<th scope="col">${escapeHtml(text)}</th>`).join('')}</tr></thead>`;
  const systems = table.rows
    .map(
      (row) =>
        `<tr${row.baseline ? ' class="baseline"' : ''}><td>${escapeHtml(row.letter)}</td><th scope="row">${escapeHtml(row.name)}${row.baseline ? ' (baseline)' : ''}</th>${row.cells
          .map(
            (cell) =>
              `<td class="num" data-value="${escapeHtml(cell.mean)}">${escapeHtml(cell.mean)}${cell.standardError === null ? '' : ` ± ${escapeHtml(cell.standardError)}`}${cell.beats.length || cell.differsFromBaseline ? `<sup>${escapeHtml(cell.beats.join(''))}${cell.differsFromBaseline ? '†' : ''}</sup>` : ''}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('\n');
  const pTable = (className: string, caption: string, first: string, rows: readonly { label: string; cells: readonly PValueCell[] }[]) =>
    `<table class="runs ${className}"><caption>${escapeHtml(caption)}</caption>${head([first])}<tbody>\n${rows.map((row) => `<tr><th scope="row">${escapeHtml(row.label)}</th>${row.cells.map(pCellHtml).join('')}</tr>`).join('\n')}\n</tbody></table>`;
  return [
    `<table class="runs systems"><caption>${escapeHtml(table.caption)}</caption>${head(['', 'system'])}<tbody>\n${systems}\n</tbody></table>`,
    pTable(
      'baseline-tests',
      'Difference, raw p and Holm-adjusted p against the baseline († adjusted p < α).',
      'against the baseline',
      table.baselineRows.map((row) => ({ label: row.name, cells: row.cells })),
    ),
    pTable('pair-tests', 'Every pair (first − second), raw and Holm-adjusted p († adjusted p < α).', 'pair', table.pairRows),
  ].join('\n');
}

/** A self-contained page holding the comparison tables (`factkit eval --runs … --format html`). */
export function renderRunsTablePage(table: ComparisonTable, title: string): string {
  return renderHtmlPage({ title, body: `<style>${TABLE_STYLE}</style>\n<h1>${escapeHtml(title)}</h1>\n${renderRunsTableHtml(table)}` });
}

/**
 * The systems part of a comparison as a study-page table (sortable, numbers right-aligned, ± SE, the superscript letters
 * and † as marks), for `factkit eval --runs … --html`.
 */
export function comparisonStudyTable(table: ComparisonTable): StudyTable {
  const parse = (text: string) => (text === 'n/a' ? null : Number(text));
  return {
    id: 'comparison',
    caption: table.caption,
    columns: [{ label: '' }, { label: 'system' }, ...table.measures.map((measure) => ({ label: measure, numeric: true }))],
    rows: table.rows.map((row) => [
      row.letter,
      `${row.name}${row.baseline ? ' (baseline)' : ''}`,
      ...row.cells.map((cell) => ({
        value: parse(cell.mean),
        text: cell.mean === 'n/a' ? '–' : cell.mean,
        ...(cell.standardError === null ? {} : { se: cell.standardError }),
        ...(cell.beats.length > 0 || cell.differsFromBaseline ? { marks: `${cell.beats.join('')}${cell.differsFromBaseline ? '†' : ''}` } : {}),
      })),
    ]),
    notes: ['Letters: the systems a result is significantly better than (all pairs, Holm–Bonferroni per measure); † differs significantly from the baseline.'],
  };
}
