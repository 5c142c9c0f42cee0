/** One bar group of the plot: a method's value on one metric for ALL / matched / unmatched claims. */
export interface PlotGroup {
  /** e.g. 'Query2doc · Recall@5'. */
  readonly label: string;
  readonly bars: readonly { readonly name: string; readonly value: number | null; readonly error?: number }[];
}

export interface RenderBarChartOptions {
  readonly title: string;
  /** Horizontal reference lines, e.g. the BM25 baseline per metric, drawn across their group. */
  readonly baselines?: readonly { readonly groupIndex: number; readonly value: number; readonly label: string }[];
  /** Upper end of the y axis. @default max value rounded up to 0.1 */
  readonly yMax?: number;
}

const COLORS = ['#4c72b0', '#55a868', '#c44e52', '#8172b2', '#ccb974', '#64b5cd'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] as string);
}

/**
 * Renders grouped bars (values in [0, 1]) with standard-error whiskers and dashed baseline lines as a standalone SVG.
 * Hand-written (no chart library): the output is small, deterministic and diff-able.
 */
export function renderBarChart(groups: readonly PlotGroup[], options: RenderBarChartOptions): string {
  const barWidth = 30;
  const gap = 4;
  const groupGap = 30;
  const minGroupWidth = 96;
  const left = 56;
  const top = 48;
  const plotHeight = 260;
  const names = [...new Set(groups.flatMap((group) => group.bars.map((bar) => bar.name)))];
  const barsWidth = (group: PlotGroup) => group.bars.length * (barWidth + gap) - gap;
  const groupWidth = (group: PlotGroup) => Math.max(minGroupWidth, barsWidth(group));
  const legendWidth = names.reduce((sum, name) => sum + 24 + name.length * 7, 0) + 200;
  const width = Math.max(left + groups.reduce((sum, group) => sum + groupWidth(group) + groupGap, 0) + 20, left + options.title.length * 9 + 10, left + legendWidth);
  const height = top + plotHeight + 110;
  const maxValue = Math.max(0.1, ...groups.flatMap((group) => group.bars.map((bar) => (bar.value ?? 0) + (bar.error ?? 0))), ...(options.baselines ?? []).map((line) => line.value));
  const yMax = options.yMax ?? Math.ceil(maxValue * 10) / 10;
  const y = (value: number) => top + plotHeight - (value / yMax) * plotHeight;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  parts.push(`<text x="${left}" y="22" font-size="14" font-weight="bold">${escapeXml(options.title)}</text>`);
  for (let tick = 0; tick <= 5; tick += 1) {
    const value = (yMax * tick) / 5;
    parts.push(`<line x1="${left - 4}" x2="${width - 10}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${left - 8}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${(value * 100).toFixed(0)}</text>`);
  }
  let x = left + groupGap / 2;
  groups.forEach((group, groupIndex) => {
    const slotStart = x;
    x += (groupWidth(group) - barsWidth(group)) / 2;
    const start = x;
    group.bars.forEach((bar) => {
      const color = COLORS[names.indexOf(bar.name) % COLORS.length] as string;
      if (bar.value !== null && Number.isFinite(bar.value)) {
        parts.push(
          `<rect x="${x}" y="${y(bar.value).toFixed(1)}" width="${barWidth}" height="${(top + plotHeight - y(bar.value)).toFixed(1)}" fill="${color}"><title>${escapeXml(`${group.label} ${bar.name}: ${(bar.value * 100).toFixed(1)}`)}</title></rect>`,
        );
        if (bar.error !== undefined && bar.error > 0) {
          const cx = x + barWidth / 2;
          parts.push(`<line x1="${cx}" x2="${cx}" y1="${y(bar.value + bar.error).toFixed(1)}" y2="${y(Math.max(0, bar.value - bar.error)).toFixed(1)}" stroke="black"/>`);
        }
        // Inside the top of the bar (white) when it is tall enough, so it never collides with a baseline line.
        const inside = top + plotHeight - y(bar.value) > 16;
        const labelY = inside ? y(bar.value) + 11 : y(bar.value) - 3;
        parts.push(`<text x="${x + barWidth / 2}" y="${labelY.toFixed(1)}" text-anchor="middle" font-size="9"${inside ? ' fill="white"' : ''}>${(bar.value * 100).toFixed(1)}</text>`);
      } else {
        parts.push(`<text x="${x + barWidth / 2}" y="${top + plotHeight - 4}" text-anchor="middle" font-size="9">n/a</text>`);
      }
      x += barWidth + gap;
    });
    x -= gap;
    for (const line of (options.baselines ?? []).filter((entry) => entry.groupIndex === groupIndex)) {
      parts.push(
        `<line x1="${start - 6}" x2="${x + 6}" y1="${y(line.value).toFixed(1)}" y2="${y(line.value).toFixed(1)}" stroke="black" stroke-dasharray="4 3"><title>${escapeXml(`${line.label}: ${(line.value * 100).toFixed(1)}`)}</title></line>`,
      );
      parts.push(`<text x="${x + 8}" y="${(y(line.value) + 3).toFixed(1)}" font-size="8" fill="#333">${(line.value * 100).toFixed(1)}</text>`);
    }
    const words = group.label.split(' · ');
    words.forEach((word, index) => {
      parts.push(`<text x="${((start + x) / 2).toFixed(1)}" y="${top + plotHeight + 16 + index * 13}" text-anchor="middle">${escapeXml(word)}</text>`);
    });
    x = slotStart + groupWidth(group) + groupGap;
  });
  const legendY = top + plotHeight + 58;
  let legendX = left;
  for (const [index, name] of names.entries()) {
    parts.push(`<rect x="${legendX}" y="${legendY}" width="12" height="12" fill="${COLORS[index % COLORS.length]}"/>`);
    parts.push(`<text x="${legendX + 16}" y="${legendY + 10}">${escapeXml(name)}</text>`);
    legendX += 24 + name.length * 7;
  }
  if ((options.baselines ?? []).length > 0) {
    parts.push(`<line x1="${legendX}" x2="${legendX + 22}" y1="${legendY + 6}" y2="${legendY + 6}" stroke="black" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${legendX + 26}" y="${legendY + 10}">baseline (no expansion)</text>`);
  }
  parts.push(`<text x="${left}" y="${legendY + 32}" fill="#555">values ×100; whiskers = standard error over repeated generations</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
