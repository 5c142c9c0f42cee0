import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { LUCENE_ENGLISH_STOP_WORDS, createChineseAnalyzer, createEnglishAnalyzer, lowerCaseLikeLucene } from './analyzer.js';

describe('createEnglishAnalyzer (Lucene EnglishAnalyzer / Anserini default)', () => {
  const analyzer = createEnglishAnalyzer();
  it("matches Lucene's TestEnglishAnalyzer cases", () => {
    expect(analyzer.analyze('books')).toEqual(['book']);
    expect(analyzer.analyze('book')).toEqual(['book']);
    expect(analyzer.analyze('the')).toEqual([]);
    expect(analyzer.analyze("steven's")).toEqual(['steven']);
    expect(analyzer.analyze('steven\u2019s')).toEqual(['steven']);
    expect(analyzer.analyze('steven\uFF07s')).toEqual(['steven']);
  });
  it('lower-cases, drops the 33 Lucene stop words and stems', () => {
    expect(LUCENE_ENGLISH_STOP_WORDS).toHaveLength(33);
    expect(analyzer.analyze('The Cats are running INTO the Houses of Parliament')).toEqual(['cat', 'run', 'hous', 'parliament']);
    expect(analyzer.analyze('0-dimensional biomaterials show inductive properties.')).toEqual(['0', 'dimension', 'biomateri', 'show', 'induct', 'properti']);
  });
  it('lower-cases code point by code point like Java (no final sigma, İ → i)', () => {
    expect(lowerCaseLikeLucene('ΟΔΟΣ')).toBe('οδοσ');
    expect(lowerCaseLikeLucene('İSTANBUL')).toBe('istanbul');
  });
  it('can skip stemming or use other stop words; rejects bad options', () => {
    expect(createEnglishAnalyzer({ stemmer: 'none', stopWords: [] }).analyze('The running cats')).toEqual(['the', 'running', 'cats']);
    expect(() => createEnglishAnalyzer({ stemmer: 'snowball' as never })).toThrow(InvalidArgumentError);
    expect(() => createEnglishAnalyzer({ maxTokenLength: 0 })).toThrow(/maxTokenLength/);
  });
  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        const tokens = analyzer.analyze(text);
        // Non-empty, whitespace-free, at most 255 code units, already lower-cased, and the same on a second call.
        for (const token of tokens) {
          expect(token.length).toBeGreaterThan(0);
          expect(token.length).toBeLessThanOrEqual(255);
          expect(/\s/.test(token)).toBe(false);
          expect(lowerCaseLikeLucene(token)).toBe(token);
        }
        expect(analyzer.analyze(text)).toEqual(tokens);
      }),
    );
  });
});

describe('createChineseAnalyzer (Lucene CJKAnalyzer)', () => {
  const analyzer = createChineseAnalyzer();
  it("makes overlapping bigrams like Lucene's TestCJKAnalyzer", () => {
    expect(analyzer.analyze('一二三四五六七八九十')).toEqual(['一二', '二三', '三四', '四五', '五六', '六七', '七八', '八九', '九十']);
    expect(analyzer.analyze('一 二三四 五六七八九 十')).toEqual(['一', '二三', '三四', '五六', '六七', '七八', '八九', '十']);
  });
  it('keeps non-CJK words, folds full-width letters, drops English stop words', () => {
    expect(analyzer.analyze('事实核查 is the ＡＢＣ 方法')).toEqual(['事实', '实核', '核查', 'abc', '方法']);
  });
});
