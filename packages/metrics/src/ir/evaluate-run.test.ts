import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectCorruptData, expectInvalidArgument } from '../../test/expect-errors.js';
import { evaluateRun } from './evaluate-run.js';
import { formatReport } from './format-report.js';
import { parseMeasureNames } from './metric-names.js';
import { computeNdcgAtK, computePrecisionAtK, computeRecallAtK, computeReciprocalRank } from './ranking-metrics.js';
import { formatTrecQrels, formatTrecRun, parseQrelsJson, parseRunJson, parseTrecQrels, parseTrecRun } from './trec-format.js';

describe('TREC and JSON I/O', () => {
  it('parses tolerant whitespace and round-trips through the formatters', () => {
    const qrels = parseTrecQrels('q1\t0  d1 2\n\n  q1 0 d2 0  \r\nq2 0 d3 1\n');
    expect(qrels).toEqual({ q1: { d1: 2, d2: 0 }, q2: { d3: 1 } });
    expect(parseTrecQrels(formatTrecQrels(qrels))).toEqual(qrels);
    const run = parseTrecRun('q1 Q0 d1 9 0.5 r\nq1 Q0 d2 1 1.5e0 r\n');
    expect(run).toEqual({ q1: { d1: 0.5, d2: 1.5 } });
    expect(formatTrecRun(run, { runId: 'mine' })).toBe('q1 Q0 d2 1 1.5 mine\nq1 Q0 d1 2 0.5 mine\n');
    expect(parseRunJson(JSON.stringify(run))).toEqual(run);
    expect(parseQrelsJson(JSON.stringify(qrels))).toEqual(qrels);
  });

  it('reports malformed lines with their line number as CorruptDataError', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => parseTrecQrels('q1 0 d1 1\nq1 0 d2\n', { source: 'x.qrels' }), /x\.qrels:2: expected 4 fields/],
      [() => parseTrecQrels('q1 0 d1 high\n'), /qrels:1: relevance "high"/],
      [() => parseTrecQrels('q1 0 d1 1\nq1 0 d1 0\n'), /qrels:2: .*already judged on line 1/],
      [() => parseTrecRun('q1 Q0 d1 1 NaN r\n'), /run:1: score "NaN"/],
      [() => parseTrecRun('q1 Q0 d1 1 1 r\n\nq1 Q0 d1 2 0 r\n'), /run:3: .*already listed on line 1/],
      [() => parseRunJson('{"q": {"d": "x"}}'), /must be a finite number/],
      [() => parseQrelsJson('not json'), /not valid JSON/],
    ];
    for (const [call, message] of cases) {
      expectCorruptData(call, message);
    }
  });
});

