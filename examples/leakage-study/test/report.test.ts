import type { LeakageStudyResult } from '@factkit/nli-match';
import { describe, expect, it } from 'vitest';
import { formatMean, formatStudyPlot, formatStudyReport, metricLabel } from '../src/report-markdown.js';

const mean = (value: number, se: number) => ({ mean: value, standardError: se, n: 2 });
const mwu = (pvalue: number) => ({ test: 'mann-whitney-u' as const, description: 'MWU', statistic: 10, pvalue, sizes: [3, 3] as const });

function fakeResult(overrides: Partial<LeakageStudyResult>): LeakageStudyResult {
  return {
    datasetName: 'SciFact',
    expanderId: 'query2doc(scripted)',
    retrieverId: 'bm25',
    nliId: 'feature-nli(use-lite)',
    repeats: 2,
    ks: [5],
    metricNames: ['recall@5', 'ndcg@5'],
    baseline: { 'recall@5': 0.512, 'ndcg@5': 0.455 },
    runs: [],
    summary: {
      'recall@5': { all: mean(0.551, 0.002), matched: mean(0.633, 0.004), unmatched: mean(0.459, 0.004), unknown: null, matchedVsUnmatched: mwu(0.0004), matchedVsAll: mwu(0.02), versusBaseline: mwu(0.2) },
      'ndcg@5': { all: mean(0.479, 0.001), matched: mean(0.571, 0.003), unmatched: mean(0.376, 0.003), unknown: null, matchedVsUnmatched: null, matchedVsAll: null, versusBaseline: null },
    },
    matchedProportion: mean(0.528, 0.004),
    counts: { matched: 7, unmatched: 5, unknown: 0, undecidable: 0, expansionFailed: 0, retrievalFailed: 0, verdictFailed: 0 },
    incomplete: [],
    problems: [
      { code: 'refusal', message: 'x' },
      { code: 'refusal', message: 'y' },
    ],
    ...overrides,
  };
}

describe('formatStudyReport', () => {
  it('lays out ALL / M / ¬M like Table 4 with ×100 values, SE, p-values and the matched proportion', () => {
    const report = formatStudyReport(
      [
        { method: 'BM25+RM3', baselineName: 'BM25', matching: false, result: fakeResult({ expanderId: 'rm3', matchedProportion: mean(0, 0), problems: [{ code: 'empty-generation', message: 'none' }] }) },
        { method: 'Query2doc', baselineName: 'BM25', matching: true, result: fakeResult({}) },
      ],
      { datasetName: 'SciFact', claims: 655, corpusSize: 5183, command: 'pnpm --filter leakage-study start' },
    );
    expect(report).toContain('| Method | Data | Recall@5 | NDCG@5 | claim × repeat runs |');
    expect(report).toContain('| BM25 | ALL | 51.2 | 45.5 | |');
    expect(report.match(/\| BM25 \| ALL/g)).toHaveLength(1); // one baseline row for both BM25 methods
    expect(report).toContain('| Query2doc | ALL | 55.1 ± 0.2 | 47.9 ± 0.1 | |');
    expect(report).toContain('| | M | 63.3 ± 0.4 | 57.1 ± 0.3 |');
    expect(report).toContain('| | ¬M | 45.9 ± 0.4 | 37.6 ± 0.3 |');
    expect(report).toContain('| Query2doc | M vs ¬M | < 0.001 (MWU) | – |');
    expect(report).toContain('| Query2doc | M vs ALL | 0.020 (MWU) | – |');
    expect(report).toContain('| Query2doc | 52.8 ± 0.4 | 7 | 5 | 0 | 0 |');
    expect(report).not.toContain('Incomplete');
    // RM3 has no generations: no M / ¬M rows, no matched proportion, and its empty-generation notes are not problems.
    expect(report).not.toContain('| BM25+RM3 | 0.0');
    expect(report).toContain('- Query2doc: refusal × 2');
    expect(report).not.toContain('empty-generation');
  });

  it('puts an incomplete banner first and an unknown row when NLI failed', () => {
    const result = fakeResult({
      counts: { matched: 7, unmatched: 5, unknown: 3, undecidable: 0, expansionFailed: 1, retrievalFailed: 0, verdictFailed: 0 },
      incomplete: ['1 of 16 expansions failed (left out of every row)', '3 of 16 expanded claims have an unknown match (NLI failed; in neither M nor ¬M)'],
    });
    const report = formatStudyReport([{ method: 'HyDE', baselineName: 'Dense', matching: true, result }], {
      datasetName: 'SciFact',
      claims: 8,
      corpusSize: 100,
      command: 'x',
      incomplete: ['256 of 3493 documents could not be embedded'],
    });
    const banner = report.indexOf('**Incomplete: some numbers below are not whole.**');
    expect(banner).toBeGreaterThan(0);
    expect(banner).toBeLessThan(report.indexOf('## Retrieval by matching condition'));
    expect(report).toContain('> - 256 of 3493 documents could not be embedded');
    expect(report).toContain('> - HyDE: 3 of 16 expanded claims have an unknown match');
    expect(report).toContain('| | unknown | – | – | 3 |');
  });

  it('formats helpers', () => {
    expect(metricLabel('ndcg@10')).toBe('NDCG@10');
    expect(formatMean({ mean: 0.5, standardError: Number.NaN, n: 1 })).toBe('50.0');
    expect(formatMean(null)).toBe('–');
  });
});

describe('formatStudyPlot', () => {
  it('draws one bar per condition with a dashed baseline and escapes text', () => {
    const svg = formatStudyPlot([{ method: 'Query2doc <q>', baselineName: 'BM25', matching: true, result: fakeResult({}) }], { datasetName: 'SciFact' });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<rect x="\d/g)?.length).toBe(6 + 3); // 2 metrics × 3 bars + 3 legend swatches
    expect(svg.match(/stroke-dasharray/g)?.length).toBe(2 + 1); // a baseline line per metric + legend
    expect(svg).toContain('Query2doc &lt;q&gt;');
    expect(svg).toContain('>63.3<');
  });
});
