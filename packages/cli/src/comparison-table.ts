import type { CompareRunsResult, PairComparison } from '@factkit/metrics';
import { formatMarkdownTable } from './report/study-table.js';

/**
 * What a comparison table shows, built once from `compareRuns` and rendered as Markdown, LaTeX (here) or HTML
 * (report/runs-table.ts): ranx's report layout — one row per system with a letter, mean ± SE per measure, superscript
 * letters of the systems it is significantly better than (all-pairs family), and † where it differs significantly
 * from the baseline (baseline family); then the baseline tests and every pair with raw and Holm-adjusted p-values.
 */
export interface ComparisonTable {
  readonly caption: string;
  readonly measures: readonly string[];
  readonly rows: readonly {
    readonly letter: string;
    readonly name: string;
    readonly baseline: boolean;
    readonly cells: readonly { readonly mean: string; readonly standardError: string | null; readonly beats: readonly string[]; readonly differsFromBaseline: boolean }[];
  }[];
  /** Non-baseline systems: per measure the difference to the baseline, raw and adjusted p. */
  readonly baselineRows: readonly { readonly name: string; readonly cells: readonly PValueCell[] }[];
  /** Every pair "a vs b": per measure the difference, raw and adjusted p. */
  readonly pairRows: readonly { readonly label: string; readonly cells: readonly PValueCell[] }[];
}

export interface PValueCell {
  readonly difference: string;
  readonly pvalue: string;
  readonly adjustedPValue: string;
  readonly significant: boolean;
}

/** a, b, …, z, then a1, b1, … (letters, never running out). */
export function systemLetter(index: number): string {
  return String.fromCharCode(97 + (index % 26)) + (index >= 26 ? String(Math.floor(index / 26)) : '');
}

