import { describe, expect, it } from 'vitest';
import type { Embedder } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { GLOVE_NLI_WEIGHTS, GLOVE_USE_LITE_NLI_WEIGHTS, createFeatureNliModel } from './feature-nli-model.js';
import type { FeatureNliWeights } from './feature-nli-weights.js';
import { validateFeatureNliWeights } from './feature-nli-weights.js';
import { NLI_FEATURE_NAMES, nliInputSize } from './nli-features.js';

// A 2-d "encoder": fixed sentence vectors, every word gets [1, 0], so the classifier's arithmetic can be checked by hand.
const SENTENCES: Record<string, [number, number]> = { 'cats purr': [1, 0], 'cats make a sound': [0.8, 0.6], 'stocks fell': [0, 1] };
const tinyEmbedder = (id = 'tiny'): Embedder & { calls: number } => {
  const embedder = {
    id,
    dimensions: 2,
    calls: 0,
    async embed({ texts }: { texts: readonly string[] }) {
      embedder.calls += 1;
      return { embeddings: texts.map((text) => Float32Array.from(SENTENCES[text] ?? [1, 0])) };
    },
  };
  return embedder;
};

const layout = { interactions: false, pairEmbedding: false, dimensions: 2 };
const size = nliInputSize(layout);
const zeros = () => new Array<number>(size).fill(0);
const cosineIndex = NLI_FEATURE_NAMES.indexOf('sentenceCosine');
// Entailment logit = 4 * sentenceCosine; neutral logit = 2; contradiction logit = 0.
const tinyWeights: FeatureNliWeights = {
  format: 'factkit-feature-nli',
  version: 2,
  embedderId: 'tiny',
  dimensions: 2,
  labels: ['entailment', 'neutral', 'contradiction'],
  features: [...NLI_FEATURE_NAMES],
  interactions: false,
  pairEmbedding: false,
  mean: zeros(),
  std: new Array<number>(size).fill(1),
  weights: [zeros().map((_value, index) => (index === cosineIndex ? 4 : 0)), zeros(), zeros()],
  bias: [0, 2, 0],
};

