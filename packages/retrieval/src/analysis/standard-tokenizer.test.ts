import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenizeStandard } from './standard-tokenizer.js';

const texts = (input: string) => tokenizeStandard(input).map((token) => token.text);

describe('tokenizeStandard (Lucene StandardTokenizer / UAX #29)', () => {
  // Expectations from Lucene's TestStandardAnalyzer.
  it('keeps apostrophes and dots inside words, splits on hyphens and slashes', () => {
    expect(texts("O'Reilly you're she's Jim's don't O'Reilly's")).toEqual(["O'Reilly", "you're", "she's", "Jim's", "don't", "O'Reilly's"]);
    expect(texts('some-dashed-phrase dogs,chase,cats ac/dc')).toEqual(['some', 'dashed', 'phrase', 'dogs', 'chase', 'cats', 'ac', 'dc']);
    expect(texts('U.S.A. foo.bar.com')).toEqual(['U.S.A', 'foo.bar.com']);
  });
  it('handles numbers like UAX #29', () => {
    expect(texts('21.35 R2D2 C3PO 216.239.63.104 1,000 B2B 2B')).toEqual(['21.35', 'R2D2', 'C3PO', '216.239.63.104', '1,000', 'B2B', '2B']);
    expect(texts('10:30 p<0.05 -3.5%')).toEqual(['10', '30', 'p', '0.05', '3.5']);
  });
  it('drops punctuation and symbols; keeps underscores inside words', () => {
    expect(texts('"QUOTED" word … ± × ° (n = 17)')).toEqual(['QUOTED', 'word', 'n', '17']);
    expect(texts('foo_bar snake_case_2')).toEqual(['foo_bar', 'snake_case_2']);
  });
  it('emits each Han ideograph and Hiragana alone, Katakana and Hangul runs whole', () => {
    expect(tokenizeStandard('我是中国人').map((token) => [token.text, token.type])).toEqual([
      ['我', 'ideographic'],
      ['是', 'ideographic'],
      ['中', 'ideographic'],
      ['国', 'ideographic'],
      ['人', 'ideographic'],
    ]);
    expect(texts('カタカナ ひら 안녕하세요 한글입니다')).toEqual(['カタカナ', 'ひ', 'ら', '안녕하세요', '한글입니다']);
  });
  it('keeps Greek letters and combining marks in words', () => {
    expect(texts('α-synuclein TNF-α café naïve')).toEqual(['α', 'synuclein', 'TNF', 'α', 'café', 'naïve']);
    expect(texts('cafe\u0301')).toEqual(['cafe\u0301']);
  });
  it('splits tokens longer than maxTokenLength', () => {
    expect(tokenizeStandard('a'.repeat(600)).map((token) => token.text.length)).toEqual([255, 255, 90]);
    expect(tokenizeStandard('abcdef', { maxTokenLength: 4 }).map((token) => token.text)).toEqual(['abcd', 'ef']);
  });
  it('returns offsets that slice back to the token, never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (input) => {
        for (const token of tokenizeStandard(input)) {
          expect(input.slice(token.start, token.end)).toBe(token.text);
          expect(token.text.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
