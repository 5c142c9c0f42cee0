import { createSeededRandom } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleKMeansKernel } from '../../../scripts/assemble-kmeans-kernel.js';
import { runLloydKernel } from '../../internal/lloyd-kernel.js';
import { computeKMeans, computeKMeansOnRows } from '../compute-kmeans.js';
import { packVectors, selectRows, type VectorMatrix } from '../vector-matrix.js';
import { KMEANS_KERNEL_WASM_BASE64 } from './kmeans-kernel-wasm.js';
import { getKMeansKernelModule, type KMeansWorkspace, kernelInertia, loadKMeansKernel } from './load-kmeans-kernel.js';

/**
 * Plain Lloyd, written from the definition: float64 squared distances summed left to right, the first strictly nearest
 * centroid wins, centroids are row-order means (an empty cluster keeps its centroid), stop when every centroid moved by
 * at most `tolerance` (squared) or after `maxIterations`. Assignments are those of the last iteration.
 */
function referenceLloyd(matrix: VectorMatrix, start: Float64Array, k: number, maxIterations: number, tolerance: number) {
  const { rows: n, dimensions: d, data } = matrix;
  let centroids = Float64Array.from(start);
  const assignments = new Int32Array(n);
  let iterations = 0;
  let converged = false;
  while (!converged && iterations < maxIterations) {
    iterations++;
    for (let row = 0; row < n; row++) {
      let best = Infinity;
      for (let cluster = 0; cluster < k; cluster++) {
        let sum = 0;
        for (let column = 0; column < d; column++) sum += ((data[row * d + column] as number) - (centroids[cluster * d + column] as number)) ** 2;
        if (sum < best) {
          best = sum;
          assignments[row] = cluster;
        }
      }
    }
    const next = new Float64Array(k * d);
    const counts = new Array<number>(k).fill(0);
    for (let row = 0; row < n; row++) {
      const cluster = assignments[row] as number;
      counts[cluster] = (counts[cluster] as number) + 1;
      for (let column = 0; column < d; column++) next[cluster * d + column] = (next[cluster * d + column] as number) + (data[row * d + column] as number);
    }
    converged = true;
    for (let cluster = 0; cluster < k; cluster++) {
      let moved = 0;
      for (let column = 0; column < d; column++) {
        const index = cluster * d + column;
        next[index] = counts[cluster] ? (next[index] as number) / (counts[cluster] as number) : (centroids[index] as number);
        moved += ((next[index] as number) - (centroids[index] as number)) ** 2;
      }
      if (moved > tolerance) converged = false;
    }
    centroids = next;
  }
  let inertia = 0;
  for (let row = 0; row < n; row++) {
    for (let column = 0; column < d; column++) inertia += ((data[row * d + column] as number) - (centroids[(assignments[row] as number) * d + column] as number)) ** 2;
  }
  return { assignments, centroids, iterations, converged, inertia };
}

function randomMatrix(seed: number, rows: number, dimensions: number, coarse: boolean): VectorMatrix {
  const random = createSeededRandom(seed);
  return packVectors(Array.from({ length: rows }, () => Float32Array.from({ length: dimensions }, () => (coarse ? Math.floor(random() * 4) : random() * 2 - 1))));
}

