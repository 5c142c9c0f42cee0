import { assertPositiveInteger, InvalidArgumentError, throwIfAborted, type ProgressCallback } from '@factkit/core';
import { computeKMeansOnRows, type KMeansEngine } from './compute-kmeans.js';
import type { KMeansWorkspace } from './kernel/load-kmeans-kernel.js';
import type { VectorMatrix } from './vector-matrix.js';

/** One node of the semantic tree. Leaves hold document rows; inner nodes hold children. */
export interface ClusterNode {
  /** Position in `ClusterTree.nodes`. */
  readonly id: number;
  /** Parent node id, -1 for the root. */
  readonly parent: number;
  /** Child positions from the root (the root's path is `[]`), e.g. `[3, 7]` = 8th child of the 4th child. */
  readonly path: readonly number[];
  readonly children: readonly number[];
  /** Documents under this node. */
  readonly size: number;
  /** Mean of the member embeddings. */
  readonly centroid: Float32Array;
  /** Leaf only: document rows (indices into the corpus), ascending. */
  readonly members?: readonly number[];
}

export interface ClusterTree {
  /** Branching factor of each k-means split. */
  readonly k: number;
  /** Largest leaf (the paper's c). */
  readonly maxLeafSize: number;
  readonly seed: number;
  readonly nodes: readonly ClusterNode[];
  /** Ids of the leaves, in depth-first order. */
  readonly leaves: readonly number[];
}

export interface BuildClusterTreeOptions {
  /** Clusters per k-means split. @default 10 */
  readonly k?: number;
  /** Split every cluster larger than this (the paper's c). @default 100 */
  readonly maxLeafSize?: number;
  /** Base seed; each split derives its own from it and the node id. @default 0 */
  readonly seed?: number;
  /** @default 'lloyd' */
  readonly engine?: KMeansEngine;
  /** @default 100 */
  readonly maxIterations?: number;
  /** @default 1e-6 */
  readonly tolerance?: number;
  /** Core `Progress` over documents, `stage` 'cluster': `completed` counts the documents settled into a leaf so far. */
  readonly onProgress?: ProgressCallback<'cluster'>;
  /** Checked between splits. */
  readonly abortSignal?: AbortSignal;
}

interface MutableNode {
  id: number;
  parent: number;
  path: number[];
  children: number[];
  size: number;
  centroid: Float32Array;
  members?: number[];
}

/** Seed of one split: the base seed mixed with the node id (golden-ratio increment), so results do not depend on order. */
export function splitSeed(seed: number, nodeId: number): number {
  return (seed + Math.imul(nodeId + 1, 0x9e3779b1)) >>> 0;
}

function meanOf(matrix: VectorMatrix, rows: readonly number[]): Float32Array {
  const d = matrix.dimensions;
  const sum = new Float64Array(d);
  for (const row of rows) for (let column = 0; column < d; column++) sum[column] = (sum[column] as number) + (matrix.data[row * d + column] as number);
  const mean = new Float32Array(d);
  for (let column = 0; column < d; column++) mean[column] = rows.length ? (sum[column] as number) / rows.length : 0;
  return mean;
}

/**
 * Splits `members` (rows of `matrix`) into groups: k-means with k' = min(k, |members|); empty clusters are dropped; when
 * k-means cannot separate the rows (they are all identical) they are cut, in row order, into chunks of ≤ maxLeafSize.
 */
function splitMembers(
  matrix: VectorMatrix,
  members: readonly number[],
  options: Required<Pick<BuildClusterTreeOptions, 'k' | 'maxLeafSize' | 'engine' | 'maxIterations' | 'tolerance'>>,
  seed: number,
  workspace: KMeansWorkspace,
): { groups: number[][]; centroids: (Float32Array | undefined)[] } {
  const result = computeKMeansOnRows(matrix, { k: Math.min(options.k, members.length), seed, engine: options.engine, maxIterations: options.maxIterations, tolerance: options.tolerance }, { rows: members, workspace });
  const groups: number[][] = Array.from({ length: result.k }, () => []);
  members.forEach((row, position) => (groups[result.assignments[position] as number] as number[]).push(row));
  const clusters = groups.flatMap((group, cluster) => (group.length > 0 ? [cluster] : []));
  if (clusters.length >= 2) {
    // A k-means centroid is the float64 mean of its rows summed in member order; with ascending members that is the
    // order meanOf sums in, so it is the node's centroid exactly (no second pass over the rows).
    let ascending = true;
    for (let index = 1; index < members.length && ascending; index++) ascending = (members[index - 1] as number) < (members[index] as number);
    const d = matrix.dimensions;
    return {
      groups: clusters.map((cluster) => groups[cluster] as number[]),
      centroids: clusters.map((cluster) => (ascending ? Float32Array.from(result.centroids.subarray(cluster * d, (cluster + 1) * d)) : undefined)),
    };
  }
  const chunks: number[][] = [];
  for (let start = 0; start < members.length; start += options.maxLeafSize) chunks.push(members.slice(start, start + options.maxLeafSize));
  return { groups: chunks, centroids: chunks.map(() => undefined) };
}