describe('createFeatureNliModel', () => {
  it('computes softmax probabilities of the logistic-regression logits (hand-checked)', async () => {
    const embedder = tinyEmbedder();
    const model = createFeatureNliModel({ embedder, weights: tinyWeights });
    const { results } = await model.classify({
      pairs: [
        { premise: 'cats purr', hypothesis: 'cats make a sound' },
        { premise: 'cats purr', hypothesis: 'stocks fell' },
      ],
    });
    // Pair 1: cosine 0.8 -> logits [3.2, 2, 0]; pair 2: cosine 0 -> logits [0, 2, 0].
    const softmax = (logits: number[]) => logits.map((value) => Math.exp(value) / logits.reduce((sum, other) => sum + Math.exp(other), 0));
    const [p1, p2] = [softmax([3.2, 2, 0]), softmax([0, 2, 0])];
    expect(results[0]?.label).toBe('entailment');
    expect(results[0]?.scores?.entailment).toBeCloseTo(p1[0] as number, 5);
    expect(results[0]?.scores?.neutral).toBeCloseTo(p1[1] as number, 5);
    expect(results[1]?.label).toBe('neutral');
    expect(results[1]?.scores?.contradiction).toBeCloseTo(p2[2] as number, 5);
    expect(embedder.calls).toBe(1); // one embed call per classify
    expect(model.id).toBe('feature-nli(tiny)');
  });

  it('reports a pair whose vectors are missing as a problem, not a label', async () => {
    const embedder: Embedder = { id: 'tiny', dimensions: 2, embed: async ({ texts }) => ({ embeddings: texts.map(() => new Float32Array(3)) }) };
    const { results } = await createFeatureNliModel({ embedder, weights: tinyWeights }).classify({ pairs: [{ premise: 'a', hypothesis: 'b' }] });
    expect(results[0]).toMatchObject({ label: null, problem: expect.stringMatching(/2-d vector/) });
  });

  it('refuses an embedder other than the one the weights were trained with', () => {
    let thrown: unknown;
    try {
      createFeatureNliModel({ embedder: tinyEmbedder('other') });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect(String((thrown as Error).message)).toMatch(/glove-100d/);
    expect(() => createFeatureNliModel({ embedder: { ...tinyEmbedder('glove-100d'), dimensions: 2 } })).toThrow(/100/);
    expect(() => createFeatureNliModel({ embedder: undefined as never })).toThrow(/embedder/);
    expect(() => createFeatureNliModel({ embedder: tinyEmbedder(), weights: tinyWeights, maxBatchSize: 0 })).toThrow(/maxBatchSize/);
  });

  // Second encoder: 2-d "sentence" vectors; the contradiction logit is 5 x the first component of v (hypothesis),
  // which sits after the 45 named features and the 2 columns of u in the InferSent block [u, v, |u-v|, u*v].
  const encoderWeights: FeatureNliWeights = (() => {
    const wide = nliInputSize({ ...layout, sentenceEncoderDimensions: 2 });
    const row = new Array<number>(wide).fill(0);
    row[NLI_FEATURE_NAMES.length + 2] = 5;
    return {
      ...tinyWeights,
      sentenceEncoder: { embedderId: 'second', dimensions: 2 },
      mean: new Array<number>(wide).fill(0),
      std: new Array<number>(wide).fill(1),
      weights: [new Array<number>(wide).fill(0), new Array<number>(wide).fill(0), row],
      bias: [0, 0, 0],
    };
  })();
  const secondEmbedder: Embedder = { id: 'second', dimensions: 2, embed: async ({ texts }) => ({ embeddings: texts.map((text) => Float32Array.from(text === 'stocks fell' ? [1, 0] : [0, 1])) }) };

  it('adds the InferSent features [u, v, |u-v|, u*v] of a second sentence encoder (hand-checked)', async () => {
    expect(nliInputSize({ ...layout, sentenceEncoderDimensions: 2 })).toBe(size + 8);
    const model = createFeatureNliModel({ embedder: tinyEmbedder(), sentenceEmbedder: secondEmbedder, weights: encoderWeights });
    expect(model.id).toBe('feature-nli(tiny+second)');
    const { results } = await model.classify({
      pairs: [
        { premise: 'cats purr', hypothesis: 'stocks fell' },
        { premise: 'stocks fell', hypothesis: 'cats purr' },
      ],
    });
    // Pair 1: v = [1, 0] -> logits [0, 0, 5]; pair 2: v = [0, 1] -> logits [0, 0, 0] (ties go to the first label).
    expect(results[0]?.label).toBe('contradiction');
    expect(results[0]?.scores?.contradiction).toBeCloseTo(Math.exp(5) / (2 + Math.exp(5)), 5);
    expect(results[1]?.scores?.contradiction).toBeCloseTo(1 / 3, 5);
  });

  it('needs the second encoder the weights were trained with, and refuses one the weights do not use', () => {
    expect(() => createFeatureNliModel({ embedder: tinyEmbedder(), weights: encoderWeights })).toThrow(/sentenceEmbedder.*second|second.*sentenceEmbedder|required/);
    expect(() => createFeatureNliModel({ embedder: tinyEmbedder(), sentenceEmbedder: { ...secondEmbedder, id: 'third' }, weights: encoderWeights })).toThrow(/third/);
    let thrown: unknown;
    try {
      createFeatureNliModel({ embedder: tinyEmbedder(), sentenceEmbedder: secondEmbedder, weights: tinyWeights });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidArgumentError).message).toMatch(/sentenceEmbedder/);
  });

  it('reports a pair without second-encoder vectors as a problem', async () => {
    const empty: Embedder = { ...secondEmbedder, embed: async ({ texts }) => ({ embeddings: texts.map(() => new Float32Array(5)) }) };
    const { results } = await createFeatureNliModel({ embedder: tinyEmbedder(), sentenceEmbedder: empty, weights: encoderWeights }).classify({ pairs: [{ premise: 'a', hypothesis: 'b' }] });
    expect(results[0]).toMatchObject({ label: null, problem: expect.stringMatching(/sentence embedder "second"/) });
  });

  it('ships GloVe + USE-lite weights with their training record', () => {
    expect(GLOVE_USE_LITE_NLI_WEIGHTS.embedderId).toBe('glove-100d');
    expect(GLOVE_USE_LITE_NLI_WEIGHTS.sentenceEncoder).toEqual({ embedderId: 'use-lite', dimensions: 512 });
    expect(GLOVE_USE_LITE_NLI_WEIGHTS.training).toHaveProperty('heldOut');
  });

  it('ships valid weights for GloVe with their training record', () => {
    expect(GLOVE_NLI_WEIGHTS.embedderId).toBe('glove-100d');
    expect(GLOVE_NLI_WEIGHTS.features).toEqual([...NLI_FEATURE_NAMES]);
    expect(GLOVE_NLI_WEIGHTS.training).toHaveProperty('heldOut');
  });
});

describe('validateFeatureNliWeights', () => {
  it.each([
    [{ ...tinyWeights, format: 'x' }, /format/],
    [{ ...tinyWeights, version: 1 }, /version/],
    [{ ...tinyWeights, features: ['a'] }, /features/],
    [{ ...tinyWeights, interactions: 'no' }, /interactions/],
    [{ ...tinyWeights, mean: [1] }, /mean/],
    [{ ...tinyWeights, std: zeros() }, /std/],
    [{ ...tinyWeights, weights: [zeros()] }, /weights/],
    [{ ...tinyWeights, bias: [0, Number.NaN, 0] }, /bias/],
    [{ ...tinyWeights, sentenceEncoder: { embedderId: '', dimensions: 2 } }, /sentenceEncoder/],
    [{ ...tinyWeights, sentenceEncoder: { embedderId: 'x', dimensions: 2 } }, /mean/],
    [null, /not an object/],
  ])('rejects malformed weights with CorruptDataError (%#)', (value, message) => {
    let thrown: unknown;
    try {
      validateFeatureNliWeights(value);
    } catch (error) {
      thrown = error;
    }
    expect(CorruptDataError.isInstance(thrown)).toBe(true);
    expect(String((thrown as Error).message)).toMatch(message);
  });
});
