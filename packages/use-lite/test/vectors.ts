// Shared by the use-lite tests and benches: the largest |difference| between two lists of vectors, row by row.
export function maxAbsDifference(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  let max = 0;
  a.forEach((vector, row) => {
    const other = b[row] as Float32Array;
    for (let column = 0; column < vector.length; column++) max = Math.max(max, Math.abs((vector[column] as number) - (other[column] as number)));
  });
  return max;
}