describe('evaluateRun', () => {
  const qrels = { q1: { a: 1, b: 0, c: 2 }, q2: { x: 1 }, qMissing: { m: 1 } };
  const run = { q1: { a: 3, b: 2, z: 1 }, q2: { y: 1 }, qExtra: { e: 1 } };

  it('hand-checked values and query bookkeeping', () => {
    const result = evaluateRun(qrels, run, { metrics: ['P_2', 'recall_3', 'recip_rank', 'ndcg_cut_2', 'num_rel', 'num_q'] });
    expect(result.evaluatedQueries).toEqual(['q1', 'q2']);
    expect(result.runOnlyQueries).toEqual(['qExtra']);
    expect(result.qrelsOnlyQueries).toEqual(['qMissing']);
    expect(result.perQuery.q1).toMatchObject({ P_2: 0.5, recall_3: 0.5, recip_rank: 1, num_rel: 2 });
    // DCG@2 = 1/log2(2) = 1; IDCG@2 = 2 + 1/log2(3).
    expect(result.perQuery.q1!.ndcg_cut_2).toBeCloseTo(1 / (2 + 1 / Math.log2(3)), 15);
    expect(result.aggregate.P_2).toBe(0.25);
    expect(result.aggregate.num_rel).toBe(3);
    expect(result.aggregate.num_q).toBe(2);
    const complete = evaluateRun(qrels, run, { metrics: ['P_2'], completeQueries: true });
    expect(complete.aggregate.P_2).toBeCloseTo(0.5 / 3, 15);
    expect(complete.perQuery.qMissing).toEqual({ P_2: 0 });
  });

  it('relevanceLevel raises the relevance threshold but leaves nDCG gains alone', () => {
    const level2 = evaluateRun(qrels, run, { metrics: ['recall_3', 'ndcg_cut_3'], relevanceLevel: 2 });
    expect(level2.perQuery.q1!.recall_3).toBe(0);
    expect(level2.perQuery.q1!.ndcg_cut_3).toBe(evaluateRun(qrels, run, { metrics: ['ndcg_cut_3'] }).perQuery.q1!.ndcg_cut_3);
  });

  it('expands families and -m style names; rejects unknown ones and bad values with InvalidArgumentError', () => {
    expect(parseMeasureNames(['P.1,3', 'success']).map((measure) => measure.name)).toEqual(['P_1', 'P_3', 'success_1', 'success_5', 'success_10']);
    for (const [call, argument] of [
      [() => evaluateRun(qrels, run, { metrics: ['ndcg@10'] }), 'metrics'],
      [() => evaluateRun(qrels, run, { metrics: [] }), 'metrics'],
      [() => evaluateRun(qrels, run, { metrics: ['P_0'] }), 'metrics'],
      [() => evaluateRun(qrels, { q1: { a: Number.NaN } }, { metrics: ['map'] }), 'run'],
      [() => evaluateRun(qrels, run, { metrics: ['map'], relevanceLevel: Number.NaN }), 'relevanceLevel'],
      [() => computeRecallAtK(['a', 'a'], {}, { k: 1 }), 'ranking'],
      [() => computePrecisionAtK(['a'], {}, { k: 0 }), 'k'],
    ] as const) {
      expectInvalidArgument(call, argument);
    }
  });

  it('formats Markdown and JSON reports', () => {
    const result = evaluateRun(qrels, run, { metrics: ['map', 'num_rel'] });
    expect(formatReport(result)).toBe('| query | map | num_rel |\n|---|---:|---:|\n| all | 0.2500 | 3 |\n');
    expect(formatReport(result, { perQuery: true, digits: 2 }).split('\n')).toContain('| q1 | 0.50 | 2 |');
    expect(JSON.parse(formatReport(result, { format: 'json' })).perQuery.q2).toEqual({ map: 0, num_rel: 1 });
    expect(JSON.parse(formatReport(result, { format: 'json', perQuery: false }))).not.toHaveProperty('perQuery');
    expect(formatReport(result, { format: 'trec_eval', perQuery: false })).toBe('map                   \tall\t0.2500\nnum_rel               \tall\t3\n');
    expectInvalidArgument(() => formatReport(result, { format: 'csv' as 'json' }), 'format');
    expectInvalidArgument(() => formatReport(result, { digits: -1 }), 'digits');
  });
});

describe('ranking metric properties (fast-check)', () => {
  const judgmentsArbitrary = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), fc.integer({ min: -1, max: 3 }), { minKeys: 1 });
  const rankingArbitrary = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'), { maxLength: 9 });

  it('every measure lies in [0, 1]', () => {
    fc.assert(
      fc.property(rankingArbitrary, judgmentsArbitrary, fc.integer({ min: 1, max: 12 }), (ranking, judgments, k) => {
        for (const value of [computeNdcgAtK(ranking, judgments, { k }), computeRecallAtK(ranking, judgments, { k }), computePrecisionAtK(ranking, judgments, { k }), computeReciprocalRank(ranking, judgments)]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
    );
  });

  it('the ideal ranking (judged docs by level) has nDCG@k = 1 whenever some doc has level ≥ 1', () => {
    fc.assert(
      fc.property(judgmentsArbitrary, fc.integer({ min: 1, max: 10 }), (judgments, k) => {
        const ideal = Object.keys(judgments).sort((left, right) => judgments[right]! - judgments[left]!);
        const hasGain = Object.values(judgments).some((level) => level > 0);
        expect(computeNdcgAtK(ideal, judgments, { k })).toBeCloseTo(hasGain ? 1 : 0, 12);
      }),
    );
  });

  it('evaluateRun does not depend on the order of run entries or query insertion', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 3 })), { minLength: 1 }), judgmentsArbitrary, (entries, judgments) => {
        const scores = Object.fromEntries(entries);
        const reversed = Object.fromEntries(Object.entries(scores).reverse());
        const options = { metrics: ['map', 'ndcg_cut_3', 'P_2', 'recip_rank'] };
        expect(evaluateRun({ q: judgments }, { q: reversed }, options)).toEqual(evaluateRun({ q: judgments }, { q: scores }, options));
      }),
    );
  });
});
