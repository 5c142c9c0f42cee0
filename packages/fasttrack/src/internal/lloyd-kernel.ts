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
 * and Elkan's bounds (an upper bound to the own centroid, a lower bound to every centroid, half the distances between
 * centroids) to skip rows, and centroids, that cannot change a row's assignment. Each iteration after the first:
 * (1) rows whose bounds leave their centroid in doubt, (2) their own-centroid distance in one batch, which tightens the
 * upper bound, (3) for rows still in doubt, the centroids the bounds cannot rule out, as (row, centroid) pairs in
 * batches. It reproduces ml-kmeans step for step, as the float64 kernel before it did:
 * - a float32 distance is within a proven bound of the float64 one (relative `(d/8 + 16)·2⁻²⁴`, at least twice the
 *   summation error of the kernel's sixteen partial sums, plus `2⁻²³·max‖c‖` for rounding the centroids to float32);
 *   a row goes to the nearest float32 centroid only when no other centroid can be as near within those bounds, else
 *   the few candidates are compared by ml-kmeans' own float64 sums (left to right), the first strictly smallest wins;
 * - the bounds are float32 distances widened by the same error bound, so a skipped row or centroid is one that cannot
 *   be the float64 nearest (with a 1e-9 relative margin for float64 rounding, as before);
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
  const pairs = kernel.pairsAt / 4;
  const roots = new Float64Array(k);
  /** Half the distance between each pair of centroids, `k × k`. */
  const halfGap = new Float64Array(k * k);
  /** Per row being settled: which centroids have a float32 squared distance (`measured`) and its value (`squared`). */
  const measured = new Uint8Array(k);
  const squared = new Float64Array(k);
  /** Float32 squared distance of each row to its own centroid, from step 2 of an iteration. */
  const ownSquared = new Float64Array(n);
  /** Per row of a step-3 block: how many pairs it has. */
  const pairCounts = new Int32Array(KMEANS_BLOCK_ROWS);
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

  /**
   * Assigns `row` among the centroids with a float32 squared distance in `squared` (those marked in `measured`; every
   * other centroid is provably farther) and records their lower bounds and the row's upper bound.
   */
  const settle = (row: number): void => {
    let nearest = 0;
    let nearestDistance = Infinity;
    for (let cluster = 0; cluster < k; cluster++) {
      if (!measured[cluster]) continue;
      const distance = Math.sqrt(squared[cluster] as number);
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
      if (!measured[cluster]) continue;
      const bound = ((roots[cluster] as number) - slack) * narrow;
      lower[row * k + cluster] = bound;
      if (bound <= reach) candidates++;
    }
    if (candidates > 1) {
      resolutions++;
      let best = Infinity;
      for (let cluster = 0; cluster < k; cluster++) {
        if (!measured[cluster] || (lower[row * k + cluster] as number) > reach) continue;
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
    return others > nearest ? others : nearest;
  };

  while (!converged && iterations < maxIterations) {
    iterations++;
    loadCentroids();
    if (iterations === 1) {
      for (let start = 0; start < n; start += KMEANS_BLOCK_ROWS) {
        const count = Math.min(KMEANS_BLOCK_ROWS, n - start);
        kernel.sqdist(rowsAt + start * rowBytes, count, centroidsAt, k, stride, outAt);
        evaluations += count * k;
        measured.fill(1);
        for (let offset = 0; offset < count; offset++) {
          for (let cluster = 0; cluster < k; cluster++) squared[cluster] = f32[out + offset * k + cluster] as number;
          settle(start + offset);
        }
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
          halfGap[a * k + b] = half;
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
          ownSquared[row] = f32[out + offset] as number;
          const root = Math.sqrt(ownSquared[row] as number);
          const distance = (root + slack) * widen;
          upper[row] = distance;
          lower[row * k + own] = (root - slack) * narrow;
          const bound = othersBound(row, own);
          if (!(distance + RELATIVE * (distance + bound) < bound)) i32[index + undecided++] = row;
        }
      }
      // 3. For the rows still in doubt, the centroids that Elkan's bounds (own lower bound, half the distance between
      //    the two centroids) cannot rule out, as (row, centroid) pairs in batches; then each row is settled.
      let first = 0;
      let rowsInBlock = 0;
      let pairsInBlock = 0;
      const flush = (): void => {
        kernel.sqdistPairs(rowsAt, kernel.pairsAt, pairsInBlock, centroidsAt, stride, outAt);
        evaluations += pairsInBlock;
        for (let member = 0, pair = 0; member < rowsInBlock; member++) {
          const row = i32[index + first + member] as number;
          const own = i32[assigned + row] as number;
          measured.fill(0);
          measured[own] = 1;
          squared[own] = ownSquared[row] as number;
          for (let end = pair + (pairCounts[member] as number); pair < end; pair++) {
            const cluster = i32[pairs + 2 * pair + 1] as number;
            measured[cluster] = 1;
            squared[cluster] = f32[out + pair] as number;
          }
          settle(row);
        }
        first += rowsInBlock;
        rowsInBlock = 0;
        pairsInBlock = 0;
      };
      for (let position = 0; position < undecided; position++) {
        if (rowsInBlock === KMEANS_BLOCK_ROWS || pairsInBlock + k > KMEANS_BLOCK_ROWS * k) flush();
        const row = i32[index + position] as number;
        const own = i32[assigned + row] as number;
        const distance = upper[row] as number;
        let count = 0;
        for (let cluster = 0; cluster < k; cluster++) {
          if (cluster === own) continue;
          const bound = Math.max(lower[row * k + cluster] as number, halfGap[own * k + cluster] as number);
          if (distance + RELATIVE * (distance + bound) < bound) continue;
          i32[pairs + 2 * pairsInBlock] = row;
          i32[pairs + 2 * pairsInBlock + 1] = cluster;
          pairsInBlock++;
          count++;
        }
        pairCounts[rowsInBlock++] = count;
      }
      if (rowsInBlock > 0) flush();
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
