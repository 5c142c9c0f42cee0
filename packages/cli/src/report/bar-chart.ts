import { escapeHtml } from './escape-html.js';

/** One bar: a value with an optional ± error (drawn as a whisker). */
export interface ChartBar {
  readonly label: string;
  readonly value: number | null;
  readonly error?: number;
}

/** A group of bars sharing an x-axis label (e.g. one metric). */
export interface ChartGroup {
  readonly label: string;
  readonly bars: readonly ChartBar[];
}

/**
 * What the y values are: `percent` (a share in [0, 1], drawn 0–100 %), `count` (whole numbers, whole-number ticks) or
 * `score` (a measure in [0, max], e.g. nDCG).
 */
export type ChartScale = 'percent' | 'count' | 'score';

export interface BarChartOptions {
  readonly title: string;
  readonly groups: readonly ChartGroup[];
  /** @default 'percent' */
  readonly scale?: ChartScale;
  /** Top of the y axis (in the values' own unit). @default 1 for percent and score, the largest value for count */
  readonly max?: number;
  /** What the y axis measures, without the unit, e.g. 'Top@k', 'supporting documents'. The unit is added. */
  readonly yLabel: string;
  /** What the groups are, e.g. 'cut-off', 'metric'. */
  readonly xLabel: string;
}

/**
 * Series colours: the Okabe–Ito palette (distinguishable with the common colour-vision deficiencies), then Tableau 10
 * for a ninth series on; 18 distinct colours in all, repeated after that.
 */
export const SERIES_COLOURS: readonly string[] = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
  '#4E79A7',
  '#F28E2B',
  '#E15759',
  '#76B7B2',
  '#59A14F',
  '#EDC948',
  '#B07AA1',
  '#FF9DA7',
  '#9C755F',
  '#BAB0AC',
];

/** The colour of series number `index` (0-based). */
export const seriesColour = (index: number): string => SERIES_COLOURS[index % SERIES_COLOURS.length]!;

/** Characters XML 1.0 forbids (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF): a standalone SVG file with one is not well-formed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A label as SVG text: characters XML forbids removed, then escaped once. */
const svgText = (text: string) => escapeHtml(text.replace(XML_INVALID, ''));

/** An estimate of a label's width in px at `size` px sans-serif (no font metrics without a browser; errs wide). */
const textWidth = (text: string, size: number) => [...text].length * size * 0.62;

/** "Nice" y ticks: for counts whole numbers (step 1, 2, 5, 10, …), otherwise fifths of the axis. */
export function axisTicks(scale: ChartScale, max: number): { readonly top: number; readonly ticks: readonly number[] } {
  if (scale !== 'count') return { top: max, ticks: [0, 1, 2, 3, 4, 5].map((k) => (max * k) / 5) };
  const wanted = Math.max(1, Math.ceil(max));
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(wanted / 5)));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => wanted / candidate <= 6) ?? 10 * magnitude;
  const top = Math.ceil(wanted / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return { top, ticks };
}

const UNIT: Record<ChartScale, string> = { percent: '%', count: 'count', score: 'score' };

/** How a value prints on the axis and in a bar's tooltip. */
function formatValue(scale: ChartScale, value: number, forAxis: boolean): string {
  if (scale === 'percent') return forAxis ? `${Math.round(value * 100)}` : (value * 100).toFixed(1);
  if (scale === 'count') return String(Math.round(value * 1000) / 1000);
  return value.toFixed(forAxis ? 2 : 3);
}

/**
 * A grouped bar chart as a standalone SVG document a paper can include (white background, explicit size and viewBox,
 * presentation attributes only: no CSS, no script, no external font): bars per group in series order, each series its
 * own colour ({@link SERIES_COLOURS}), ± error whiskers, a labelled y axis with its unit (whole-number ticks for
 * counts), a labelled x axis, and a legend that shows every series name in full. Missing values (null) leave a gap
 * marked "–". Every label is escaped once.
 */
