import { createSeededRandom } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initializeKMeansPlusPlus } from './kmeans-plus-plus.js';
import { packVectors, type VectorMatrix } from './vector-matrix.js';

/** Greedy k-means++ from its definition (float64 distances, every row measured against every candidate). */
function referenceSeeding(matrix: VectorMatrix, k: number, seed: number): number[] {
  const { rows: n, dimensions: d, data } = matrix;
  const distance = (a: number, b: number): number => {
    let sum = 0;
    for (let column = 0; column < d; column++) sum += ((data[a * d + column] as number) - (data[b * d + column] as number)) ** 2;
    return sum;
  };
  const trials = 2 + Math.floor(Math.log(k));
  const random = createSeededRandom(seed);
  const chosen = [Math.min(n - 1, Math.floor(random() * n))];
  let closest = Array.from({ length: n }, (_, row) => distance(row, chosen[0] as number));
  while (chosen.length < Math.min(k, n)) {
    const potential = closest.reduce((sum, value) => sum + value, 0);
    if (!(potential > 0)) break;
    const candidates = Array.from({ length: trials }, () => {
      const target = random() * potential;
      let cumulative = 0;
      let last = -1;
      for (let row = 0; row < n; row++) {
        if ((closest[row] as number) <= 0) continue;
        last = row;
        cumulative += closest[row] as number;
        if (cumulative > target) return row;
      }
      return last;
    });
    let best: number[] = [];
    let bestPotential = Infinity;
    let bestRow = -1;
    for (const candidate of candidates) {
      const next = closest.map((value, row) => Math.min(value, distance(row, candidate)));
      const total = next.reduce((sum, value) => sum + value, 0);
      if (total < bestPotential) {
        bestPotential = total;
        best = next;
        bestRow = candidate;
      }
    }
    chosen.push(bestRow);
    closest = best;
  }
  return chosen;
}

describe('initializeKMeansPlusPlus', () => {
  it('picks the rows greedy k-means++ picks by its definition (property; small integer data, exact in float32)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 2 ** 31 }), (n, dimensions, k, seed) => {
        const random = createSeededRandom(seed);
        // Integers 0..7: every squared distance and potential is exact in float32 and float64 alike, and there are
        // duplicate rows and exact ties.
        const matrix = packVectors(Array.from({ length: n }, () => Float32Array.from({ length: dimensions }, () => Math.floor(random() * 8))));
        const ours = initializeKMeansPlusPlus(matrix, { k, seed });
        expect(ours.rows).toEqual(referenceSeeding(matrix, k, seed));
        expect(ours.count).toBe(ours.rows.length);
        ours.rows.forEach((row, index) => expect(Array.from(ours.centroids.subarray(index * dimensions, (index + 1) * dimensions))).toEqual(Array.from(matrix.data.subarray(row * dimensions, (row + 1) * dimensions))));
      }),
      { numRuns: 200 },
    );
  });

  it('picks the same rows as the definition on well-spread real-valued data (rows far apart: skipping applies)', () => {
    const random = createSeededRandom(3);
    const centres = Array.from({ length: 12 }, () => Float32Array.from({ length: 24 }, () => random() * 20));
    const matrix = packVectors(Array.from({ length: 3000 }, (_, row) => Float32Array.from(centres[row % 12] as Float32Array, (value) => value + random() - 0.5)));
    for (const seed of [1, 2, 3]) expect(initializeKMeansPlusPlus(matrix, { k: 12, seed }).rows).toEqual(referenceSeeding(matrix, 12, seed));
  });
});
