/** A word-vector table held in memory: one row of `dimensions` floats per vocabulary word. */
export interface GloveVectors {
  readonly dimensions: number;
  /** Vocabulary, in row order. */
  readonly words: readonly string[];
  /** Row-major `words.length × dimensions` matrix. */
  readonly matrix: Float32Array;
  /** Row of `word`, or -1 when it is out of vocabulary. Exact match: callers lowercase first. */
  indexOf(word: string): number;
  /** The stored vector of `word` (a view into `matrix`), or undefined when out of vocabulary. */
  vectorOf(word: string): Float32Array | undefined;
}

/** True when `words` is in ascending UTF-16 code-unit order (the order of the binary cache). */
export function isSortedVocabulary(words: readonly string[]): boolean {
  for (let i = 1; i < words.length; i += 1) if ((words[i - 1] as string) > (words[i] as string)) return false;
  return true;
}

function binarySearch(words: readonly string[], word: string): number {
  let low = 0;
  let high = words.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = words[middle] as string;
    if (candidate === word) return middle;
    if (candidate < word) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Builds the lookup object over a vocabulary and its matrix. A sorted vocabulary (as read from the binary cache)
 * is searched by bisection, which avoids building a 341k-entry Map (~0.3 s) at every load; otherwise a Map is built.
 */
export function createGloveVectors(words: readonly string[], matrix: Float32Array, dimensions: number): GloveVectors {
  let indexOf: (word: string) => number;
  if (isSortedVocabulary(words)) {
    indexOf = (word) => binarySearch(words, word);
  } else {
    const index = new Map<string, number>();
    words.forEach((word, row) => {
      if (!index.has(word)) index.set(word, row);
    });
    indexOf = (word) => index.get(word) ?? -1;
  }
  return {
    dimensions,
    words,
    matrix,
    indexOf,
    vectorOf(word) {
      const row = indexOf(word);
      return row < 0 ? undefined : matrix.subarray(row * dimensions, (row + 1) * dimensions);
    },
  };
}

/** The same table with rows reordered so the vocabulary is sorted (the binary cache's order). */
export function sortGloveVectors(vectors: GloveVectors): GloveVectors {
  const { words, matrix, dimensions } = vectors;
  if (isSortedVocabulary(words)) return vectors;
  const order = words.map((_, row) => row).sort((a, b) => ((words[a] as string) < (words[b] as string) ? -1 : (words[a] as string) > (words[b] as string) ? 1 : a - b));
  const sortedMatrix = new Float32Array(matrix.length);
  order.forEach((row, target) => sortedMatrix.set(matrix.subarray(row * dimensions, (row + 1) * dimensions), target * dimensions));
  return createGloveVectors(
    order.map((row) => words[row] as string),
    sortedMatrix,
    dimensions,
  );
}
