import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import type { RougeType } from '../src/index.js';
import { computeRouge, computeRougeMulti } from '../src/index.js';
import { tokenizeForRouge } from '../src/text/rouge.js';
import { closeTo, readGoldenJson } from './golden.js';
describeWithData('golden', 'ROUGE golden', () => {
  type Scores = Record<RougeType, { precision: number; recall: number; fmeasure: number }>;
  interface Side extends Scores {
    target_tokens: string[];
    prediction_tokens: string[];
  }
  interface Pair {
    id: string;
    prediction: string;
    target: string;
    unstemmed: Side;
    stemmed: Side;
  }
  interface Multi {
    id: string;
    prediction: string;
    targets: string[];
    unstemmed: { per_target: Scores[]; max_by_fmeasure: Record<string, { target_index: number; precision: number; recall: number; fmeasure: number }> };
    stemmed: Multi['unstemmed'];
  }
  const golden = readGoldenJson<{ pairs: Pair[]; multi_target: Multi[] }>('rouge/rouge_pairs.json');
  const TYPES: RougeType[] = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'];

  function expectScores(actual: Partial<Scores>, expected: Partial<Scores>, label: string): void {
    for (const type of Object.keys(expected) as RougeType[]) {
      for (const field of ['precision', 'recall', 'fmeasure'] as const) {
        const value = actual[type]![field];
        const want = expected[type]![field];
        if (!closeTo(value, want)) throw new Error(`${label} ${type}.${field}: got ${value}, rouge-score ${want}`);
      }
    }
  }

  describe('ROUGE vs Google rouge-score', () => {
    it('has the 81 golden pairs', () => expect(golden.pairs.length).toBe(81));
    it.each(golden.pairs.map((pair) => [pair.id, pair] as const))('%s (tokens and all four scores, with and without stemming)', (_id, pair) => {
      for (const useStemmer of [false, true]) {
        const side = useStemmer ? pair.stemmed : pair.unstemmed;
        expect(tokenizeForRouge(pair.target, { useStemmer })).toEqual(side.target_tokens);
        expect(tokenizeForRouge(pair.prediction, { useStemmer })).toEqual(side.prediction_tokens);
        const scores = computeRouge(pair.prediction, pair.target, { useStemmer });
        expectScores(scores, Object.fromEntries(TYPES.map((type) => [type, side[type]])) as Scores, `${pair.id} stem=${useStemmer}`);
      }
    });
    it.each(golden.multi_target.map((item) => [item.id, item] as const))('multi-target %s', (_id, item) => {
      for (const useStemmer of [false, true]) {
        const side = useStemmer ? item.stemmed : item.unstemmed;
        const types = Object.keys(side.max_by_fmeasure) as RougeType[];
        const result = computeRougeMulti(item.prediction, item.targets, { useStemmer, types });
        result.perReference.forEach((scores, index) => expectScores(scores, side.per_target[index]!, `${item.id}[${index}]`));
        for (const type of types) {
          const expected = side.max_by_fmeasure[type]!;
          expect(result.best[type]!.referenceIndex).toBe(expected.target_index);
          expect(result.best[type]!.fmeasure).toBeCloseTo(expected.fmeasure, 12);
        }
      }
    });
  });
});