/**
 * The paper's offline stage 1: recursive k-means (k = 10) until every cluster holds at most c = 100 documents.
 * Deterministic for a seed. Never yields an empty node; identical embeddings that k-means cannot separate are cut
 * into chunks of ≤ c in corpus order (documented fallback).
 * @throws InvalidArgumentError for an empty matrix, `k` < 2, or `maxLeafSize` < 1.
 */
export function buildClusterTree(matrix: VectorMatrix, options: BuildClusterTreeOptions = {}): ClusterTree {
  const { k = 10, maxLeafSize = 100, seed = 0, engine = 'lloyd', maxIterations = 100, tolerance = 1e-6, onProgress, abortSignal } = options;
  const where = 'buildClusterTree';
  if (!Number.isInteger(k) || k < 2) throw new InvalidArgumentError({ where, argument: 'k', message: `must be an integer >= 2 (got ${String(k)})` });
  assertPositiveInteger('maxLeafSize', maxLeafSize, where);
  if (matrix.rows === 0) throw new InvalidArgumentError({ where, argument: 'matrix', message: 'must have at least one row' });
  const nodes: MutableNode[] = [];
  const all = Array.from({ length: matrix.rows }, (_, row) => row);
  nodes.push({ id: 0, parent: -1, path: [], children: [], size: all.length, centroid: meanOf(matrix, all), members: all });
  const state = { done: 0 };
  splitDownward(matrix, nodes, 0, { k, maxLeafSize, engine, maxIterations, tolerance }, seed, state, onProgress, abortSignal);
  return finishTree(nodes, k, maxLeafSize, seed);
}

/** Splits node `start` (a leaf holding members) and its descendants until all leaves are ≤ maxLeafSize. */
function splitDownward(
  matrix: VectorMatrix,
  nodes: MutableNode[],
  start: number,
  options: Required<Pick<BuildClusterTreeOptions, 'k' | 'maxLeafSize' | 'engine' | 'maxIterations' | 'tolerance'>>,
  seed: number,
  state: { done: number },
  onProgress: BuildClusterTreeOptions['onProgress'],
  abortSignal: AbortSignal | undefined,
): void {
  const stack = [start];
  const workspace: KMeansWorkspace = {}; // one kernel memory for every split below `start`
  while (stack.length > 0) {
    throwIfAborted(abortSignal);
    const id = stack.pop() as number;
    const node = nodes[id] as MutableNode;
    const members = node.members as number[];
    if (members.length <= options.maxLeafSize) {
      state.done += members.length;
      onProgress?.({ stage: 'cluster', completed: state.done, total: matrix.rows });
      continue;
    }
    const { groups, centroids } = splitMembers(matrix, members, options, splitSeed(seed, id), workspace);
    delete node.members;
    const childIds: number[] = [];
    groups.forEach((group, position) => {
      const childId = nodes.length;
      nodes.push({ id: childId, parent: id, path: [...node.path, position], children: [], size: group.length, centroid: centroids[position] ?? meanOf(matrix, group), members: group.sort((a, b) => a - b) });
      childIds.push(childId);
    });
    node.children = childIds;
    for (let index = childIds.length - 1; index >= 0; index--) stack.push(childIds[index] as number);
  }
}

