import { createSeededRandom, InvalidArgumentError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addToClusterTree, buildClusterTree, type ClusterTree } from './cluster-tree.js';
import { packVectors, type VectorMatrix } from './vector-matrix.js';

function randomMatrix(seed: number, rows: number, dimensions: number, distinct = rows): VectorMatrix {
  const random = createSeededRandom(seed);
  const pool = Array.from({ length: distinct }, () => Float32Array.from({ length: dimensions }, () => random()));
  return packVectors(Array.from({ length: rows }, (_, row) => pool[row % distinct] as Float32Array));
}

function checkTree(tree: ClusterTree, rows: number, maxLeafSize: number): void {
  const seen = new Array<number>(rows).fill(0);
  for (const leaf of tree.leaves) {
    const node = tree.nodes[leaf];
    expect(node?.children).toEqual([]);
    expect(node?.members?.length).toBeGreaterThan(0); // never an empty leaf
    expect(node?.members?.length).toBeLessThanOrEqual(maxLeafSize);
    for (const row of node?.members ?? []) seen[row]!++;
  }
  expect(seen.every((count) => count === 1)).toBe(true); // a partition of the rows
  for (const node of tree.nodes) {
    if (node.children.length > 0) {
      expect(node.children.length).toBeGreaterThanOrEqual(2);
      expect(node.size).toBe(node.children.reduce((sum, child) => sum + (tree.nodes[child]?.size ?? 0), 0));
      node.children.forEach((child, position) => expect(tree.nodes[child]?.path).toEqual([...node.path, position]));
    }
  }
}

/** Every node's centroid is the float32 of the float64 mean of the rows under it, summed in ascending row order. */
function checkCentroids(tree: ClusterTree, matrix: VectorMatrix): void {
  const under = (id: number): number[] => {
    const node = tree.nodes[id];
    return node?.members ? [...node.members] : (node?.children ?? []).flatMap(under);
  };
  const d = matrix.dimensions;
  for (const node of tree.nodes) {
    const rows = under(node.id).sort((a, b) => a - b);
    const expected = new Float32Array(d);
    for (let column = 0; column < d; column++) {
      let sum = 0;
      for (const row of rows) sum += matrix.data[row * d + column] as number;
      expected[column] = sum / rows.length;
    }
    expect(Array.from(node.centroid)).toEqual(Array.from(expected));
  }
}

describe('buildClusterTree', () => {
  it('splits recursively until every leaf holds at most c documents, deterministically for a seed', () => {
    const matrix = randomMatrix(1, 2500, 16);
    const tree = buildClusterTree(matrix, { k: 10, maxLeafSize: 100, seed: 5 });
    checkTree(tree, 2500, 100);
    checkCentroids(tree, matrix);
    expect(tree.leaves.length).toBeGreaterThanOrEqual(25);
    const again = buildClusterTree(matrix, { k: 10, maxLeafSize: 100, seed: 5 });
    expect(again.nodes.map((node) => node.members ?? null)).toEqual(tree.nodes.map((node) => node.members ?? null));
    // The ml-kmeans engine builds the very same tree (same k-means++ starts, same assignments).
    const reference = buildClusterTree(matrix, { k: 10, maxLeafSize: 100, seed: 5, engine: 'ml-kmeans' });
    expect(reference.nodes.map((node) => node.members ?? null)).toEqual(tree.nodes.map((node) => node.members ?? null));
  });

  it('handles degenerate inputs: fewer rows than k, one row, identical vectors, few distinct vectors', () => {
    checkTree(buildClusterTree(randomMatrix(2, 3, 4), { k: 10, maxLeafSize: 2 }), 3, 2);
    checkTree(buildClusterTree(randomMatrix(2, 1, 4), { k: 10, maxLeafSize: 1 }), 1, 1);
    const identical = buildClusterTree(randomMatrix(3, 350, 8, 1), { k: 10, maxLeafSize: 100 });
    checkTree(identical, 350, 100);
    expect(identical.leaves.length).toBe(4); // cut into chunks of ≤ 100 in row order
    checkTree(buildClusterTree(randomMatrix(4, 500, 8, 3), { k: 10, maxLeafSize: 50 }), 500, 50);
  });

  it('always yields a partition into non-empty leaves of size ≤ c (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 1000 }), (rows, distinct, k, maxLeafSize, seed) => {
        const matrix = randomMatrix(seed, rows, 3, Math.min(rows, distinct));
        const tree = buildClusterTree(matrix, { k, maxLeafSize, seed });
        checkTree(tree, rows, maxLeafSize);
        checkCentroids(tree, matrix);
      }),
      { numRuns: 60 },
    );
  });

  it('reports progress and rejects bad options', () => {
    const progress: number[] = [];
    buildClusterTree(randomMatrix(5, 300, 4), { maxLeafSize: 50, onProgress: ({ completed }) => progress.push(completed) });
    expect(progress.at(-1)).toBe(300);
    expect(() => buildClusterTree(randomMatrix(5, 10, 4), { k: 1 })).toThrow(InvalidArgumentError);
    expect(() => buildClusterTree(randomMatrix(5, 10, 4), { maxLeafSize: 0 })).toThrow(/"maxLeafSize"/);
    expect(() => buildClusterTree({ rows: 0, dimensions: 4, data: new Float32Array(0) })).toThrow(/"matrix"/);
  });
});

describe('addToClusterTree', () => {
  it('puts each new row in the leaf with the nearest centroid and re-splits a leaf that grows past c', () => {
    const base = randomMatrix(6, 400, 6);
    const tree = buildClusterTree(base, { k: 4, maxLeafSize: 60, seed: 1 });
    // New rows: copies of one existing row, so they all go to that row's leaf and overflow it.
    const target = tree.leaves.find((leaf) => (tree.nodes[leaf]?.members?.length ?? 0) > 0) as number;
    const row = tree.nodes[target]?.members?.[0] as number;
    const extra = Array.from({ length: 70 }, () => base.data.slice(row * 6, row * 6 + 6));
    const grown = packVectors([...Array.from({ length: 400 }, (_, index) => base.data.slice(index * 6, index * 6 + 6)), ...extra]);
    const result = addToClusterTree(tree, grown, { fromRow: 400 });
    checkTree(result.tree, 470, 60);
    expect(new Set(result.assignedLeaves)).toEqual(new Set([target]));
    expect(result.splitLeaves).toEqual([target]);
    expect(result.newLeaves.length).toBeGreaterThanOrEqual(2);
    expect(result.tree.nodes[0]?.size).toBe(470);
    // The input tree is unchanged.
    checkTree(tree, 400, 60);
    expect(() => addToClusterTree(tree, grown, { fromRow: 10 })).toThrow(/"fromRow"/);
  });
});
