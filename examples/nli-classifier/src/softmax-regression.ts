/**
 * The trainer both training scripts use: multinomial logistic regression (softmax) over standardised features,
 * class-balanced cross-entropy (optionally times a per-example weight) + L2 per column, mini-batch Adam with a seeded
 * shuffle and a learning rate decayed as rate / (1 + epoch / 10). Deterministic: the same rows, targets and options
 * give the same model to the bit.
 */
import { createSeededRandom } from '@factkit/core';
import { shuffle } from './shared.js';

export interface SoftmaxTrainingOptions {
  /** Number of classes; targets are 0 … classes − 1. */
  readonly classes: number;
  readonly epochs: number;
  readonly batchSize: number;
  readonly learningRate: number;
  readonly seed: number;
  /** L2 strength of the weight of column `i` (the bias is never penalised). */
  readonly l2: (column: number) => number;
  /** A weight per row (multiplies its class weight). @default 1 for every row */
  readonly rowWeights?: readonly number[];
}

/** A trained model: weights per class over the standardised columns, with the standardisation it was fitted on. */
export interface SoftmaxModel {
  readonly weights: Float64Array[];
  readonly bias: Float64Array;
  readonly mean: Float64Array;
  readonly std: Float64Array;
}

/** Fits a softmax regression to `rows` (all of one length) and their `targets`. */
export function fitSoftmaxRegression(rows: readonly Float64Array[], targets: readonly number[], options: SoftmaxTrainingOptions): SoftmaxModel {
  const { classes, epochs, batchSize, learningRate, seed, l2, rowWeights } = options;
  const n = rows.length;
  const size = (rows[0] as Float64Array).length;
  const mean = new Float64Array(size);
  const std = new Float64Array(size);
  for (const row of rows) for (let i = 0; i < size; i += 1) mean[i] = (mean[i] as number) + (row[i] as number) / n;
  for (const row of rows) for (let i = 0; i < size; i += 1) std[i] = (std[i] as number) + ((row[i] as number) - (mean[i] as number)) ** 2 / n;
  for (let i = 0; i < size; i += 1) std[i] = Math.max(Math.sqrt(std[i] as number), 1e-6);
  const z = rows.map((row) => Float64Array.from(row, (value, i) => (value - (mean[i] as number)) / (std[i] as number)));
  const classWeight = Array.from({ length: classes }, (_unused, c) => n / (classes * Math.max(targets.filter((target) => target === c).length, 1)));
  const penalty = Float64Array.from({ length: size }, (_unused, i) => l2(i));
  const weights = Array.from({ length: classes }, () => new Float64Array(size));
  const bias = new Float64Array(classes);
  const m = Array.from({ length: classes }, () => new Float64Array(size + 1));
  const v = Array.from({ length: classes }, () => new Float64Array(size + 1));
  const gradient = Array.from({ length: classes }, () => new Float64Array(size + 1));
  const random = createSeededRandom(seed);
  const [beta1, beta2, epsilon] = [0.9, 0.999, 1e-8];
  const scores = new Float64Array(classes);
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch += 1) {
    const order = shuffle(
      rows.map((_row, index) => index),
      random,
    );
    const rate = learningRate / (1 + epoch / 10);
    for (let start = 0; start < order.length; start += batchSize) {
      for (const row of gradient) row.fill(0);
      let totalWeight = 0;
      for (let b = start; b < Math.min(start + batchSize, order.length); b += 1) {
        const index = order[b] as number;
        const features = z[index] as Float64Array;
        const target = targets[index] as number;
        let max = -Infinity;
        for (let c = 0; c < classes; c += 1) {
          const row = weights[c] as Float64Array;
          let sum = bias[c] as number;
          for (let i = 0; i < size; i += 1) sum += (row[i] as number) * (features[i] as number);
          scores[c] = sum;
          max = Math.max(max, sum);
        }
        let total = 0;
        for (let c = 0; c < classes; c += 1) {
          scores[c] = Math.exp((scores[c] as number) - max);
          total += scores[c] as number;
        }
        const weight = rowWeights ? (classWeight[target] as number) * (rowWeights[index] as number) : (classWeight[target] as number);
        totalWeight += weight;
        for (let c = 0; c < classes; c += 1) {
          const delta = weight * ((scores[c] as number) / total - (c === target ? 1 : 0));
          const row = gradient[c] as Float64Array;
          for (let i = 0; i < size; i += 1) row[i] = (row[i] as number) + delta * (features[i] as number);
          row[size] = (row[size] as number) + delta;
        }
      }
      step += 1;
      const correction1 = 1 - beta1 ** step;
      const correction2 = 1 - beta2 ** step;
      for (let c = 0; c < classes; c += 1) {
        const row = weights[c] as Float64Array;
        const g = gradient[c] as Float64Array;
        const mc = m[c] as Float64Array;
        const vc = v[c] as Float64Array;
        for (let i = 0; i <= size; i += 1) {
          const parameter = i === size ? (bias[c] as number) : (row[i] as number);
          const grad = (g[i] as number) / totalWeight + (i === size ? 0 : (penalty[i] as number)) * parameter;
          mc[i] = beta1 * (mc[i] as number) + (1 - beta1) * grad;
          vc[i] = beta2 * (vc[i] as number) + (1 - beta2) * grad * grad;
          const update = (rate * ((mc[i] as number) / correction1)) / (Math.sqrt((vc[i] as number) / correction2) + epsilon);
          if (i === size) bias[c] = (bias[c] as number) - update;
          else row[i] = (row[i] as number) - update;
        }
      }
    }
  }
  return { weights, bias, mean, std };
}

/** The class with the highest score for one (unstandardised) row. */
export function predictSoftmax(model: SoftmaxModel, row: Float64Array): number {
  let best = 0;
  let bestValue = -Infinity;
  for (let c = 0; c < model.weights.length; c += 1) {
    const weights = model.weights[c] as Float64Array;
    let sum = model.bias[c] as number;
    for (let i = 0; i < row.length; i += 1) sum += (weights[i] as number) * (((row[i] as number) - (model.mean[i] as number)) / (model.std[i] as number));
    if (sum > bestValue) [best, bestValue] = [c, sum];
  }
  return best;
}
