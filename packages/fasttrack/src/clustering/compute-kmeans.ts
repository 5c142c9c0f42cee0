import { assertNonNegativeNumber, assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import { kmeans as mlKMeans } from 'ml-kmeans';
import { runLloydKernel } from '../internal/lloyd-kernel.js';
import { type KMeansWorkspace, kernelInertia, loadKMeansKernel } from './kernel/load-kmeans-kernel.js';
import { seedKMeansPlusPlus } from './kmeans-plus-plus.js';
import type { VectorMatrix } from './vector-matrix.js';

/** Which k-means implementation runs Lloyd's iterations. */
export type KMeansEngine = 'lloyd' | 'ml-kmeans';

export interface KMeansOptions {
  /** Number of clusters. Fewer are used when the data has fewer distinct rows. */
  readonly k: number;
  /** Seed of the k-means++ seeding. @default 0 */
  readonly seed?: number;
  /** Starting centroids (`k × dimensions`, row-major) instead of k-means++; both engines then start from them. */
  readonly initialCentroids?: Float64Array;
  /**
   * `'lloyd'`: our kernel (WebAssembly SIMD float32 distances, Elkan bounds; same assignments, centroids and
   * iterations as ml-kmeans from the same start);
   * `'ml-kmeans'`: the `ml-kmeans` package itself (the reference). @default 'lloyd'
   */
  readonly engine?: KMeansEngine;
  /** @default 100 (ml-kmeans' default) */
  readonly maxIterations?: number;
  /** Stop when every centroid moves by at most this squared distance. @default 1e-6 (ml-kmeans' default) */
  readonly tolerance?: number;
}

export interface KMeansResult {
  /** Cluster of each row, 0-based. Clusters may be empty only when `initialCentroids` were given (see `sizes`). */
  readonly assignments: Int32Array;
  /** `k × dimensions` float64 centroids, row-major. */
  readonly centroids: Float64Array;
  /** Number of clusters actually used (≤ k). */
  readonly k: number;
  readonly sizes: number[];
  readonly iterations: number;
  readonly converged: boolean;
  /** Sum of squared distances of rows to their centroid. */
  readonly inertia: number;
}

/**
 * k-means (Lloyd) with seeded greedy k-means++ starts, on our kernel or on ml-kmeans. From the same starting
 * centroids both engines give the same assignments (tested), so `'ml-kmeans'` serves as the reference.
 * @throws InvalidArgumentError for an empty matrix, a bad `k`, `maxIterations`, `tolerance` or `initialCentroids`.
 */
export function computeKMeans(matrix: VectorMatrix, options: KMeansOptions): KMeansResult {
  return computeKMeansOnRows(matrix, options);
}

/**
 * computeKMeans on the rows `selection.rows` of `matrix` (all rows when absent; row i of the result is `rows[i]`),
 * in kernel memory taken from `selection.workspace` (buildClusterTree keeps one for all its splits).
 */
export function computeKMeansOnRows(matrix: VectorMatrix, options: KMeansOptions, selection: { rows?: ArrayLike<number>; workspace?: KMeansWorkspace } = {}): KMeansResult {
  const { seed = 0, engine = 'lloyd', maxIterations = 100, tolerance = 1e-6 } = options;
  const where = 'computeKMeans';
  const n = selection.rows ? selection.rows.length : matrix.rows;
  assertPositiveInteger('k', options.k, where);
  if (n === 0) throw new InvalidArgumentError({ where, argument: 'matrix', message: 'must have at least one row' });
  assertPositiveInteger('maxIterations', maxIterations, where);
  assertNonNegativeNumber('tolerance', tolerance, where);
  if (engine !== 'lloyd' && engine !== 'ml-kmeans') throw new InvalidArgumentError({ where, argument: 'engine', message: `must be 'lloyd' or 'ml-kmeans' (got ${String(engine)})` });
  const d = matrix.dimensions;
  let start: Float64Array;
  let k: number;
  if (options.initialCentroids) {
    start = options.initialCentroids;
    k = options.k;
    if (start.length !== k * d) throw new InvalidArgumentError({ where, argument: 'initialCentroids', message: `must hold k × dimensions = ${k * d} values (got ${start.length})` });
    if (k > n && engine === 'ml-kmeans') throw new InvalidArgumentError({ where, argument: 'k', message: `must be <= the number of rows for ml-kmeans (${n})` });
  }
  // The rows go into kernel memory once, for the seeding, our Lloyd iterations and the inertia.
  const kernel = loadKMeansKernel(matrix, options.initialCentroids ? options.k : Math.min(options.k, n), { ...(selection.rows ? { rows: selection.rows } : {}), ...(selection.workspace ? { workspace: selection.workspace } : {}) });
  if (options.initialCentroids) {
    start = options.initialCentroids;
    k = options.k;
  } else {
    const seeded = seedKMeansPlusPlus(kernel, { k: Math.min(options.k, n), seed });
    start = seeded.centroids;
    k = seeded.count;
  }
  let assignments: Int32Array;
  let centroids: Float64Array;
  let iterations: number;
  let converged: boolean;
  if (engine === 'lloyd') {
    ({ assignments, centroids, iterations, converged } = runLloydKernel(kernel, start, k, maxIterations, tolerance));
  } else {
    const rows: number[][] = new Array(n);
    for (let row = 0; row < n; row++) {
      const from = selection.rows ? (selection.rows[row] as number) : row;
      rows[row] = Array.from(matrix.data.subarray(from * d, (from + 1) * d));
    }
    const initialization: number[][] = [];
    for (let cluster = 0; cluster < k; cluster++) initialization.push(Array.from(start.subarray(cluster * d, (cluster + 1) * d)));
    const result = mlKMeans(rows, k, { initialization, maxIterations, tolerance });
    assignments = Int32Array.from(result.clusters);
    centroids = new Float64Array(k * d);
    result.centroids.forEach((centroid, cluster) => centroids.set(centroid, cluster * d));
    iterations = result.iterations;
    converged = result.converged;
  }
  return { assignments, centroids, k, sizes: countSizes(assignments, k), iterations, converged, inertia: kernelInertia(kernel, assignments, centroids) };
}

function countSizes(assignments: Int32Array, k: number): number[] {
  const sizes = new Array<number>(k).fill(0);
  for (const cluster of assignments) sizes[cluster] = (sizes[cluster] as number) + 1;
  return sizes;
}

/**
 * Sum over rows of the squared distance to their assigned centroid, in float64 (`centroids` k × dimensions, row-major;
 * `assignments` one 0-based cluster per row).
 * @throws InvalidArgumentError when the lengths do not fit the matrix or an assignment is not a centroid.
 */
export function computeInertia(matrix: VectorMatrix, assignments: ArrayLike<number>, centroids: Float64Array): number {
  const where = 'computeInertia';
  const d = matrix.dimensions;
  if (assignments.length !== matrix.rows) throw new InvalidArgumentError({ where, argument: 'assignments', message: `must hold one cluster per row (${matrix.rows}, got ${assignments.length})` });
  const k = centroids.length / d;
  if (!Number.isInteger(k) || k < 1) throw new InvalidArgumentError({ where, argument: 'centroids', message: `must hold k × dimensions values for a whole k >= 1 (got ${centroids.length} for ${d} dimensions)` });
  for (let row = 0; row < assignments.length; row++) {
    const cluster = assignments[row] as number;
    if (!(Number.isInteger(cluster) && cluster >= 0 && cluster < k)) throw new InvalidArgumentError({ where, argument: `assignments[${row}]`, message: `must be a cluster in 0..${k - 1} (got ${String(cluster)})` });
  }
  return kernelInertia(loadKMeansKernel(matrix, k), assignments, centroids);
}
