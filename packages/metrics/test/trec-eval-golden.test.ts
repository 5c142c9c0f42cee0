import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { evaluateRun, formatReport } from '../src/index.js';
import { parseTrecQrels, parseTrecRun } from '../src/ir/trec-format.js';
import { closeTo, readGoldenJson, readGoldenText } from './golden.js';
describeWithData('golden', 'trec_eval golden', () => {
  interface GoldenOutput {
    command: string;
    produced_by: string;
    values_4dp: Record<string, Record<string, number | string>>;
    values_full_precision: Record<string, Record<string, number | string>>;
  }
  interface GoldenCase {
    case: string;
    qrels_file: string;
    run_file: string;
    outputs: Record<string, GoldenOutput>;
  }

  const SUPPORTED = /^(P_\d+|recall_\d+|ndcg_cut_\d+|map_cut_\d+|success_\d+|map|recip_rank|ndcg|Rprec|bpref|num_q|num_ret|num_rel|num_rel_ret)$/;
  const CASES = ['ties', 'graded', 'querysets', 'idcg', 'random50'];

  // Read while collecting the outer suite, so a missing data root skips it cleanly.
  const goldens = new Map(CASES.map((name) => [name, readGoldenJson<GoldenCase>(`trec_eval/${name}.json`)] as const));

  describe.each(CASES)('trec_eval golden: %s', (name) => {
    const golden = goldens.get(name)!;
    const qrels = parseTrecQrels(readGoldenText(`trec_eval/${golden.qrels_file}`), { source: golden.qrels_file });
    const run = parseTrecRun(readGoldenText(`trec_eval/${golden.run_file}`), { source: golden.run_file });

    it.each(Object.keys(golden.outputs))('variant %s matches every supported measure to 4 decimals and 1e-12 relative', (variant) => {
      const output = golden.outputs[variant]!;
      const relevanceLevel = / -l 2 /.test(output.command) ? 2 : 1;
      const completeQueries = / -c /.test(output.command);
      const measures = Object.keys(output.values_full_precision.all!).filter((measure) => SUPPORTED.test(measure));
      expect(measures.length).toBeGreaterThan(variant.startsWith('all_trec') ? 30 : 15);
      const result = evaluateRun(qrels, run, { metrics: measures, relevanceLevel, completeQueries });
      expect(Object.keys(result.perQuery).sort()).toEqual(
        Object.keys(output.values_full_precision)
          .filter((key) => key !== 'all')
          .sort(),
      );
      let compared = 0;
      for (const [queryId, row] of Object.entries(output.values_full_precision)) {
        const ours = queryId === 'all' ? result.aggregate : result.perQuery[queryId]!;
        for (const measure of measures) {
          if (row[measure] === undefined) continue;
          const expected = Number(row[measure]);
          const actual = ours[measure]!;
          const rounded = output.values_4dp[queryId]![measure];
          if (!closeTo(actual, expected)) throw new Error(`${name}/${variant} ${queryId} ${measure}: got ${actual}, trec_eval ${expected}`);
          if (typeof rounded === 'number' && !Number.isInteger(expected)) expect(actual.toFixed(4), `${queryId} ${measure}`).toBe(rounded.toFixed(4));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  });

  describe('trec_eval text output', () => {
    it('reproduces the raw lines of ties.selected.txt (order aside)', () => {
      const qrels = parseTrecQrels(readGoldenText('trec_eval/ties.qrels'));
      const run = parseTrecRun(readGoldenText('trec_eval/ties.run'));
      const raw = readGoldenText('trec_eval/ties.selected.txt');
      const measures = [
        ...new Set(
          raw
            .trim()
            .split('\n')
            .map((line) => line.split('\t')[0]!.trim()),
        ),
      ];
      const ours = formatReport(evaluateRun(qrels, run, { metrics: measures }), { format: 'trec_eval' });
      expect(ours.trim().split('\n').sort()).toEqual(raw.trim().split('\n').sort());
    });
  });
});
