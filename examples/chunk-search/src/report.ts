import { formatRows, type StudyRow } from './study.js';

/** report.md: what was measured on which corpora, the notes, and the Table 7 rows. */
export function formatReport(rows: readonly StudyRow[], context: { maxTokens: string; seed: string; subsets: readonly string[]; notes: readonly string[] }): string {
  const header = [
    `# chunk-search on SciFact (claims of the BEIR test split = original dev claims)`,
    '',
    'Chunks: sentence-packed, at most ' +
      context.maxTokens +
      " tokens. Relevance: a retrieved chunk is right when its parent abstract is a gold abstract of the claim (BEIR qrels); Top@k = share of claims with at least one right chunk in the top k; MRR@10 over chunks; Avg = mean of Top@1/3/5/10 as in the paper's Table 7.",
    'Corpora (a subset = every gold abstract of its claims + distractor abstracts drawn with seed ' + context.seed + '; claims for the dense subset drawn with the same seed):',
    ...context.subsets.map((line) => `- ${line}`),
    "Titles and questions of the offline rows come from the LLM-free baseline (lead sentence + RAKE key-phrase templates), not from the paper's model.",
    '',
    ...context.notes.map((note) => `- ${note}`),
    '',
  ];
  return [...header, formatRows(rows), ''].join('\n');
}

/** A grouped bar chart (SVG) of Avg (mean Top@1/3/5/10) per layout, one bar per system/annotation variant. */
export function renderAverageChart(rows: readonly StudyRow[], title: string): string {
  const layouts = [...new Set(rows.map((row) => row.layout))];
  const series = [...new Set(rows.map((row) => `${row.system} · ${row.variant}`))];
  const colors = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#1b9e77', '#7570b3', '#d95f02', '#66a61e'];
  const groupWidth = Math.max(40, series.length * 14 + 16);
  const width = 80 + layouts.length * groupWidth + 20;
  const height = 360;
  const plotTop = 40;
  const plotBottom = height - 120;
  const y = (value: number) => plotBottom - ((plotBottom - plotTop) * value) / 100;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + series.length * 16}" font-family="sans-serif" font-size="11">`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="13">${escapeXml(title)}</text>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) {
    parts.push(`<line x1="60" x2="${width - 10}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/><text x="55" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`);
  }
  layouts.forEach((layout, groupIndex) => {
    const x0 = 70 + groupIndex * groupWidth;
    series.forEach((name, seriesIndex) => {
      const row = rows.find((candidate) => candidate.layout === layout && `${candidate.system} · ${candidate.variant}` === name);
      if (!row || row.average === null) return;
      const x = x0 + seriesIndex * 14;
      const average = row.average;
      parts.push(`<rect x="${x}" y="${y(average)}" width="12" height="${plotBottom - y(average)}" fill="${colors[seriesIndex % colors.length]}"><title>${escapeXml(`${name} ${layout}: Avg ${average.toFixed(2)}`)}</title></rect>`);
    });
    parts.push(`<text transform="translate(${x0 + 4},${plotBottom + 10}) rotate(40)">${escapeXml(layout)}</text>`);
  });
  series.forEach((name, index) => {
    const yy = height - 10 + index * 16 - series.length * 0;
    parts.push(`<rect x="70" y="${yy - 9}" width="10" height="10" fill="${colors[index % colors.length]}"/><text x="85" y="${yy}">${escapeXml(name)}</text>`);
  });
  parts.push(`<text x="15" y="${(plotTop + plotBottom) / 2}" transform="rotate(-90 15 ${(plotTop + plotBottom) / 2})" text-anchor="middle">Avg of Top@1/3/5/10 (%)</text>`, '</svg>');
  return parts.join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
