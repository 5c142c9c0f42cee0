/**
 * The dense benchmarks' synthetic data (shared by run.ts and int8.ts): a Gaussian mixture, because embeddings are
 * clustered and uniform noise in 384-d is a degenerate case for graph indexes. 1,000 centroids N(0, I); each point =
 * centroid + N(0, 0.6² I). Park–Miller minimal standard generator (seed 20261122): the same data on every machine.
 */
export interface MixtureGenerator {
  /** Writes one point of the mixture at `target[offset … offset + dimensions)`. */
  samplePoint(target: Float32Array, offset: number): void;
}

export const MIXTURE_DESCRIPTION = 'Park-Miller seed 20261122; Gaussian mixture, 1000 centroids N(0,I), noise N(0,0.36 I)';

export function createMixtureGenerator(dimensions: number, seed = 20261122, centroidCount = 1000): MixtureGenerator {
  let state = seed;
  const random = () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647 - 0.5;
  };
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 0.5 || 1e-12)) * Math.cos(2 * Math.PI * (random() + 0.5));
  const centroids = Array.from({ length: centroidCount }, () => Float32Array.from({ length: dimensions }, gaussian));
  return {
    samplePoint(target, offset) {
      const centroid = centroids[Math.floor((random() + 0.5) * centroidCount) % centroidCount] as Float32Array;
      for (let k = 0; k < dimensions; k += 1) target[offset + k] = (centroid[k] as number) + 0.6 * gaussian();
    },
  };
}
