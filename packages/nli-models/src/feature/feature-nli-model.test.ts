import { describe, expect, it } from 'vitest';
import type { Embedder } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { GLOVE_NLI_WEIGHTS, createFeatureNliModel } from './feature-nli-model.js';
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
