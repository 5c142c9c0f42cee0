import { createSeededRandom, InvalidArgumentError } from '@factkit/core';
import fc from 'fast-check';
import { kmeans as mlKMeans } from 'ml-kmeans';
import { describe, expect, it } from 'vitest';
import { computeInertia, computeKMeans } from './compute-kmeans.js';
import { initializeKMeansPlusPlus } from './kmeans-plus-plus.js';
import { packVectors, type VectorMatrix } from './vector-matrix.js';

/** Gaussian-ish blobs: `clusters` centres in `dimensions` dims, `perCluster` noisy points each (seeded). */
function blobs(seed: number, clusters: number, perCluster: number, dimensions: number, spread = 0.3): VectorMatrix {
  const random = createSeededRandom(seed);
  const centres = Array.from({ length: clusters }, () => Array.from({ length: dimensions }, () => random() * 4 - 2));
  const vectors: Float32Array[] = [];
  for (let index = 0; index < clusters * perCluster; index++) {
    const centre = centres[index % clusters] as number[];
    vectors.push(Float32Array.from(centre, (value) => value + (random() + random() + random() - 1.5) * spread));
  }
  return packVectors(vectors);
}

function toRows(matrix: VectorMatrix): number[][] {
  return Array.from({ length: matrix.rows }, (_, row) => Array.from(matrix.data.subarray(row * matrix.dimensions, (row + 1) * matrix.dimensions)));
}

describe('computeKMeans', () => {
  it('gives the same assignments and centroids as ml-kmeans itself from the same initial centroids', () => {
    for (const [seed, clusters, perCluster, dimensions, k, spread] of [
      [1, 5, 40, 8, 5, 0.3],
      [2, 12, 30, 32, 10, 1.5], // overlapping blobs: many reassignments over many iterations
      [3, 3, 200, 384, 10, 2.5], // k larger than the true number of blobs
      [4, 20, 25, 64, 10, 4], // heavy overlap
    ] as const) {
      const matrix = blobs(seed, clusters, perCluster, dimensions, spread);
      const { centroids: start, count } = initializeKMeansPlusPlus(matrix, { k, seed });
      const initialization = Array.from({ length: count }, (_, cluster) => Array.from(start.subarray(cluster * dimensions, (cluster + 1) * dimensions)));
      const reference = mlKMeans(toRows(matrix), count, { initialization: initialization.map((row) => [...row]) });
      const ours = computeKMeans(matrix, { k: count, initialCentroids: start });
      expect(Array.from(ours.assignments)).toEqual(reference.clusters);
      expect(ours.iterations).toBe(reference.iterations);
      expect(ours.converged).toBe(reference.converged);
      reference.centroids.forEach((centroid, cluster) => expect(Array.from(ours.centroids.subarray(cluster * dimensions, (cluster + 1) * dimensions))).toEqual(centroid));
      // The 'ml-kmeans' engine of computeKMeans is the same computation.
      const viaEngine = computeKMeans(matrix, { k: count, initialCentroids: start, engine: 'ml-kmeans' });
      expect(Array.from(viaEngine.assignments)).toEqual(Array.from(ours.assignments));
      expect(viaEngine.inertia).toBe(ours.inertia);
    }
  });

  it('matches ml-kmeans on random small inputs, including ties and duplicates (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (n, dimensions, k, seed, coarse) => {
        const random = createSeededRandom(seed);
        // Coarse values (0..3 integers) produce exact ties and duplicate rows.
        const vectors = Array.from({ length: n }, () => Float32Array.from({ length: dimensions }, () => (coarse ? Math.floor(random() * 4) : random())));
        const matrix = packVectors(vectors);
        const kk = Math.min(k, n);
        // Random (possibly duplicate) starting rows, as a user could pass.
        const start = new Float64Array(kk * dimensions);
        for (let cluster = 0; cluster < kk; cluster++) start.set(vectors[Math.floor(random() * n)] as Float32Array, cluster * dimensions);
        const initialization = Array.from({ length: kk }, (_, cluster) => Array.from(start.subarray(cluster * dimensions, (cluster + 1) * dimensions)));
        const reference = mlKMeans(toRows(matrix), kk, { initialization });
        const ours = computeKMeans(matrix, { k: kk, initialCentroids: start });
        expect(Array.from(ours.assignments)).toEqual(reference.clusters);
      }),
      { numRuns: 300 },
    );
  });

  it('is seeded: the same seed gives the same clustering, and k-means++ separates clear blobs', () => {
    const matrix = blobs(7, 4, 50, 16, 0.05);
    const first = computeKMeans(matrix, { k: 4, seed: 11 });
    const second = computeKMeans(matrix, { k: 4, seed: 11 });
    expect(Array.from(first.assignments)).toEqual(Array.from(second.assignments));
    // Rows i and i+4 come from the same blob; every blob lands in one cluster.
    for (let row = 4; row < matrix.rows; row++) expect(first.assignments[row]).toBe(first.assignments[row - 4]);
    expect(new Set(first.assignments).size).toBe(4);
    expect(first.sizes).toEqual([50, 50, 50, 50]);
  });

  it('uses fewer clusters than k when there are fewer distinct rows, and never leaves one empty', () => {
    const same = packVectors(Array.from({ length: 30 }, () => Float32Array.of(1, 2, 3)));
    const single = computeKMeans(same, { k: 10 });
    expect(single.k).toBe(1);
    expect(single.sizes).toEqual([30]);
    const two = packVectors(Array.from({ length: 30 }, (_, row) => Float32Array.of(row % 2, 0)));
    const result = computeKMeans(two, { k: 10, seed: 3 });
    expect(result.k).toBe(2);
    expect(result.sizes.every((size) => size > 0)).toBe(true);
    const tiny = packVectors([Float32Array.of(0), Float32Array.of(1), Float32Array.of(5)]);
    expect(computeKMeans(tiny, { k: 10 }).k).toBe(3);
  });

  it('rejects bad arguments with InvalidArgumentError naming them', () => {
    const matrix = blobs(1, 2, 5, 2);
    expect(() => computeKMeans(matrix, { k: 0 })).toThrow(/"k"/);
    expect(() => computeKMeans(matrix, { k: 2, maxIterations: 0 })).toThrow(/"maxIterations"/);
    expect(() => computeKMeans(matrix, { k: 2, initialCentroids: new Float64Array(3) })).toThrow(/"initialCentroids"/);
    expect(() => computeKMeans({ rows: 0, dimensions: 2, data: new Float32Array(0) }, { k: 2 })).toThrow(/"matrix"/);
    try {
      computeKMeans(matrix, { k: 1.5 });
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
    }
    expect(() => computeInertia(matrix, [0, 1], new Float64Array(4))).toThrow(/"assignments"/);
    expect(() => computeInertia(matrix, new Array(matrix.rows).fill(2), new Float64Array(4))).toThrow(/"assignments\[0\]"/);
    expect(() => computeInertia(matrix, new Array(matrix.rows).fill(0), new Float64Array(3))).toThrow(/"centroids"/);
    // Hand-checked: rows (0,0) and (3,4) around the centroid (0,0) → 0 + 25.
    expect(computeInertia(packVectors([Float32Array.of(0, 0), Float32Array.of(3, 4)]), [0, 0], Float64Array.of(0, 0))).toBe(25);
    expect(() => packVectors([Float32Array.of(1, 2), Float32Array.of(1)])).toThrow(/vectors\[1\]/);
    expect(() => packVectors([Float32Array.of(1, Number.NaN)])).toThrow(/finite/);
  });
});
