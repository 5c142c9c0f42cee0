import { KMEANS_BLOCK_ROWS, type KMeansKernel } from '../clustering/kernel/load-kmeans-kernel.js';

export interface LloydKernelResult {
  /** Cluster of each row, as assigned in the last iteration (against the centroids it started from, like ml-kmeans). */
  readonly assignments: Int32Array;
  /** `k × dimensions` float64 centroids after the last update. */
  readonly centroids: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
  /** Row-to-centroid distances computed in float32 (a full Lloyd iteration costs rows × k). */
  readonly distanceEvaluations: number;
  /** Rows whose nearest centroid the float32 distances could not decide, settled by exact float64 distances. */
  readonly exactResolutions: number;
}

/**
 * Lloyd's k-means on float32 rows with the distance work in the k-means kernel (WebAssembly SIMD, float32, batched)
 * and Elkan's lower bounds (one per row and centroid) plus half the distance to the nearest other centroid, to skip
 * rows whose assignment cannot change. Each iteration after the first: (1) the rows whose bounds leave their centroid in
 * doubt, (2) their own-centroid distance in one batch, which tightens the upper bound, (3) all k distances, in one
 * batch, for the rows still in doubt. (Measuring only the centroids the per-pair bounds cannot rule out, as (row,
 * centroid) pairs, did fewer distances but took more CPU time on the benchmark.) It reproduces ml-kmeans step for step:
 * - a float32 distance is within a proven bound of the float64 one (relative `(d/8 + 16)·2⁻²⁴`, at least twice the
 *   summation error of the kernel's sixteen partial sums, plus `2⁻²³·max‖c‖` for rounding the centroids to float32);
 *   a row goes to the nearest float32 centroid only when no other centroid can be as near within those bounds, else
 *   the few candidates are compared by ml-kmeans' own float64 sums (left to right), the first strictly smallest wins;
 * - the bounds are float32 distances widened by the same error bound, so a skipped row is one whose float64 nearest
 *   centroid cannot have changed (with a 1e-9 relative margin for float64 rounding, as before);
 * - centroids are float64 sums of the rows in row order (the kernel sums each coordinate in order, as ml-kmeans does)
 *   divided once; an empty cluster keeps its previous centroid; it stops when every centroid moved by at most
 *   `tolerance` (squared) or after `maxIterations`.
 * `kernel` holds the rows and room for at least `k` centroids.
 */
