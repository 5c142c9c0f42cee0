/**
 * The dense benchmarks' synthetic data (shared by run.ts, int8.ts, binary.ts and file-backed.ts): a Gaussian mixture, because embeddings are
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

/** A synthetic corpus and held-out queries, as the int8 / binary / file-backed benches use them. */
export interface MixtureData {
  /** `rows × dimensions`, row-major. */
  readonly matrix: Float32Array;
  /** Held-out queries: drawn after the corpus from the same mixture, never inserted. */
  readonly queries: Float32Array[];
  /** `{ id: 'd<row>', vector: row view of matrix }` per row, for `upsert`. */
  readonly entries: { id: string; vector: Float32Array }[];
}

/** Draws `rows` points, then `queryCount` queries, from {@link createMixtureGenerator} (same order, same data). */
export function generateMixtureData(rows: number, dimensions: number, queryCount: number, onProgress?: (generated: number) => void): MixtureData {
  const { samplePoint } = createMixtureGenerator(dimensions);
  const matrix = new Float32Array(rows * dimensions);
  for (let r = 0; r < rows; r += 1) {
    samplePoint(matrix, r * dimensions);
    if ((r + 1) % 250_000 === 0) onProgress?.(r + 1);
  }
  const queries = Array.from({ length: queryCount }, () => {
    const query = new Float32Array(dimensions);
    samplePoint(query, 0);
    return query;
  });
  const entries = Array.from({ length: rows }, (_, r) => ({ id: `d${r}`, vector: matrix.subarray(r * dimensions, (r + 1) * dimensions) }));
  return { matrix, queries, entries };
}
