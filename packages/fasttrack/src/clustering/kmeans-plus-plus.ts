import { assertPositiveInteger, createSeededRandom, InvalidArgumentError } from '@factkit/core';
import type { VectorMatrix } from './vector-matrix.js';

export interface KMeansPlusPlusOptions {
  /** Number of centroids wanted. */
  readonly k: number;
  /** Seed of the mulberry32 generator (core `createSeededRandom`). @default 0 */
  readonly seed?: number;
  /** Candidates tried per new centroid (greedy k-means++, as scikit-learn and ml-kmeans do). @default 2 + floor(ln k) */
  readonly localTrials?: number;
}

/**
 * Greedy k-means++ seeding (Arthur & Vassilvitskii 2007, with scikit-learn's `2 + ln k` local trials): the first
 * centroid is a uniformly drawn row, each next one the best of `localTrials` rows drawn with probability
 * proportional to their squared distance to the nearest chosen centroid. Seeded and deterministic.
 * Returns fewer than `k` centroids when the data has fewer than `k` distinct rows (every remaining row then sits on a
 * chosen centroid), so callers never get duplicate centroids that would leave clusters empty.
 * @returns `count × dimensions` float64 centroids, row-major, and the row each was copied from.
 * @throws InvalidArgumentError when `k` is not a positive integer or the matrix is empty.
 */
export function initializeKMeansPlusPlus(matrix: VectorMatrix, options: KMeansPlusPlusOptions): { centroids: Float64Array; count: number; rows: number[] } {
  const { k, seed = 0 } = options;
  const where = 'initializeKMeansPlusPlus';
  assertPositiveInteger('k', k, where);
  const { rows: n, dimensions: d, data } = matrix;
  if (n === 0) throw new InvalidArgumentError({ where, argument: 'matrix', message: 'must have at least one row' });
  const localTrials = options.localTrials ?? 2 + Math.floor(Math.log(k));
  assertPositiveInteger('localTrials', localTrials, where);
  const random = createSeededRandom(seed);
  const chosen: number[] = [Math.min(n - 1, Math.floor(random() * n))];
  const closest = new Float64Array(n);
  distancesToRow(data, n, d, chosen[0] as number, closest);
  const candidateDistances = new Float64Array(n);
  const bestDistances = new Float64Array(n);
  while (chosen.length < Math.min(k, n)) {
    let potential = 0;
    for (let row = 0; row < n; row++) potential += closest[row] as number;
    if (!(potential > 0)) break; // every row coincides with a chosen centroid: no distinct row is left
    let bestRow = -1;
    let bestPotential = Infinity;
    for (let trial = 0; trial < localTrials; trial++) {
      const candidate = sampleProportional(closest, potential, random());
      let candidatePotential = 0;
      distancesToRow(data, n, d, candidate, candidateDistances);
      for (let row = 0; row < n; row++) {
        const value = Math.min(closest[row] as number, candidateDistances[row] as number);
        candidateDistances[row] = value;
        candidatePotential += value;
      }
      if (candidatePotential < bestPotential) {
        bestPotential = candidatePotential;
        bestRow = candidate;
        bestDistances.set(candidateDistances);
      }
    }
    chosen.push(bestRow);
    closest.set(bestDistances);
  }
  const centroids = new Float64Array(chosen.length * d);
  chosen.forEach((row, index) => {
    for (let column = 0; column < d; column++) centroids[index * d + column] = data[row * d + column] as number;
  });
  return { centroids, count: chosen.length, rows: chosen };
}

function distancesToRow(data: Float32Array, n: number, d: number, from: number, out: Float64Array): void {
  const base = from * d;
  for (let row = 0; row < n; row++) {
    const offset = row * d;
    let sum = 0;
    for (let column = 0; column < d; column++) {
      const difference = (data[offset + column] as number) - (data[base + column] as number);
      sum += difference * difference;
    }
    out[row] = sum;
  }
}

/** Index drawn with probability weights[i] / total, skipping zero-weight rows. */
function sampleProportional(weights: Float64Array, total: number, uniform: number): number {
  const target = uniform * total;
  let cumulative = 0;
  let last = -1;
  for (let index = 0; index < weights.length; index++) {
    const weight = weights[index] as number;
    if (weight <= 0) continue;
    last = index;
    cumulative += weight;
    if (cumulative > target) return index;
  }
  return last;
}
