import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBertScore, computeBertScoreFromEmbeddings, computeIdfWeights } from './bert-score.js';

// Hand-made 2-d "contextual" embeddings, one per word.
// Special tokens live in a third dimension, orthogonal to every word (bert-score keeps them in the similarity matrix).
const VECTORS: Record<string, number[]> = { a: [1, 0, 0], b: [0, 1, 0], c: [1, 1, 0], d: [1, -1, 0], '[CLS]': [0, 0, 5], '[SEP]': [0, 0, -5] };
const embedTokens = async (text: string) => {
  const tokens = ['[CLS]', ...text.split(' '), '[SEP]'];
  return { tokens, embeddings: tokens.map((token) => VECTORS[token]!) };
};

describe('BERTScore (hand-checked tiny embeddings)', () => {
  it('greedy matching: candidate "a b" vs reference "a c" gives P = R = F = (1 + 1/√2)/2', async () => {
    const { perPair } = await computeBertScore(['a b'], ['a c'], { embedTokens });
    const expected = (1 + Math.SQRT1_2) / 2;
    expect(perPair[0]!.precision).toBeCloseTo(expected, 14);
    expect(perPair[0]!.recall).toBeCloseTo(expected, 14);
    expect(perPair[0]!.f1).toBeCloseTo(expected, 14);
  });

  it('idf from the references: a (df 2) weighs log(3/3) = 0, unseen b weighs log 3, so only b and c count', async () => {
    const { perPair } = await computeBertScore(['a b', 'a'], ['a c', 'a d'], { embedTokens, idf: true });
    expect(perPair[0]!.precision).toBeCloseTo(Math.SQRT1_2, 14);
    expect(perPair[0]!.recall).toBeCloseTo(Math.SQRT1_2, 14);
    const weights = computeIdfWeights([
      ['a', 'c'],
      ['a', 'd'],
    ]);
    expect(weights.weights.get('a')).toBe(0);
    expect(weights.weights.get('c')).toBeCloseTo(Math.log(1.5), 15);
    expect(weights.unseenWeight).toBeCloseTo(Math.log(3), 15);
  });

  it('special tokens weigh 0, baseline rescaling is (s − b)/(1 − b), and identical texts score 1', () => {
    const side = { tokens: ['[CLS]', 'a', 'd'], embeddings: [VECTORS['[CLS]']!, VECTORS.a!, VECTORS.d!] };
    expect(computeBertScoreFromEmbeddings(side, side).f1).toBeCloseTo(1, 14);
    const rescaled = computeBertScoreFromEmbeddings(side, side, { baseline: { precision: 0.5, recall: 0.5, f1: 0.5 } });
    expect(rescaled.f1).toBeCloseTo(1, 14);
    const orthogonal = computeBertScoreFromEmbeddings({ tokens: ['a'], embeddings: [[1, 0]] }, { tokens: ['b'], embeddings: [[0, 1]] });
    expect(orthogonal).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('is symmetric (P and R swap when candidate and reference swap) on random embeddings', () => {
    const vector = fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 });
    const side = fc.array(vector, { minLength: 1, maxLength: 6 }).map((embeddings) => ({ tokens: embeddings.map((_, index) => `t${index}`), embeddings }));
    fc.assert(
      fc.property(side, side, (x, y) => {
        const forward = computeBertScoreFromEmbeddings(x, y);
        const backward = computeBertScoreFromEmbeddings(y, x);
        expect(forward.precision).toBeCloseTo(backward.recall, 12);
        expect(forward.recall).toBeCloseTo(backward.precision, 12);
        expect(Math.abs(forward.precision)).toBeLessThanOrEqual(1 + 1e-12);
      }),
      // Found by CI: squares of ~1e-160 underflow, so normalizing without rescaling gave a similarity of 1 + 1e-12.
      {
        examples: [
          [
            { tokens: ['t0'], embeddings: [[0, 0, -2.2227587411550599e-162]] },
            {
              tokens: ['t0', 't1'],
              embeddings: [
                [0, 0, -1.7227663932596085e-158],
                [0, 0, 0],
              ],
            },
          ],
        ],
      },
    );
  });

  it('rejects bad input and rethrows the abort reason unchanged', async () => {
    await expect(computeBertScore(['a'], [], { embedTokens })).rejects.toThrow(/argument "references"/);
    expect(() => computeBertScoreFromEmbeddings({ tokens: ['a'], embeddings: [] }, { tokens: [], embeddings: [] })).toThrow(/argument "candidate"/);
    expect(() => computeBertScoreFromEmbeddings({ tokens: ['a'], embeddings: [[Number.NaN, 0]] }, { tokens: ['a'], embeddings: [[1, 0]] })).toThrow(/non-finite/);
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(computeBertScore(['a'], ['a'], { embedTokens, abortSignal: controller.signal })).rejects.toBe(reason);
  });
});

describe('BERTScore evidence matching', () => {
  it('computeBertScoreMatrix + computeHungarianMatchScore: 2 predictions vs 3 references (hand-checked)', async () => {
    const { computeBertScoreMatrix } = await import('./bert-score.js');
    const { computeHungarianMatchScore } = await import('../matching/averitec.js');
    const matrix = await computeBertScoreMatrix(['a', 'b'], ['b', 'a', 'c'], { embedTokens });
    // Single-token texts: F1 = cosine of the two word vectors (a·b = 0, a·c = b·c = 1/√2).
    expect(matrix[0]![0]).toBeCloseTo(0, 14);
    expect(matrix[0]![1]).toBeCloseTo(1, 14);
    expect(matrix[1]![2]).toBeCloseTo(Math.SQRT1_2, 14);
    const { score, assignment } = computeHungarianMatchScore(matrix);
    expect(assignment).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(score).toBeCloseTo(2 / 3, 14);
    expect(() => computeHungarianMatchScore([])).toThrow(/argument "referenceCount"/);
    expect(computeHungarianMatchScore([], { referenceCount: 2 }).score).toBe(0);
  });
});