describe('k-means kernel', () => {
  it('the embedded bytes are exactly what kmeans-kernel.wat assembles to, and they compile here', async () => {
    const assembled = await assembleKMeansKernel();
    expect(Buffer.from(KMEANS_KERNEL_WASM_BASE64, 'base64').equals(Buffer.from(assembled))).toBe(true);
    expect(getKMeansKernelModule()).not.toBeNull();
    expect(loadKMeansKernel(randomMatrix(1, 3, 5, false), 2).kind).toBe('wasm-simd');
  });

  it('the WebAssembly routines agree with their JavaScript fallback, rows padded to a multiple of four', () => {
    for (const dimensions of [1, 7, 21, 64]) {
      const matrix = randomMatrix(dimensions, 37, dimensions, false);
      const wasm = loadKMeansKernel(matrix, 5, { prefer: 'wasm' });
      const js = loadKMeansKernel(matrix, 5, { prefer: 'js' });
      expect(wasm.kind).toBe('wasm-simd');
      expect(js.kind).toBe('js');
      for (const kernel of [wasm, js]) {
        for (let cluster = 0; cluster < 5; cluster++) kernel.f32.set(matrix.data.subarray(cluster * 7 * dimensions, (cluster * 7 + 1) * dimensions), kernel.centroidsAt / 4 + cluster * kernel.stride);
        kernel.sqdist(kernel.rowsAt, 37, kernel.centroidsAt, 5, kernel.stride, kernel.outAt);
      }
      const distances = (kernel: typeof wasm, count: number) => Array.from(kernel.f32.subarray(kernel.outAt / 4, kernel.outAt / 4 + count));
      const expected = distances(js, 37 * 5);
      distances(wasm, 37 * 5).forEach((value, index) => expect(value).toBeCloseTo(expected[index] as number, 5));
      // Row 7 is centroid 1: distance exactly 0 on both paths.
      expect(wasm.f32[wasm.outAt / 4 + 7 * 5 + 1]).toBe(0);
      // Indexed and own-centroid variants read the rows named in idx.
      for (const kernel of [wasm, js]) {
        kernel.i32.set([36, 0, 7], kernel.idxAt / 4);
        kernel.i32.set(
          Array.from({ length: 37 }, (_, row) => row % 5),
          kernel.assignAt / 4,
        );
      }
      for (const kernel of [wasm, js]) kernel.sqdistAt(kernel.rowsAt, kernel.idxAt, 3, kernel.centroidsAt, 5, kernel.stride, kernel.outAt);
      const at = distances(js, 15);
      distances(wasm, 15).forEach((value, index) => expect(value).toBeCloseTo(at[index] as number, 5));
      expect(at.slice(0, 5)).toEqual(expected.slice(36 * 5, 37 * 5));
      for (const kernel of [wasm, js]) kernel.sqdistOwn(kernel.rowsAt, kernel.idxAt, 3, kernel.centroidsAt, kernel.assignAt, kernel.stride, kernel.outAt);
      expect(distances(js, 3)).toEqual([expected[36 * 5 + 1], expected[0], expected[7 * 5 + 2]]);
      distances(wasm, 3).forEach((value, index) => expect(value).toBeCloseTo(distances(js, 3)[index] as number, 5));
      // Float64 sums per cluster in row order: exact on both paths.
      for (const kernel of [wasm, js]) {
        kernel.f64.fill(0, kernel.sumsAt / 8, kernel.sumsAt / 8 + 5 * kernel.stride);
        kernel.accumulate(kernel.rowsAt, 37, kernel.stride, kernel.assignAt, kernel.sumsAt);
      }
      const sums = (kernel: typeof wasm) => Array.from(kernel.f64.subarray(kernel.sumsAt / 8, kernel.sumsAt / 8 + 5 * kernel.stride));
      expect(sums(wasm)).toEqual(sums(js));
      let column0 = 0;
      for (let row = 0; row < 37; row += 5) column0 += matrix.data[row * dimensions] as number;
      expect(sums(js)[0]).toBe(column0);
      // Inertia against float64 centroids.
      const centroids = Float64Array.from({ length: 5 * dimensions }, (_, index) => Math.sin(index));
      const assignments = Array.from({ length: 37 }, (_, row) => (row * 3) % 5);
      let inertia = 0;
      for (let row = 0; row < 37; row++) for (let column = 0; column < dimensions; column++) inertia += ((matrix.data[row * dimensions + column] as number) - (centroids[(assignments[row] as number) * dimensions + column] as number)) ** 2;
      expect(kernelInertia(wasm, assignments, centroids)).toBeCloseTo(inertia, 9);
      expect(kernelInertia(js, assignments, centroids)).toBeCloseTo(inertia, 9);
    }
  });

  it('a hand-checked run: 0, 1, 2, 10 from centres 0 and 1 ends at means 1 and 10 after 3 iterations, inertia 2', () => {
    const matrix = packVectors([[0], [1], [2], [10]]);
    const result = computeKMeans(matrix, { k: 2, initialCentroids: Float64Array.of(0, 1) });
    // 1: {0} {1,2,10} → 0, 13/3; 2: {0,1,2} {10} → 1, 10; 3: no change, converged.
    expect(Array.from(result.assignments)).toEqual([0, 0, 0, 1]);
    expect(Array.from(result.centroids)).toEqual([1, 10]);
    expect(result.iterations).toBe(3);
    expect(result.converged).toBe(true);
    expect(result.inertia).toBe(2);
    expect(result.sizes).toEqual([3, 1]);
  });

  it('an exact tie goes to the first centroid, as the float64 reference does (settled in float64, not float32)', () => {
    // The row 1 sits midway between the centres 0 and 2.
    for (const [start, expected] of [
      [Float64Array.of(0, 2), 0],
      [Float64Array.of(2, 0), 0],
    ] as const) {
      const matrix = packVectors([[1]]);
      const kernel = loadKMeansKernel(matrix, 2);
      const result = runLloydKernel(kernel, start, 2, 1, 0);
      expect(result.assignments[0]).toBe(expected);
      expect(result.exactResolutions).toBe(1);
    }
    // Two centroids 1e-9 apart (identical in float32): the float64-nearer one wins, as in the reference.
    const matrix = packVectors([[0.25], [0.75]]);
    for (const start of [Float64Array.of(0.5 + 1e-9, 0.5), Float64Array.of(0.5, 0.5 + 1e-9)]) {
      const ours = runLloydKernel(loadKMeansKernel(matrix, 2), start, 2, 1, 0);
      const reference = referenceLloyd(matrix, start, 2, 1, 0);
      expect(Array.from(ours.assignments)).toEqual(Array.from(reference.assignments));
      expect(new Set(ours.assignments).size).toBe(2);
    }
  });

  it('gives the plain reference Lloyd’s assignments, centroids, iterations and inertia from the same starts, on both paths (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 13 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.boolean(),
        fc.constantFrom('wasm' as const, 'js' as const),
        (n, dimensions, k, seed, coarse, prefer) => {
          // Coarse values (integers 0..3) make exact ties and duplicate rows.
          const matrix = randomMatrix(seed, n, dimensions, coarse);
          const random = createSeededRandom(seed + 1);
          const start = new Float64Array(k * dimensions);
          for (let cluster = 0; cluster < k; cluster++) {
            const row = Math.floor(random() * n); // possibly the same row twice: duplicate starts leave clusters empty
            start.set(matrix.data.subarray(row * dimensions, (row + 1) * dimensions), cluster * dimensions);
          }
          const reference = referenceLloyd(matrix, start, k, 50, 1e-6);
          const kernel = loadKMeansKernel(matrix, k, { prefer });
          const ours = runLloydKernel(kernel, start, k, 50, 1e-6);
          expect(Array.from(ours.assignments)).toEqual(Array.from(reference.assignments));
          expect(Array.from(ours.centroids)).toEqual(Array.from(reference.centroids));
          expect(ours.iterations).toBe(reference.iterations);
          expect(ours.converged).toBe(reference.converged);
          const inertia = kernelInertia(kernel, ours.assignments, ours.centroids);
          expect(Math.abs(inertia - reference.inertia)).toBeLessThanOrEqual(1e-9 * Math.max(1, reference.inertia));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a reused workspace (stale memory, other widths and padding) gives what fresh memory gives on the selected rows', () => {
    for (const prefer of ['auto', 'js'] as const) {
      const workspace: KMeansWorkspace = {};
      const wide = randomMatrix(5, 200, 9, false);
      const narrow = randomMatrix(6, 120, 6, false);
      const rows = Array.from({ length: 60 }, (_, index) => (index * 7) % 120);
      for (const [matrix, selected] of [
        [wide, Array.from({ length: 200 }, (_, row) => row)],
        [narrow, rows],
        [wide, rows],
      ] as const) {
        const reused = computeKMeansOnRows(matrix, { k: 4, seed: 3 }, { rows: selected, workspace });
        const fresh = computeKMeans(selectRows(matrix, selected), { k: 4, seed: 3 });
        expect(Array.from(reused.assignments)).toEqual(Array.from(fresh.assignments));
        expect(Array.from(reused.centroids)).toEqual(Array.from(fresh.centroids));
        expect(reused.inertia).toBe(fresh.inertia);
      }
      expect(prefer === 'js' || workspace.memory !== undefined).toBe(true);
    }
  });

  it('falls back to the JavaScript routines when kernel memory cannot grow, unless WebAssembly was required', () => {
    const matrix = randomMatrix(9, 200, 100, false); // 80 kB of rows: more than one 64 kB page
    const capped = (): KMeansWorkspace => ({ memory: new WebAssembly.Memory({ initial: 1, maximum: 1 }) });
    const kernel = loadKMeansKernel(matrix, 3, { workspace: capped() });
    expect(kernel.kind).toBe('js');
    expect(() => loadKMeansKernel(matrix, 3, { workspace: capped(), prefer: 'wasm' })).toThrow(RangeError);
    const reused = computeKMeansOnRows(matrix, { k: 3, seed: 1 }, { workspace: capped() });
    expect(Array.from(reused.assignments)).toEqual(Array.from(computeKMeans(matrix, { k: 3, seed: 1 }).assignments));
  });
});
