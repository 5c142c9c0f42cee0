import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { computeMeteor, computeMeteorMulti, tokenizeWordsNltk } from '../src/index.js';
import { closeTo, goldenSynonyms, readGoldenJson } from './golden.js';
describeWithData('golden', 'METEOR golden', () => {
  interface PerReference {
    score: number;
    hyp_len: number;
    ref_len: number;
    matches: [number, number, string][];
    precision?: number;
    recall?: number;
    fmean?: number;
    chunks?: number;
    frag_frac?: number;
    penalty?: number;
  }
  interface Tokenized {
    hypothesis_tokens: string[];
    reference_tokens: string[][];
    meteor_score: number;
    per_reference: PerReference[];
  }
  interface MeteorPair {
    id: string;
    category: string;
    hypothesis: string;
    references: string[];
    whitespace_lower: Tokenized;
    nltk_word_tokenize: Tokenized;
  }
  const golden = readGoldenJson<{ pairs: MeteorPair[] }>('meteor/meteor_pairs.json');

  describe('METEOR vs NLTK 3.8 meteor_score (with the golden WordNet 3.0 synonym table)', () => {
    it('has 61 pairs', () => expect(golden.pairs.length).toBe(61));
    it.each(golden.pairs.map((pair) => [pair.id, pair] as const))('%s: alignment, components and score for both tokenizations', (_id, pair) => {
      for (const tokenization of ['whitespace_lower', 'nltk_word_tokenize'] as const) {
        const side = pair[tokenization];
        const multi = computeMeteorMulti(side.hypothesis_tokens, side.reference_tokens, { synonyms: goldenSynonyms });
        if (!closeTo(multi.score, side.meteor_score)) throw new Error(`${pair.id}/${tokenization}: got ${multi.score}, NLTK ${side.meteor_score}`);
        side.per_reference.forEach((expected, index) => {
          const ours = multi.perReference[index]!;
          expect(ours.matches.map((match) => [...match])).toEqual(expected.matches);
          expect([ours.hypothesisLength, ours.referenceLength]).toEqual([expected.hyp_len, expected.ref_len]);
          expect(closeTo(ours.score, expected.score)).toBe(true);
          if (expected.fmean !== undefined) {
            expect(closeTo(ours.fmean, expected.fmean)).toBe(true);
            expect(ours.chunks).toBe(expected.chunks);
            expect(closeTo(ours.penalty, expected.penalty!)).toBe(true);
            expect(closeTo(ours.fragmentation, expected.frag_frac!)).toBe(true);
          }
        });
      }
    });

    it('identical strings score 1 − 0.5/m³, not 1', () => {
      expect(computeMeteor(['a', 'b', 'c'], ['a', 'b', 'c']).score).toBeCloseTo((1 - 0.5 / 27) * 1, 15);
    });
    it('rejects non-token input', () => {
      expect(() => computeMeteor('a b' as unknown as string[], ['a'])).toThrow(/argument "hypothesis"/);
      expect(() => computeMeteorMulti(['a'], [])).toThrow(/argument "references"/);
    });
  });

  describe('tokenizeWordsNltk vs NLTK 3.8 word_tokenize', () => {
    it('reproduces the golden token lists of all 128 METEOR strings', () => {
      let compared = 0;
      for (const pair of golden.pairs) {
        const side = pair.nltk_word_tokenize;
        expect(tokenizeWordsNltk(pair.hypothesis)).toEqual(side.hypothesis_tokens);
        pair.references.forEach((reference, index) => expect(tokenizeWordsNltk(reference)).toEqual(side.reference_tokens[index]));
        compared += 1 + pair.references.length;
      }
      expect(compared).toBe(128);
    });
    it('follows Treebank conventions on hand-checked strings', () => {
      expect(tokenizeWordsNltk("Don't stop. They'll go!")).toEqual(['Do', "n't", 'stop', '.', 'They', "'ll", 'go', '!']);
      expect(tokenizeWordsNltk('"Hi," she said (twice) -- cannot.')).toEqual(['``', 'Hi', ',', "''", 'she', 'said', '(', 'twice', ')', '--', 'can', 'not', '.']);
      expect(tokenizeWordsNltk('Mr. Smith paid $3.50 on Jan. 5.')).toEqual(['Mr.', 'Smith', 'paid', '$', '3.50', 'on', 'Jan.', '5', '.']);
    });
  });
});
