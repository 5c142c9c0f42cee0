import { createEnglishAnalyzer } from '@factkit/retrieval';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightTerms } from '../src/page/highlight.js';

const analyzer = createEnglishAnalyzer();
const termsOf = (claim: string) => new Set(analyzer.analyze(claim));

describe('highlightTerms', () => {
  it('marks words whose Porter stems match the claim, not stop words (hand-checked)', () => {
    // "deficient" and "deficiency" both stem to "defici"; "infections" → "infect"; "the" is a stop word.
    const segments = highlightTerms('The deficiency of vitamin D, and infections.', termsOf('the vitamin deficient infection'), analyzer);
    expect(segments).toEqual([
      { text: 'The ', hit: false },
      { text: 'deficiency', hit: true },
      { text: ' of ', hit: false },
      { text: 'vitamin', hit: true },
      { text: ' D, and ', hit: false },
      { text: 'infections', hit: true },
      { text: '.', hit: false },
    ]);
  });

  it('marks possessives and mixed case like the index analyses them', () => {
    expect(
      highlightTerms("Alzheimer's DISEASE", termsOf('alzheimer disease'), analyzer)
        .filter((segment) => segment.hit)
        .map((segment) => segment.text),
    ).toEqual(["Alzheimer's", 'DISEASE']);
  });

  it('keeps every character, in order, for any text and terms (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.array(fc.constantFrom('vitamin', 'cell', 'cancer', 'a', 'the', 'ß', '١٢'), { maxLength: 4 }), (text, words) => {
        const segments = highlightTerms(text, termsOf(words.join(' ')), analyzer);
        expect(segments.map((segment) => segment.text).join('')).toBe(text);
        expect(segments.every((segment) => segment.text.length > 0)).toBe(true);
      }),
    );
  });
});