function finishTree(nodes: MutableNode[], k: number, maxLeafSize: number, seed: number): ClusterTree {
  const leaves: number[] = [];
  const visit = [0];
  while (visit.length > 0) {
    const id = visit.pop() as number;
    const node = nodes[id] as MutableNode;
    if (node.children.length === 0) leaves.push(id);
    for (let index = node.children.length - 1; index >= 0; index--) visit.push(node.children[index] as number);
  }
  return { k, maxLeafSize, seed, nodes: nodes as ClusterNode[], leaves };
}

export interface AddToTreeResult {
  readonly tree: ClusterTree;
  /** Leaf each new row went to (before any re-split). */
  readonly assignedLeaves: number[];
  /** Leaves that were split again because they grew past maxLeafSize; their keywords are stale. */
  readonly splitLeaves: number[];
  /** Leaves created by those splits (need keywords). */
  readonly newLeaves: number[];
}

/**
 * Adds rows `fromRow..matrix.rows-1` of `matrix` (the corpus grown by new documents) to a tree: each new row goes to
 * the leaf with the nearest centroid (squared Euclidean, first on ties); leaf and ancestor sizes and centroids are
 * updated; a leaf that grows past maxLeafSize is split again with the same rules as `buildClusterTree`.
 * Returns a new tree; the input is not changed.
 */
export function addToClusterTree(tree: ClusterTree, matrix: VectorMatrix, options: { fromRow: number; engine?: KMeansEngine; maxIterations?: number; tolerance?: number }): AddToTreeResult {
  const { fromRow, engine = 'lloyd', maxIterations = 100, tolerance = 1e-6 } = options;
  const where = 'addToClusterTree';
  const existing = tree.nodes.reduce((count, node) => count + (node.members?.length ?? 0), 0);
  if (fromRow !== existing) throw new InvalidArgumentError({ where, argument: 'fromRow', message: `must equal the number of rows already in the tree (${existing}; got ${String(fromRow)})` });
  const d = matrix.dimensions;
  if ((tree.nodes[0]?.centroid.length ?? d) !== d) throw new InvalidArgumentError({ where, argument: 'matrix', message: `has ${d} dimensions, the tree ${tree.nodes[0]?.centroid.length}` });
  const nodes: MutableNode[] = tree.nodes.map((node) => ({
    id: node.id,
    parent: node.parent,
    path: [...node.path],
    children: [...node.children],
    size: node.size,
    centroid: Float32Array.from(node.centroid),
    ...(node.members ? { members: [...node.members] } : {}),
  }));
  const leaves = [...tree.leaves];
  const assignedLeaves: number[] = [];
  const touched = new Set<number>();
  for (let row = fromRow; row < matrix.rows; row++) {
    let best = -1;
    let bestDistance = Infinity;
    for (const leaf of leaves) {
      const centroid = (nodes[leaf] as MutableNode).centroid;
      let sum = 0;
      for (let column = 0; column < d; column++) {
        const difference = (matrix.data[row * d + column] as number) - (centroid[column] as number);
        sum += difference * difference;
      }
      if (sum < bestDistance) {
        bestDistance = sum;
        best = leaf;
      }
    }
    assignedLeaves.push(best);
    touched.add(best);
    // Running means up the path.
    for (let id = best; id !== -1; id = (nodes[id] as MutableNode).parent) {
      const node = nodes[id] as MutableNode;
      node.size++;
      for (let column = 0; column < d; column++) {
        const value = node.centroid[column] as number;
        node.centroid[column] = value + ((matrix.data[row * d + column] as number) - value) / node.size;
      }
    }
    ((nodes[best] as MutableNode).members as number[]).push(row);
  }
  const splitLeaves: number[] = [];
  const before = nodes.length;
  const state = { done: 0 };
  for (const leaf of touched) {
    if (((nodes[leaf] as MutableNode).members as number[]).length > tree.maxLeafSize) {
      splitLeaves.push(leaf);
      splitDownward(matrix, nodes, leaf, { k: tree.k, maxLeafSize: tree.maxLeafSize, engine, maxIterations, tolerance }, tree.seed, state, undefined, undefined);
    }
  }
  const finished = finishTree(nodes, tree.k, tree.maxLeafSize, tree.seed);
  const newLeaves = finished.leaves.filter((leaf) => leaf >= before);
  return { tree: finished, assignedLeaves, splitLeaves: splitLeaves.sort((a, b) => a - b), newLeaves };
}
