import { assertPositiveInteger, createSeededRandom, InvalidArgumentError } from '@factkit/core';
import { KMEANS_BLOCK_ROWS, type KMeansKernel, loadKMeansKernel } from './kernel/load-kmeans-kernel.js';
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
  const where = 'initializeKMeansPlusPlus';
  assertPositiveInteger('k', options.k, where);
  if (matrix.rows === 0) throw new InvalidArgumentError({ where, argument: 'matrix', message: 'must have at least one row' });
  return seedKMeansPlusPlus(loadKMeansKernel(matrix, Math.max(1, Math.min(options.k, options.localTrials ?? 2 + Math.floor(Math.log(options.k))))), options);
}

/**
 * initializeKMeansPlusPlus on rows already in kernel memory (computeKMeans loads it once for seeding and Lloyd).
 * Squared distances come from the kernel in float32 (SIMD); potentials are float64 sums of them.
 */
export function seedKMeansPlusPlus(kernel: KMeansKernel, options: KMeansPlusPlusOptions): { centroids: Float64Array; count: number; rows: number[] } {
  const { k, seed = 0 } = options;
  const where = 'initializeKMeansPlusPlus';
  const { rows: n, dimensions: d } = kernel;
  const localTrials = options.localTrials ?? 2 + Math.floor(Math.log(k));
  assertPositiveInteger('localTrials', localTrials, where);
  const random = createSeededRandom(seed);
  const chosen: number[] = [Math.min(n - 1, Math.floor(random() * n))];
  const { f32, i32, stride, rowsAt, centroidsAt, outAt } = kernel;
  const out = outAt / 4;
  const rowBytes = stride * 4;
  let closest: Float64Array = new Float64Array(n);
  kernel.sqdist(rowsAt, n, rowsAt + (chosen[0] as number) * rowBytes, 1, stride, outAt);
  for (let row = 0; row < n; row++) closest[row] = f32[out + row] as number;
  // The trials of one round all draw from the same distribution, so they are drawn first and their distances computed
  // in one pass over the rows (each row read once for up to kernel.k candidates). A row is measured only when some
  // candidate may be nearer than its nearest chosen centre: by the triangle inequality a candidate at distance g from
  // that centre is no nearer when g ≥ 2·√closest; with a 0.1% margin (far above float32 error) the skipped row's value
  // is its closest distance exactly, as measuring it would give, so the seeding is the same with or without skipping.
  const group = Math.min(localTrials, kernel.k);
  let trialDistances: Float64Array[] = Array.from({ length: localTrials }, () => new Float64Array(n));
  const candidates = new Array<number>(localTrials);
  const potentials = new Float64Array(localTrials);
  /** Index (into `chosen`) of each row's nearest chosen centre, the one `closest` measures. */
  const nearest = new Int32Array(n);
  const nearestGap = new Float64Array(Math.min(k, n));
  const SKIP = 4 * (1 + 1e-3) ** 2;
  const index = kernel.idxAt / 4;
  while (chosen.length < Math.min(k, n)) {
    let potential = 0;
    for (let row = 0; row < n; row++) potential += closest[row] as number;
    if (!(potential > 0)) break; // every row coincides with a chosen centroid: no distinct row is left
    for (let trial = 0; trial < localTrials; trial++) candidates[trial] = sampleProportional(closest, potential, random());
    potentials.fill(0);
    for (let first = 0; first < localTrials; first += group) {
      const size = Math.min(group, localTrials - first);
      for (let t = 0; t < size; t++) f32.copyWithin(centroidsAt / 4 + t * stride, rowsAt / 4 + (candidates[first + t] as number) * stride, rowsAt / 4 + ((candidates[first + t] as number) + 1) * stride);
      // Squared distance from each chosen centre to the nearest candidate of this group.
      for (let centre = 0; centre < chosen.length; centre++) {
        let gap = Infinity;
        for (let t = 0; t < size; t++) {
          let sum = 0;
          for (let column = 0, a = rowsAt / 4 + (chosen[centre] as number) * stride, b = centroidsAt / 4 + t * stride; column < d; column++) {
            const difference = (f32[a + column] as number) - (f32[b + column] as number);
            sum += difference * difference;
          }
          if (sum < gap) gap = sum;
        }
        nearestGap[centre] = gap;
      }
      for (let start = 0; start < n; start += KMEANS_BLOCK_ROWS) {
        const count = Math.min(KMEANS_BLOCK_ROWS, n - start);
        let measuredRows = 0;
        for (let row = start; row < start + count; row++) {
          if (!((nearestGap[nearest[row] as number] as number) >= SKIP * (closest[row] as number))) i32[index + measuredRows++] = row;
        }
        if (measuredRows > 0) kernel.sqdistAt(rowsAt, kernel.idxAt, measuredRows, centroidsAt, size, stride, outAt);
        for (let t = 0; t < size; t++) {
          const distances = trialDistances[first + t] as Float64Array;
          let sum = 0;
          for (let row = start, position = 0; row < start + count; row++) {
            let value = closest[row] as number;
            if (position < measuredRows && i32[index + position] === row) {
              value = Math.min(value, f32[out + position * size + t] as number);
              position++;
            }
            distances[row] = value;
            sum += value;
          }
          potentials[first + t] = (potentials[first + t] as number) + sum;
        }
      }
    }
    let best = 0;
    for (let trial = 1; trial < localTrials; trial++) if ((potentials[trial] as number) < (potentials[best] as number)) best = trial;
    chosen.push(candidates[best] as number);
    const previous = closest;
    closest = trialDistances[best] as Float64Array;
    for (let row = 0; row < n; row++) if ((closest[row] as number) < (previous[row] as number)) nearest[row] = chosen.length - 1;
    trialDistances = trialDistances.map((distances, trial) => (trial === best ? previous : distances));
  }
  const centroids = new Float64Array(chosen.length * d);
  chosen.forEach((row, index) => {
    for (let column = 0; column < d; column++) centroids[index * d + column] = kernel.f32[kernel.rowsAt / 4 + row * kernel.stride + column] as number;
  });
  return { centroids, count: chosen.length, rows: chosen };
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
