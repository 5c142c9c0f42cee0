// Clustering (offline stage 1)
export type { VectorMatrix } from './clustering/vector-matrix.js';
export { packVectors, selectRows } from './clustering/vector-matrix.js';
export type { KMeansPlusPlusOptions } from './clustering/kmeans-plus-plus.js';
export { initializeKMeansPlusPlus } from './clustering/kmeans-plus-plus.js';
export type { KMeansEngine, KMeansOptions, KMeansResult } from './clustering/compute-kmeans.js';
export { computeInertia, computeKMeans } from './clustering/compute-kmeans.js';
export type { AddToTreeResult, BuildClusterTreeOptions, ClusterNode, ClusterTree, ClusterTreeProgress } from './clustering/cluster-tree.js';
export { addToClusterTree, buildClusterTree, splitSeed } from './clustering/cluster-tree.js';
