import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBioTags, toBioTags } from './bio-tags.js';
import { extractQueryKeywords } from './query-keywords.js';
import { extractRakeKeywords } from './rake.js';

describe('extractRakeKeywords', () => {
  it('scores phrases by degree/frequency as in Rose et al. (hand-checked)', () => {
    // Candidates: "compatibility", "systems", "linear constraints", "set", "natural numbers", "linear diophantine equations".
    const text = 'Compatibility of systems of linear constraints over the set of natural numbers and linear Diophantine equations.';
    const result = extractRakeKeywords(text);
    // linear: freq 2, degree 2+3=5 -> 2.5; diophantine: 3; equations: 3 -> "linear Diophantine equations" = 8.5
    expect(result[0]).toMatchObject({ text: 'linear Diophantine equations', score: 8.5 });
    expect(result[1]).toMatchObject({ text: 'linear constraints', score: 4.5 });
    expect(result[2]).toMatchObject({ text: 'natural numbers', score: 4 });
    for (const phrase of result) expect(text.slice(phrase.start, phrase.end)).toBe(phrase.text);
  });

  it('cuts at punctuation and stop words, and caps phrase length', () => {
    expect(
      extractRakeKeywords('fever, aspirin')
        .map((p) => p.text)
        .sort(),
    ).toEqual(['aspirin', 'fever']);
    expect(extractRakeKeywords('a b c d e f', { stopWords: new Set(), maxWords: 2 }).map((p) => p.text)).toEqual(['a b', 'c d', 'e f']);
    expect(() => extractRakeKeywords('x', { maxWords: 0 })).toThrow(/"maxWords"/);
  });
});

describe('query keywords and BIO tags', () => {
  it('tags a query KB / KI / O (hand-checked)', () => {
    const result = extractQueryKeywords('What causes high fever in young children?');
    expect(result.spans.map((span) => span.text)).toEqual(['causes high fever', 'young children']);
    expect(result.tokens.map((token) => `${token.text}/${token.tag}`)).toEqual(['What/O', 'causes/KB', 'high/KI', 'fever/KI', 'in/O', 'young/KB', 'children/KI']);
    expect(result.method).toBe('rake (baseline)');
  });

  it('reports a query with no keywords', () => {
    expect(extractQueryKeywords('What is it?').problems.map((p) => p.code)).toEqual(['no-keywords']);
  });

  it('fromBioTags inverts toBioTags for token-aligned, non-touching spans (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.boolean()), { minLength: 1, maxLength: 30 }), (words) => {
        const text = words.map(([word]) => word).join(' ');
        // A span = a maximal run of words flagged true.
        const spans: Array<{ start: number; end: number }> = [];
        let offset = 0;
        let open: { start: number; end: number } | undefined;
        for (const [word, flagged] of words) {
          if (flagged) {
            if (open) open.end = offset + word.length;
            else open = { start: offset, end: offset + word.length };
          } else if (open) {
            spans.push(open);
            open = undefined;
          }
          offset += word.length + 1;
        }
        if (open) spans.push(open);
        const tokens = toBioTags(text, spans);
        expect(tokens.filter((token) => token.tag === 'KB')).toHaveLength(spans.length);
        expect(fromBioTags(text, tokens).map(({ start, end }) => ({ start, end }))).toEqual(spans);
      }),
    );
  });
});