export function runLloydKernel(kernel: KMeansKernel, initial: Float64Array, k: number, maxIterations: number, tolerance: number): LloydKernelResult {
  const { rows: n, dimensions: d, stride, f32, f64, i32, rowsAt, centroidsAt, outAt, assignAt, sumsAt } = kernel;
  const rowBytes = stride * 4;
  const out = outAt / 4;
  const assigned = assignAt / 4;
  const sums = sumsAt / 8;
  let centroids = Float64Array.from(initial);
  let next = new Float64Array(k * d);
  const upper = new Float64Array(n);
  /** Elkan: a lower bound on the distance of each row to each centroid, `n × k`. */
  const lower = new Float64Array(n * k);
  const counts = new Float64Array(k);
  /** Half the distance from each centroid to its nearest other centroid. */
  const halfNearest = new Float64Array(k);
  const moved = new Float64Array(k);
  const index = kernel.idxAt / 4;
  const roots = new Float64Array(k);
  const RELATIVE = 1e-9;
  const DELTA = (d / 8 + 16) * 2 ** -24;
  const widen = 1 / (1 - DELTA);
  const narrow = 1 / (1 + DELTA);
  let slack = 0;
  let evaluations = 0;
  let resolutions = 0;
  let iterations = 0;
  let converged = false;

  /** Float32 copies of the centroids into kernel memory; `slack` bounds what rounding them moves a distance by. */
  const loadCentroids = (): void => {
    let largest = 0;
    for (let cluster = 0; cluster < k; cluster++) {
      let norm = 0;
      for (let column = 0; column < d; column++) {
        const value = centroids[cluster * d + column] as number;
        f32[centroidsAt / 4 + cluster * stride + column] = value;
        norm += value * value;
      }
      if (norm > largest) largest = norm;
    }
    slack = 2 ** -23 * Math.sqrt(largest);
  };

  /** ml-kmeans' squared distance: float64, summed left to right. */
  const exactDistance = (row: number, cluster: number): number => {
    let sum = 0;
    for (let column = 0; column < d; column++) {
      const difference = (f32[rowsAt / 4 + row * stride + column] as number) - (centroids[cluster * d + column] as number);
      sum += difference * difference;
    }
    return sum;
  };

  /** Assigns `row` from its k float32 squared distances at f32[base..base+k) and sets its bounds. */
  const settle = (row: number, base: number): void => {
    let nearest = 0;
    let nearestDistance = Infinity;
    for (let cluster = 0; cluster < k; cluster++) {
      const distance = Math.sqrt(f32[base + cluster] as number);
      roots[cluster] = distance;
      if (distance < nearestDistance) {
        nearestDistance = distance;
        nearest = cluster;
      }
    }
    // Every centroid whose float64 distance may be ≤ the float64 minimum is a candidate.
    const reach = (nearestDistance + slack) * widen;
    let candidates = 0;
    for (let cluster = 0; cluster < k; cluster++) {
      const bound = ((roots[cluster] as number) - slack) * narrow;
      lower[row * k + cluster] = bound;
      if (bound <= reach) candidates++;
    }
    if (candidates > 1) {
      resolutions++;
      let best = Infinity;
      for (let cluster = 0; cluster < k; cluster++) {
        if ((lower[row * k + cluster] as number) > reach) continue;
        const distance = exactDistance(row, cluster);
        if (distance < best) {
          best = distance;
          nearest = cluster;
        }
      }
    }
    i32[assigned + row] = nearest;
    upper[row] = ((roots[nearest] as number) + slack) * widen;
  };

  /** The larger of two lower bounds on the distance of `row` to any centroid but its own. */
  const othersBound = (row: number, own: number): number => {
    const nearest = halfNearest[own] as number;
    let others = Infinity;
    for (let cluster = 0; cluster < k; cluster++) if (cluster !== own && (lower[row * k + cluster] as number) < others) others = lower[row * k + cluster] as number;
    return Math.max(others, nearest);
  };

  while (!converged && iterations < maxIterations) {
    iterations++;
    loadCentroids();
    if (iterations === 1) {
      for (let start = 0; start < n; start += KMEANS_BLOCK_ROWS) {
        const count = Math.min(KMEANS_BLOCK_ROWS, n - start);
        kernel.sqdist(rowsAt + start * rowBytes, count, centroidsAt, k, stride, outAt);
        evaluations += count * k;
        for (let offset = 0; offset < count; offset++) settle(start + offset, out + offset * k);
      }
    } else {
      for (let a = 0; a < k; a++) {
        let nearest = Infinity;
        for (let b = 0; b < k; b++) {
          if (a === b) continue;
          let sum = 0;
          for (let column = 0; column < d; column++) {
            const difference = (centroids[a * d + column] as number) - (centroids[b * d + column] as number);
            sum += difference * difference;
          }
          const half = Math.sqrt(sum) / 2;
          if (half < nearest) nearest = half;
        }
        halfNearest[a] = nearest;
      }
      // 1. Rows whose bounds leave their centroid in doubt (the 1e-9 relative margin covers float64 rounding).
      let pending = 0;
      for (let row = 0; row < n; row++) {
        const bound = othersBound(row, i32[assigned + row] as number);
        const distance = upper[row] as number;
        if (!(distance + RELATIVE * (distance + bound) < bound)) i32[index + pending++] = row;
      }
      // 2. Their distance to their own centroid (batched), which tightens the upper bound; the rows still in doubt
      //    are compacted to the front of the list (written positions were already read).
      let undecided = 0;
      for (let start = 0; start < pending; start += KMEANS_BLOCK_ROWS) {
        const count = Math.min(KMEANS_BLOCK_ROWS, pending - start);
        kernel.sqdistOwn(rowsAt, kernel.idxAt + start * 4, count, centroidsAt, assignAt, stride, outAt);
        evaluations += count;
        for (let offset = 0; offset < count; offset++) {
          const row = i32[index + start + offset] as number;
          const own = i32[assigned + row] as number;
          const root = Math.sqrt(f32[out + offset] as number);
          const distance = (root + slack) * widen;
          upper[row] = distance;
          lower[row * k + own] = (root - slack) * narrow;
          const bound = othersBound(row, own);
          if (!(distance + RELATIVE * (distance + bound) < bound)) i32[index + undecided++] = row;
        }
      }
      // 3. Every centroid for the rows still in doubt (batched).
      for (let start = 0; start < undecided; start += KMEANS_BLOCK_ROWS) {
        const count = Math.min(KMEANS_BLOCK_ROWS, undecided - start);
        kernel.sqdistAt(rowsAt, kernel.idxAt + start * 4, count, centroidsAt, k, stride, outAt);
        evaluations += count * k;
        for (let offset = 0; offset < count; offset++) settle(i32[index + start + offset] as number, out + offset * k);
      }
    }
    // Update: float64 sums in row order, divided once; an empty cluster keeps its centroid (as ml-kmeans does).
    f64.fill(0, sums, sums + k * stride);
    kernel.accumulate(rowsAt, n, stride, assignAt, sumsAt);
    counts.fill(0);
    for (let row = 0; row < n; row++) {
      const cluster = i32[assigned + row] as number;
      counts[cluster] = (counts[cluster] as number) + 1;
    }
    for (let cluster = 0; cluster < k; cluster++) {
      const count = counts[cluster] as number;
      const base = cluster * d;
      for (let column = 0; column < d; column++) {
        next[base + column] = count ? (f64[sums + cluster * stride + column] as number) / count : (centroids[base + column] as number);
      }
    }
    converged = true;
    for (let cluster = 0; cluster < k; cluster++) {
      let sum = 0;
      const base = cluster * d;
      for (let column = 0; column < d; column++) {
        const difference = (next[base + column] as number) - (centroids[base + column] as number);
        sum += difference * difference;
      }
      if (sum > tolerance) converged = false;
      moved[cluster] = Math.sqrt(sum);
    }
    for (let row = 0; row < n; row++) {
      upper[row] = (upper[row] as number) + (moved[i32[assigned + row] as number] as number);
      for (let cluster = 0; cluster < k; cluster++) lower[row * k + cluster] = (lower[row * k + cluster] as number) - (moved[cluster] as number);
    }
    const swap = centroids;
    centroids = next;
    next = swap;
  }
  return { assignments: i32.slice(assigned, assigned + n), centroids, iterations, converged, distanceEvaluations: evaluations, exactResolutions: resolutions };
}