const TEST_NAMES = { 't-test': "Paired Student's t-test", randomization: 'Paired randomization (sign-flip) test' } as const;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Builds the table model; numbers with `digits` decimals, p-values with 4 (scientific below 0.0001), absent values "n/a". */
export function buildComparisonTable(result: CompareRunsResult, options: { readonly digits?: number; readonly title?: string } = {}): ComparisonTable {
  const { digits = 4 } = options;
  const fixed = (value: number | null) => (value === null ? 'n/a' : value.toFixed(digits));
  const signed = (value: number | null) => (value === null ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`);
  // p-values below 0.0001 in scientific notation (1.2e-9): exact enough for a paper, and no "<" to escape.
  const p = (value: number | null) => (value === null ? 'n/a' : value !== 0 && value < 0.0001 ? value.toExponential(1) : value.toFixed(4));
  const cellOf = (row: PairComparison): PValueCell => ({ difference: signed(row.meanDifference), pvalue: p(row.pvalue), adjustedPValue: p(row.adjustedPValue), significant: row.significant });
  const findPair = (a: number, b: number, measure: string) => result.allPairs.find((row) => row.measure === measure && ((row.a === a && row.b === b) || (row.a === b && row.b === a)));
  const baselineName = result.systems[result.baseline]!.name;
  const caption =
    `${options.title ? `${options.title}. ` : ''}Mean ± standard error over ${result.queries.length} queries. ${TEST_NAMES[result.test]}, p-values Holm–Bonferroni corrected per measure; ` +
    `superscripts name the systems a result is significantly better than (${plural((result.systems.length * (result.systems.length - 1)) / 2, 'pair')}, α = ${result.alpha}); ` +
    `† marks a significant difference from the baseline ${systemLetter(result.baseline)} (${baselineName}; ${plural(result.systems.length - 1, 'test')} per measure).`;
  const rows = result.systems.map((system, index) => ({
    letter: systemLetter(index),
    name: system.name,
    baseline: index === result.baseline,
    cells: result.measures.map((measure) => {
      const score = system.scores[measure]!;
      const beats = result.systems.flatMap((_, other) => {
        if (other === index) return [];
        const pair = findPair(index, other, measure);
        if (!pair?.significant || pair.meanDifference === null) return [];
        const better = pair.a === index ? pair.meanDifference > 0 : pair.meanDifference < 0;
        return better ? [systemLetter(other)] : [];
      });
      const differsFromBaseline = result.againstBaseline.some((row) => row.a === index && row.measure === measure && row.significant);
      return { mean: fixed(score.mean), standardError: score.standardError === null ? null : score.standardError.toFixed(digits), beats, differsFromBaseline };
    }),
  }));
  const baselineRows = result.systems.flatMap((system, index) =>
    index === result.baseline ? [] : [{ name: `${systemLetter(index)} ${system.name}`, cells: result.measures.map((measure) => cellOf(result.againstBaseline.find((row) => row.a === index && row.measure === measure)!)) }],
  );
  const pairRows: { label: string; cells: PValueCell[] }[] = [];
  for (let a = 0; a < result.systems.length; a++)
    for (let b = a + 1; b < result.systems.length; b++) pairRows.push({ label: `${systemLetter(a)} vs ${systemLetter(b)}`, cells: result.measures.map((measure) => cellOf(findPair(a, b, measure)!)) });
  return { caption, measures: result.measures, rows, baselineRows, pairRows };
}

const SUPERSCRIPT: Readonly<Record<string, string>> = Object.fromEntries([...'abcdefghijklmnoprstuvwxyz0123456789'].map((char, index) => [char, 'ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹'[index]!]));
/** Unicode superscript of a marker (q has none: written ^q). */
const superscript = (text: string) => [...text].map((char) => SUPERSCRIPT[char] ?? `^${char}`).join('');

const pCell = (cell: PValueCell) => `${cell.difference} (p ${cell.pvalue}, adj. ${cell.adjustedPValue})${cell.significant ? ' †' : ''}`;

/** The comparison as Markdown: the systems table, the tests against the baseline and every pair. */
export function renderComparisonMarkdown(table: ComparisonTable): string {
  const systems = formatMarkdownTable(
    ['', 'system', ...table.measures],
    table.rows.map((row) => [
      row.letter,
      row.baseline ? `${row.name} (baseline)` : row.name,
      ...row.cells.map((cell) => `${cell.mean}${cell.standardError === null ? '' : ` ± ${cell.standardError}`}${cell.beats.length ? ` ${cell.beats.map(superscript).join('')}` : ''}${cell.differsFromBaseline ? ' †' : ''}`),
    ]),
  );
  const baseline = formatMarkdownTable(
    ['against the baseline', ...table.measures],
    table.baselineRows.map((row) => [row.name, ...row.cells.map(pCell)]),
  );
  const pairs = formatMarkdownTable(
    ['pair', ...table.measures],
    table.pairRows.map((row) => [row.label, ...row.cells.map(pCell)]),
  );
  return `${table.caption}\n\n${systems}\n\nDifference, raw p and Holm-adjusted p against the baseline († adjusted p < α):\n\n${baseline}\n\nEvery pair (first − second), raw and Holm-adjusted p († adjusted p < α):\n\n${pairs}\n`;
}

/** Escapes LaTeX's special characters in plain text, and writes the table's non-ASCII signs as pdflatex-safe math. */
export function escapeLatex(text: string): string {
  return text
    .replace(/[\\{}$&#^_%~]/g, (char) => (char === '\\' ? '\\textbackslash{}' : char === '^' ? '\\textasciicircum{}' : char === '~' ? '\\textasciitilde{}' : `\\${char}`))
    .replace(/−/g, '$-$')
    .replace(/±/g, '$\\pm$')
    .replace(/α/g, '$\\alpha$')
    .replace(/†/g, '$\\dagger$')
    .replace(/–/g, '--')
    .replace(/[<>]/g, (char) => `$${char}$`);
}

/** The comparison as a LaTeX table (booktabs; `\usepackage{booktabs}`), systems table then the p-value tables. */
export function renderComparisonLatex(table: ComparisonTable): string {
  const columns = `ll${table.measures.map(() => 'r').join('')}`;
  const head = (first: string[]) => `${[...first, ...table.measures.map((measure) => escapeLatex(measure))].join(' & ')} \\\\`;
  const systems = table.rows.map(
    (row) =>
      `${row.letter} & ${escapeLatex(row.name)}${row.baseline ? ' (baseline)' : ''} & ${row.cells
        .map((cell) => {
          const marks = `${cell.beats.join('')}${cell.differsFromBaseline ? '\\dagger' : ''}`;
          return `${cell.mean}${cell.standardError === null ? '' : ` $\\pm$ ${cell.standardError}`}${marks ? `$^{${marks}}$` : ''}`;
        })
        .join(' & ')} \\\\`,
  );
  const pLatex = (cell: PValueCell) => `${escapeLatex(cell.difference)} (${escapeLatex(cell.adjustedPValue)})${cell.significant ? '$^\\dagger$' : ''}`;
  const block = (label: string, rows: readonly { label: string; cells: readonly PValueCell[] }[]) => [
    '\\midrule',
    `\\multicolumn{${table.measures.length + 2}}{l}{\\emph{${label}}} \\\\`,
    ...rows.map((row) => `\\multicolumn{2}{l}{${escapeLatex(row.label)}} & ${row.cells.map(pLatex).join(' & ')} \\\\`),
  ];
  return [
    '\\begin{table}[t]',
    '\\centering',
    `\\begin{tabular}{${columns}}`,
    '\\toprule',
    head(['', 'system']),
    '\\midrule',
    ...systems,
    ...block(
      'difference to the baseline (Holm-adjusted p)',
      table.baselineRows.map((row) => ({ label: row.name, cells: row.cells })),
    ),
    ...block('every pair, first $-$ second (Holm-adjusted p)', table.pairRows),
    '\\bottomrule',
    '\\end{tabular}',
    `\\caption{${escapeLatex(table.caption)}}`,
    '\\end{table}',
    '',
  ].join('\n');
}
