import type { NliLabel } from '@factkit/core';
import { CorruptDataError, NLI_LABELS } from '@factkit/core';
import { NLI_FEATURE_NAMES, nliInputSize } from './nli-features.js';

/** Trained parameters of the feature NLI classifier (multinomial logistic regression over standardized features). */
export interface FeatureNliWeights {
  readonly format: 'factkit-feature-nli';
  readonly version: 2;
  /** Id of the Embedder the weights were trained with; the model refuses any other. */
  readonly embedderId: string;
  readonly dimensions: number;
  /** Class order of `weights` rows and `bias`. */
  readonly labels: readonly NliLabel[];
  /** Must equal NLI_FEATURE_NAMES of this package version. */
  readonly features: readonly string[];
  /** Whether the products of every two named features follow them (see NliFeatureLayout). */
  readonly interactions: boolean;
  /** Whether the InferSent pair encoding [u⊙v, |u−v|] of the sentence vectors follows. */
  readonly pairEmbedding: boolean;
  /**
   * A second sentence encoder (e.g. `use-lite`, 512-d) whose InferSent features [u, v, |u−v|, u⊙v] come last; the model
   * then needs that encoder as `sentenceEmbedder`. Absent = GloVe-style weights needing only `embedder`.
   */
  readonly sentenceEncoder?: { readonly embedderId: string; readonly dimensions: number };
  /** Per-feature mean and standard deviation used to standardize inputs. */
  readonly mean: readonly number[];
  readonly std: readonly number[];
  /** One row of feature weights per label. */
  readonly weights: readonly (readonly number[])[];
  readonly bias: readonly number[];
  /** How the weights were made and how well they did on held-out pairs (free-form, for people). */
  readonly training?: Readonly<Record<string, unknown>>;
}

const finiteArray = (value: unknown, length: number): boolean => Array.isArray(value) && value.length === length && value.every((entry) => typeof entry === 'number' && Number.isFinite(entry));

/**
 * Checks that `value` is a usable {@link FeatureNliWeights}.
 * @throws CorruptDataError naming what is wrong.
 */
export function validateFeatureNliWeights(value: unknown, source = 'weights'): FeatureNliWeights {
  const fail = (message: string): never => {
    throw new CorruptDataError({ source, message });
  };
  if (typeof value !== 'object' || value === null) return fail('is not an object');
  const weights = value as Partial<FeatureNliWeights>;
  if (weights.format !== 'factkit-feature-nli') fail(`has format ${JSON.stringify(weights.format)}, expected "factkit-feature-nli"`);
  if (weights.version !== 2) fail(`has version ${JSON.stringify(weights.version)}, only version 2 is supported (retrain with examples/nli-classifier)`);
  if (typeof weights.embedderId !== 'string' || weights.embedderId === '') fail('has no embedderId');
  const dimensions = weights.dimensions;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) return fail('has no positive integer dimensions');
  const labels = weights.labels;
  if (!Array.isArray(labels) || labels.length !== 3 || !NLI_LABELS.every((label) => labels.includes(label))) fail('labels must be the three NLI labels');
  const features = weights.features;
  if (!Array.isArray(features) || features.length !== NLI_FEATURE_NAMES.length || features.some((name, index) => name !== NLI_FEATURE_NAMES[index])) {
    fail(`features do not match this version of @factkit/nli-models (${NLI_FEATURE_NAMES.join(', ')})`);
  }
  if (typeof weights.pairEmbedding !== 'boolean') fail('pairEmbedding must be a boolean');
  if (typeof weights.interactions !== 'boolean') fail('interactions must be a boolean');
  const encoder = weights.sentenceEncoder;
  if (encoder !== undefined) {
    if (typeof encoder !== 'object' || encoder === null || typeof encoder.embedderId !== 'string' || encoder.embedderId === '') fail('sentenceEncoder must be { embedderId, dimensions }');
    if (typeof encoder?.dimensions !== 'number' || !Number.isInteger(encoder.dimensions) || encoder.dimensions < 1) fail('sentenceEncoder.dimensions must be a positive integer');
  }
  const size = nliInputSize({
    pairEmbedding: weights.pairEmbedding as boolean,
    interactions: weights.interactions as boolean,
    dimensions,
    sentenceEncoderDimensions: encoder?.dimensions ?? 0,
  });
  if (!finiteArray(weights.mean, size)) fail(`mean must be ${size} finite numbers`);
  if (!finiteArray(weights.std, size) || (weights.std as number[]).some((entry) => entry <= 0)) fail(`std must be ${size} positive finite numbers`);
  if (!Array.isArray(weights.weights) || weights.weights.length !== 3 || !weights.weights.every((row) => finiteArray(row, size))) {
    fail(`weights must be 3 rows of ${size} finite numbers`);
  }
  if (!finiteArray(weights.bias, 3)) fail('bias must be 3 finite numbers');
  return weights as FeatureNliWeights;
}
