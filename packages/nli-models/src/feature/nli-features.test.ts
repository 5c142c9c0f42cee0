import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NLI_FEATURE_NAMES, computeNliFeatures } from './nli-features.js';

// Hand-made word vectors: 'english' and 'spanish' are close (co-hyponyms), 'film' is far from both.
const WORDS: Record<string, [number, number, number]> = { english: [1, 0.2, 0], spanish: [0.9, 0.35, 0], film: [0, 0, 1], movie: [0, 0.1, 1] };
const features = (premise: string, hypothesis: string) => {
  const values = computeNliFeatures({
    premise,
    hypothesis,
    wordVector: (word) => {
      const vector = WORDS[word];
      return vector ? Float32Array.from(vector) : undefined;
    },
  });
  return Object.fromEntries(NLI_FEATURE_NAMES.map((name, index) => [name, values[index] as number])) as Record<(typeof NLI_FEATURE_NAMES)[number], number>;
};

describe('computeNliFeatures (hand-checked)', () => {
  it('finds WordNet antonyms through base forms', () => {
    expect(features('Sales increased in 2010.', 'Sales decreased in 2010.').directAntonyms).toBe(1);
    expect(features('The patient is alive.', 'The patient is dead.').directAntonyms).toBe(1);
    expect(features('The patient is alive.', 'The patient is well.').directAntonyms).toBe(0);
    expect(features('The road is damp.', 'The road is dry.').indirectAntonyms + features('The road is damp.', 'The road is dry.').directAntonyms).toBeGreaterThan(0);
  });

  it('measures alignment: exact words 1, a close substitute counts as a substitution', () => {
    const same = features('The film is English.', 'The film is English.');
    expect(same.alignMean).toBe(1);
    expect(same.substitutionShare).toBe(0);
    const swapped = features('The film is English.', 'The film is Spanish.');
    // Hypothesis words film (exact, 1) and spanish (cosine with english ~0.98): one substitution of two.
    expect(swapped.substitutionShare).toBe(0.5);
    expect(swapped.alignMin).toBeGreaterThan(0.9);
    expect(swapped.alignTimesSubstitution).toBeCloseTo(swapped.alignMean * 0.5, 10);
  });

  it('flags number, year and month conflicts and one-sided negation', () => {
    const years = features('The tower opened in 1889.', 'The tower opened in 1901.');
    expect(years).toMatchObject({ yearConflict: 1, numberConflict: 1, numberAgreement: 0 });
    expect(features('The tower opened in 1889.', 'The tower opened in 1889.')).toMatchObject({ yearConflict: 0, numberConflict: 0, numberAgreement: 1 });
    expect(features('He was born in March.', 'He was born in June.').monthConflict).toBe(1);
    expect(features('Paris is the capital.', 'Paris is not the capital.')).toMatchObject({ hypothesisOnlyNegation: 1, premiseOnlyNegation: 0, negationMismatch: 1 });
    expect(features('The film stars Tom Hanks.', 'The film stars Brad Pitt.').entitySubstitution).toBe(1);
    expect(features('The drug may reduce risk.', 'The drug reduces risk only in men.')).toMatchObject({ premiseHedge: 1, exclusiveCue: 1 });
  });

  it('returns finite values of fixed length for any text (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.string({ maxLength: 120 }), (premise, hypothesis) => {
        const values = computeNliFeatures({ premise, hypothesis, wordVector: () => undefined });
        expect(values).toHaveLength(NLI_FEATURE_NAMES.length);
        for (const value of values) expect(Number.isFinite(value)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