export function renderBarChartSvg(options: BarChartOptions): string {
  const { title, groups, scale = 'percent', yLabel, xLabel } = options;
  const series = [...new Set(groups.flatMap((group) => group.bars.map((bar) => bar.label)))];
  const largest = Math.max(0, ...groups.flatMap((group) => group.bars.map((bar) => (bar.value ?? 0) + (bar.error ?? 0))).filter(Number.isFinite));
  const { top: max, ticks } = axisTicks(scale, options.max ?? (scale === 'count' ? largest : 1));
  const barWidth = series.length > 8 ? 14 : 22;
  const groupGap = 28;
  const groupWidth = Math.max(series.length * barWidth, ...groups.map((group) => textWidth(group.label, 11) - groupGap + 8)) + groupGap;
  const left = 72;
  const plotTop = 44;
  const height = 220;
  const plotWidth = Math.max(groups.length * groupWidth, 120);
  const legendTop = plotTop + height + 58;
  const legendRow = 18;
  const legendWidth = 18 + Math.max(0, ...series.map((label) => textWidth(label, 11)));
  const width = Math.ceil(Math.max(left + plotWidth + 16, left + legendWidth + 16, textWidth(title, 14) + 2 * 16));
  const fullHeight = legendTop + legendRow * series.length + 8;
  const y = (value: number) => plotTop + height - (Math.max(0, Math.min(max, value)) / (max || 1)) * height;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="chart" role="img" width="${width}" height="${fullHeight}" viewBox="0 0 ${width} ${fullHeight}" font-family="Helvetica, Arial, sans-serif" font-size="11" fill="#222">`,
  );
  parts.push(`<title>${svgText(title)}</title><rect class="background" width="${width}" height="${fullHeight}" fill="#ffffff"/>`);
  parts.push(`<text class="chart-title" x="16" y="22" font-size="14" font-weight="bold">${svgText(title)}</text>`);
  for (const tick of ticks) {
    parts.push(`<line x1="${left}" x2="${left + plotWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e0e0e0"/><text class="tick" x="${left - 6}" y="${y(tick) + 4}" text-anchor="end">${formatValue(scale, tick, true)}</text>`);
  }
  parts.push(`<line x1="${left}" x2="${left}" y1="${plotTop}" y2="${plotTop + height}" stroke="#222"/><line x1="${left}" x2="${left + plotWidth}" y1="${plotTop + height}" y2="${plotTop + height}" stroke="#222"/>`);
  const yAxisLabel = `${yLabel} (${UNIT[scale]})`;
  parts.push(`<text class="axis-label y" x="0" y="0" transform="translate(16 ${plotTop + height / 2}) rotate(-90)" text-anchor="middle" font-size="12">${svgText(yAxisLabel)}</text>`);
  parts.push(`<text class="axis-label x" x="${left + plotWidth / 2}" y="${plotTop + height + 38}" text-anchor="middle" font-size="12">${svgText(xLabel)}</text>`);
  groups.forEach((group, g) => {
    const x0 = left + g * groupWidth + groupGap / 2 + (groupWidth - groupGap - series.length * barWidth) / 2;
    for (const bar of group.bars) {
      const s = series.indexOf(bar.label);
      const x = x0 + s * barWidth;
      if (bar.value === null || !Number.isFinite(bar.value)) {
        parts.push(`<text x="${x + barWidth / 2}" y="${y(0) - 4}" text-anchor="middle" class="missing">–</text>`);
        continue;
      }
      const error = bar.error !== undefined && Number.isFinite(bar.error) && bar.error > 0 ? bar.error : undefined;
      const tooltip = `${group.label} · ${bar.label}: ${formatValue(scale, bar.value, false)}${error ? ` ± ${formatValue(scale, error, false)}` : ''}${scale === 'percent' ? ' %' : ''}`;
      parts.push(
        `<rect class="bar" data-series="${svgText(bar.label)}" data-group="${svgText(group.label)}" data-value="${bar.value}" x="${x + 2}" y="${y(bar.value)}" width="${barWidth - 4}" height="${y(0) - y(bar.value)}" fill="${seriesColour(s)}"><title>${svgText(tooltip)}</title></rect>`,
      );
      if (error) {
        const cx = x + barWidth / 2;
        parts.push(`<path class="error" d="M${cx} ${y(bar.value + error)}V${y(bar.value - error)}M${cx - 4} ${y(bar.value + error)}h8M${cx - 4} ${y(bar.value - error)}h8" stroke="#222" fill="none"/>`);
      }
    }
    parts.push(`<text class="group-label" x="${left + g * groupWidth + groupWidth / 2}" y="${plotTop + height + 16}" text-anchor="middle">${svgText(group.label)}</text>`);
  });
  series.forEach((label, s) => {
    const ly = legendTop + s * legendRow;
    parts.push(`<g class="legend-entry" data-series="${svgText(label)}"><rect x="${left}" y="${ly - 10}" width="12" height="12" fill="${seriesColour(s)}"/><text x="${left + 18}" y="${ly}">${svgText(label)}</text></g>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
