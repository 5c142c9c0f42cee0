import { escapeHtml } from './escape-html.js';

/** One bar: a value in [0, max] with an optional ± error (drawn as a whisker). */
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

const PALETTE = ['#7f8c8d', '#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];

/**
 * A grouped bar chart as a standalone SVG string (no script, no external font): bars per group in series order, error
 * whiskers, a legend and a 0..max y axis. Missing values (null) leave a gap labelled "–". Every label is escaped.
 */
export function renderBarChartSvg(options: { readonly title: string; readonly groups: readonly ChartGroup[]; readonly max?: number; readonly percent?: boolean }): string {
  const { title, groups, max = 1, percent = true } = options;
  const series = [...new Set(groups.flatMap((group) => group.bars.map((bar) => bar.label)))];
  const barWidth = 22;
  const groupWidth = series.length * barWidth + 30;
  const left = 50;
  const top = 40;
  const height = 220;
  const width = Math.max(left + groups.length * groupWidth + 20, left + Math.min(3, series.length) * 220);
  const legendY = top + height + 45;
  const y = (value: number) => top + height - (Math.max(0, Math.min(max, value)) / max) * height;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="${width}" height="${legendY + 20 * Math.ceil(series.length / 3) + 10}" font-family="sans-serif" font-size="11">`);
  parts.push(`<title>${escapeHtml(title)}</title><text x="${left}" y="20" font-size="14" font-weight="600">${escapeHtml(title)}</text>`);
  for (let tick = 0; tick <= 4; tick++) {
    const value = (max * tick) / 4;
    parts.push(`<line x1="${left}" x2="${width - 10}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/><text x="${left - 6}" y="${y(value) + 4}" text-anchor="end">${percent ? `${Math.round(value * 100)}` : value.toFixed(2)}</text>`);
  }
  groups.forEach((group, g) => {
    const x0 = left + g * groupWidth + 15;
    group.bars.forEach((bar) => {
      const s = series.indexOf(bar.label);
      const x = x0 + s * barWidth;
      if (bar.value === null || !Number.isFinite(bar.value)) {
        parts.push(`<text x="${x + barWidth / 2}" y="${y(0) - 4}" text-anchor="middle" class="missing">–</text>`);
        return;
      }
      const shown = percent ? `${(bar.value * 100).toFixed(1)}` : bar.value.toFixed(3);
      parts.push(
        `<rect class="bar" data-series="${escapeHtml(bar.label)}" data-group="${escapeHtml(group.label)}" data-value="${bar.value}" x="${x + 2}" y="${y(bar.value)}" width="${barWidth - 4}" height="${y(0) - y(bar.value)}" fill="${PALETTE[s % PALETTE.length]}"><title>${escapeHtml(`${group.label} · ${bar.label}: ${shown}${bar.error ? ` ± ${percent ? (bar.error * 100).toFixed(1) : bar.error.toFixed(3)}` : ''}`)}</title></rect>`,
      );
      if (bar.error && bar.error > 0) {
        const cx = x + barWidth / 2;
        parts.push(`<path class="error" d="M${cx} ${y(bar.value + bar.error)}V${y(bar.value - bar.error)}M${cx - 4} ${y(bar.value + bar.error)}h8M${cx - 4} ${y(bar.value - bar.error)}h8" stroke="#222" fill="none"/>`);
      }
    });
    parts.push(`<text x="${x0 + (series.length * barWidth) / 2}" y="${top + height + 16}" text-anchor="middle">${escapeHtml(group.label)}</text>`);
  });
  series.forEach((label, s) => {
    const x = left + (s % 3) * 220;
    const ly = legendY + Math.floor(s / 3) * 20;
    parts.push(`<rect x="${x}" y="${ly - 10}" width="12" height="12" fill="${PALETTE[s % PALETTE.length]}"/><text x="${x + 16}" y="${ly}">${escapeHtml(label.length > 34 ? `${label.slice(0, 33)}…` : label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
