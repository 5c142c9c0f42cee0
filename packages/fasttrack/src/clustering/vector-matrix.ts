import { InvalidArgumentError } from '@factkit/core';

/** Row-major matrix of float32 vectors (one row per document), the layout every clustering function reads. */
export interface VectorMatrix {
  readonly rows: number;
  readonly dimensions: number;
  /** `rows × dimensions` values, row-major. */
  readonly data: Float32Array;
}

/**
 * Packs vectors of equal length into one row-major `VectorMatrix` (copies).
 * @throws InvalidArgumentError when vectors differ in length, are empty, or hold non-finite values.
 */
export function packVectors(vectors: readonly ArrayLike<number>[], where = 'packVectors'): VectorMatrix {
  if (!Array.isArray(vectors)) throw new InvalidArgumentError({ where, argument: 'vectors', message: 'must be an array of vectors' });
  const rows = vectors.length;
  const dimensions = rows === 0 ? 0 : (vectors[0] as ArrayLike<number>).length;
  if (rows > 0 && (!Number.isInteger(dimensions) || dimensions < 1)) {
    throw new InvalidArgumentError({ where, argument: 'vectors[0]', message: 'must be a non-empty vector' });
  }
  const data = new Float32Array(rows * dimensions);
  for (let row = 0; row < rows; row++) {
    const vector = vectors[row] as ArrayLike<number>;
    if (vector === undefined || vector === null || vector.length !== dimensions) {
      throw new InvalidArgumentError({ where, argument: `vectors[${row}]`, message: `must have ${dimensions} values (got ${vector === undefined || vector === null ? String(vector) : vector.length})` });
    }
    const offset = row * dimensions;
    for (let column = 0; column < dimensions; column++) {
      const value = vector[column] as number;
      if (!Number.isFinite(value)) throw new InvalidArgumentError({ where, argument: `vectors[${row}][${column}]`, message: `must be finite (got ${String(value)})` });
      data[offset + column] = value;
    }
  }
  return { rows, dimensions, data };
}

/** Copies the given rows of a matrix into a new matrix (in the given order). */
export function selectRows(matrix: VectorMatrix, rows: ArrayLike<number>): VectorMatrix {
  const { dimensions } = matrix;
  const data = new Float32Array(rows.length * dimensions);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as number;
    data.set(matrix.data.subarray(row * dimensions, (row + 1) * dimensions), index * dimensions);
  }
  return { rows: rows.length, dimensions, data };
}
