import { describe, expect, it } from 'vitest';
import { createBagOfWordsEmbedder } from '../../test/support.js';
import { alignClaimsToSentences } from './align-claims-to-sentences.js';
import { labelFromClaims, labelFromSentences, toBinaryPrediction } from './label-segments.js';

describe('alignClaimsToSentences', () => {
  it('aligns to the argmax sentence only when cosine >= threshold (hand-computed)', async () => {
    // Bag-of-words cosines: claim 0 vs s0 = 3/sqrt(3*4) = 0.866; claim 1 vs s1 = 1/sqrt(2*3) = 0.408 < 0.5.
    const result = await alignClaimsToSentences({
      sentences: ['paris is big', 'rome is old today'],
      claims: ['paris is big indeed', 'rome ancient', 'nothing here'],
      embedder: createBagOfWordsEmbedder(),
    });
    expect(result[0]).toMatchObject({ claimIndex: 0, sentenceIndex: 0 });
    expect(result[0]?.similarity).toBeCloseTo(3 / Math.sqrt(12), 5);
    expect(result[1]?.sentenceIndex).toBeUndefined();
    expect(result[1]?.bestSentenceIndex).toBe(1);
    expect(result[1]?.similarity).toBeCloseTo(1 / Math.sqrt(8), 5);
    expect(result[2]?.sentenceIndex).toBeUndefined();
  });
  it('a lower threshold aligns more; no sentences aligns nothing', async () => {
    const embedder = createBagOfWordsEmbedder();
    const low = await alignClaimsToSentences({ sentences: ['rome is old today'], claims: ['rome ancient'], embedder, threshold: 0.3 });
    expect(low[0]?.sentenceIndex).toBe(0);
    expect(await alignClaimsToSentences({ sentences: [], claims: ['x'], embedder })).toEqual([{ claimIndex: 0, similarity: Number.NaN }]);
    await expect(alignClaimsToSentences({ sentences: ['a'], claims: ['a'], embedder, threshold: 2 })).rejects.toThrow(/threshold/);
  });
});

describe('labels', () => {
  it("follows the authors' aggregation", () => {
    expect(labelFromClaims(['correct', 'hallucinated', 'unverifiable'])).toBe('hallucinated');
    expect(labelFromClaims(['correct', 'unverifiable'])).toBe('not-hallucinated');
    expect(labelFromClaims(['unverifiable', undefined])).toBe('unverifiable');
    expect(labelFromClaims([])).toBe('unverifiable');
    expect(labelFromSentences(['unverifiable', 'not-hallucinated'])).toBe('not-hallucinated');
    expect(labelFromSentences(['unverifiable', 'hallucinated'])).toBe('hallucinated');
  });
  it('conventions for unverifiable', () => {
    expect(toBinaryPrediction('unverifiable')).toBe(false);
    expect(toBinaryPrediction('unverifiable', 'hallucinated')).toBe(true);
    expect(toBinaryPrediction('unverifiable', 'exclude')).toBeUndefined();
    expect(toBinaryPrediction('hallucinated', 'exclude')).toBe(true);
  });
});

describe('zero vectors', () => {
  it('a claim whose embedding is all zeros is not aligned (no NaN index)', async () => {
    const embedder = { id: 'zeros-for-x', dimensions: 2, embed: async ({ texts }: { texts: readonly string[] }) => ({ embeddings: texts.map((t) => new Float32Array(t === 'x' ? [0, 0] : [1, 0])) }) };
    const [alignment] = await alignClaimsToSentences({ sentences: ['a', 'b'], claims: ['x'], embedder });
    expect(alignment?.sentenceIndex).toBeUndefined();
    expect(alignment?.bestSentenceIndex).toBeUndefined();
    expect(Number.isNaN(alignment?.similarity)).toBe(true);
  });
});
