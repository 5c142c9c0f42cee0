import type { VectorMatrix } from '../clustering/vector-matrix.js';

export interface LloydKernelResult {
  /** Cluster of each row, as assigned in the last iteration (against the centroids it started from, like ml-kmeans). */
  readonly assignments: Int32Array;
  /** `k × dimensions` float64 centroids after the last update. */
  readonly centroids: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
  /** Squared-distance evaluations done (a full Lloyd iteration costs rows × k). */
  readonly distanceEvaluations: number;
}

/**
 * Lloyd's k-means on a row-major float32 matrix with Hamerly's bounds (one upper bound to the own centroid, one lower
 * bound to the second nearest) to skip rows whose assignment cannot change, and partial-distance cut-offs in full
 * scans. It reproduces ml-kmeans step for step: the same float64 squared Euclidean sums in the same order, the first
 * strictly smallest distance wins ties, centroids are summed in row order and divided once, an empty cluster keeps its
 * previous centroid, and it stops when every centroid moved by at most `tolerance` (squared) or after `maxIterations`.
 * A bound skips a row only when it clears the other side by a relative margin of 1e-9 (far above float64 rounding of
 * these sums), so skipped rows are exactly the rows the full scan would leave where they are.
 */
export function runLloydKernel(matrix: VectorMatrix, initial: Float64Array, k: number, maxIterations: number, tolerance: number): LloydKernelResult {
  const { rows: n, dimensions: d, data } = matrix;
  let centroids = Float64Array.from(initial);
  let next = new Float64Array(k * d);
  const assignments = new Int32Array(n);
  const upper = new Float64Array(n);
  const lower = new Float64Array(n);
  const counts = new Float64Array(k);
  const halfGap = new Float64Array(k);
  const moved = new Float64Array(k);
  const RELATIVE = 1e-9;
  let evaluations = 0;
  let iterations = 0;
  let converged = false;

  const fullScan = (row: number): void => {
    let best = Infinity;
    let second = Infinity;
    let bestIndex = 0;
    for (let centroid = 0; centroid < k; centroid++) {
      const distance = squaredDistanceCut(data, row * d, centroids, centroid * d, d, second);
      evaluations++;
      if (distance < best) {
        second = best;
        best = distance;
        bestIndex = centroid;
      } else if (distance < second) {
        second = distance;
      }
    }
    assignments[row] = bestIndex;
    upper[row] = Math.sqrt(best);
    lower[row] = Math.sqrt(second);
  };

  while (!converged && iterations < maxIterations) {
    iterations++;
    if (iterations === 1 || k === 1) {
      for (let row = 0; row < n; row++) fullScan(row);
    } else {
      // Half the distance from each centroid to its nearest other centroid.
      for (let a = 0; a < k; a++) {
        let nearest = Infinity;
        for (let b = 0; b < k; b++) {
          if (a === b) continue;
          let sum = 0;
          for (let column = 0; column < d; column++) {
            const difference = (centroids[a * d + column] as number) - (centroids[b * d + column] as number);
            sum += difference * difference;
          }
          if (sum < nearest) nearest = sum;
        }
        halfGap[a] = Math.sqrt(nearest) / 2;
      }
      for (let row = 0; row < n; row++) {
        const own = assignments[row] as number;
        const bound = Math.max(halfGap[own] as number, lower[row] as number);
        let distance = upper[row] as number;
        if (distance + RELATIVE * (distance + bound) < bound) continue;
        distance = Math.sqrt(squaredDistanceCut(data, row * d, centroids, own * d, d, Infinity));
        evaluations++;
        upper[row] = distance;
        if (distance + RELATIVE * (distance + bound) < bound) continue;
        fullScan(row);
      }
    }
    // Update: sums in row order, divided once; an empty cluster keeps its centroid (as ml-kmeans does).
    next.fill(0);
    counts.fill(0);
    for (let row = 0; row < n; row++) {
      const cluster = assignments[row] as number;
      counts[cluster] = (counts[cluster] as number) + 1;
      const base = cluster * d;
      const offset = row * d;
      for (let column = 0; column < d; column++) next[base + column] = (next[base + column] as number) + (data[offset + column] as number);
    }
    for (let cluster = 0; cluster < k; cluster++) {
      const count = counts[cluster] as number;
      const base = cluster * d;
      for (let column = 0; column < d; column++) {
        next[base + column] = count ? (next[base + column] as number) / count : (centroids[base + column] as number);
      }
    }
    converged = true;
    let largest = 0;
    let largestIndex = -1;
    let secondLargest = 0;
    for (let cluster = 0; cluster < k; cluster++) {
      let sum = 0;
      const base = cluster * d;
      for (let column = 0; column < d; column++) {
        const difference = (next[base + column] as number) - (centroids[base + column] as number);
        sum += difference * difference;
      }
      if (sum > tolerance) converged = false;
      const shift = Math.sqrt(sum);
      moved[cluster] = shift;
      if (shift > largest) {
        secondLargest = largest;
        largest = shift;
        largestIndex = cluster;
      } else if (shift > secondLargest) {
        secondLargest = shift;
      }
    }
    for (let row = 0; row < n; row++) {
      const own = assignments[row] as number;
      upper[row] = (upper[row] as number) + (moved[own] as number);
      lower[row] = (lower[row] as number) - (own === largestIndex ? secondLargest : largest);
    }
    const swap = centroids;
    centroids = next;
    next = swap;
  }
  return { assignments, centroids, iterations, converged, distanceEvaluations: evaluations };
}

/**
 * Squared Euclidean distance summed left to right in float64 (ml-distance-euclidean's order). Checked every 32
 * columns: a partial sum of squares never decreases, so once it reaches `cutoff` the full sum would too, and the
 * comparison it feeds (strictly smaller) is already decided; the partial sum is returned then.
 */
function squaredDistanceCut(data: Float32Array, offset: number, centroids: Float64Array, base: number, d: number, cutoff: number): number {
  let sum = 0;
  for (let start = 0; start < d; start += 32) {
    const end = start + 32 < d ? start + 32 : d;
    for (let column = start; column < end; column++) {
      const difference = (data[offset + column] as number) - (centroids[base + column] as number);
      sum += difference * difference;
    }
    if (sum >= cutoff) return sum;
  }
  return sum;
}
