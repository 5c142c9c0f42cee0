import { InvalidArgumentError } from '@factkit/core';

export interface LinearSumAssignmentOptions {
  /** Maximize the total instead of minimizing it. @default false */
  maximize?: boolean;
}

export interface LinearSumAssignmentResult {
  /** Row indices, ascending (one per assigned pair). */
  readonly rows: readonly number[];
  /** Column assigned to `rows[i]`. */
  readonly columns: readonly number[];
  /** Sum of the matrix over the assigned pairs. */
  readonly total: number;
}

/** Shortest augmenting path for one row (Crouse 2016, as SciPy's rectangular LSAP). Returns the sink column or -1. */
function augmentingPath(
  nc: number,
  cost: Float64Array,
  u: Float64Array,
  v: Float64Array,
  path: Int32Array,
  row4col: Int32Array,
  shortest: Float64Array,
  startRow: number,
  visitedRows: Uint8Array,
  visitedColumns: Uint8Array,
  remaining: Int32Array,
): { sink: number; minValue: number } {
  let minValue = 0;
  let numRemaining = nc;
  for (let it = 0; it < nc; it++) remaining[it] = nc - it - 1;
  visitedRows.fill(0);
  visitedColumns.fill(0);
  shortest.fill(Number.POSITIVE_INFINITY);
  let sink = -1;
  let i = startRow;
  while (sink === -1) {
    let index = -1;
    let lowest = Number.POSITIVE_INFINITY;
    visitedRows[i] = 1;
    for (let it = 0; it < numRemaining; it++) {
      const j = remaining[it]!;
      const reduced = minValue + cost[i * nc + j]! - u[i]! - v[j]!;
      if (reduced < shortest[j]!) {
        path[j] = i;
        shortest[j] = reduced;
      }
      if (shortest[j]! < lowest || (shortest[j] === lowest && row4col[j] === -1)) {
        lowest = shortest[j]!;
        index = it;
      }
    }
    minValue = lowest;
    if (minValue === Number.POSITIVE_INFINITY) return { sink: -1, minValue };
    const j = remaining[index]!;
    if (row4col[j] === -1) sink = j;
    else i = row4col[j]!;
    visitedColumns[j] = 1;
    remaining[index] = remaining[--numRemaining]!;
  }
  return { sink, minValue };
}

/**
 * Optimal assignment for a rectangular cost (or score) matrix, like `scipy.optimize.linear_sum_assignment`:
 * min(rows, columns) pairs, each row and column used at most once, total minimized (or maximized).
 * Uses the same shortest-augmenting-path algorithm as SciPy, so ties resolve the same way.
 * @throws InvalidArgumentError for ragged rows, NaN, or an infeasible matrix (infinite entries that block every assignment).
 * @example linearSumAssignment([[4, 1, 3], [2, 0, 5], [3, 2, 2]]).total // 5
 */
export function linearSumAssignment(matrix: readonly (readonly number[])[], options: LinearSumAssignmentOptions = {}): LinearSumAssignmentResult {
  const { maximize = false } = options;
  const where = 'linearSumAssignment';
  if (!Array.isArray(matrix)) throw new InvalidArgumentError({ where, argument: 'matrix', message: 'must be an array of rows' });
  const rowCount = matrix.length;
  const columnCount = rowCount === 0 ? 0 : (matrix[0]?.length ?? 0);
  for (let r = 0; r < rowCount; r++) {
    const row = matrix[r];
    if (!Array.isArray(row) || row.length !== columnCount) throw new InvalidArgumentError({ where, argument: 'matrix', message: `row ${r} must have ${columnCount} entries` });
    for (let c = 0; c < columnCount; c++) {
      const value = row[c];
      if (typeof value !== 'number' || Number.isNaN(value)) throw new InvalidArgumentError({ where, argument: 'matrix', message: `entry [${r}][${c}] is not a number (${String(value)})` });
      if (value === (maximize ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY)) {
        throw new InvalidArgumentError({ where, argument: 'matrix', message: `entry [${r}][${c}] is ${String(value)}, which makes the problem unbounded` });
      }
    }
  }
  if (rowCount === 0 || columnCount === 0) return { rows: [], columns: [], total: 0 };
  const transpose = columnCount < rowCount;
  const nr = transpose ? columnCount : rowCount;
  const nc = transpose ? rowCount : columnCount;
  const cost = new Float64Array(nr * nc);
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      const value = transpose ? matrix[c]![r]! : matrix[r]![c]!;
      cost[r * nc + c] = maximize ? -value : value;
    }
  }
  const u = new Float64Array(nr);
  const v = new Float64Array(nc);
  const shortest = new Float64Array(nc);
  const path = new Int32Array(nc).fill(-1);
  const col4row = new Int32Array(nr).fill(-1);
  const row4col = new Int32Array(nc).fill(-1);
  const visitedRows = new Uint8Array(nr);
  const visitedColumns = new Uint8Array(nc);
  const remaining = new Int32Array(nc);
  for (let currentRow = 0; currentRow < nr; currentRow++) {
    const { sink, minValue } = augmentingPath(nc, cost, u, v, path, row4col, shortest, currentRow, visitedRows, visitedColumns, remaining);
    if (sink < 0) throw new InvalidArgumentError({ where, argument: 'matrix', message: 'is infeasible (infinite entries leave no complete assignment)' });
    u[currentRow]! += minValue;
    for (let i = 0; i < nr; i++) if (visitedRows[i] && i !== currentRow) u[i]! += minValue - shortest[col4row[i]!]!;
    for (let j = 0; j < nc; j++) if (visitedColumns[j]) v[j]! -= minValue - shortest[j]!;
    let j = sink;
    for (;;) {
      const i = path[j]!;
      row4col[j] = i;
      const previous = col4row[i]!;
      col4row[i] = j;
      j = previous;
      if (i === currentRow) break;
    }
  }
  let pairs: [number, number][] = [];
  for (let i = 0; i < nr; i++) pairs.push(transpose ? [col4row[i]!, i] : [i, col4row[i]!]);
  if (transpose) pairs = pairs.sort((left, right) => left[0] - right[0]);
  let total = 0;
  for (const [r, c] of pairs) total += matrix[r]![c]!;
  return { rows: pairs.map(([r]) => r), columns: pairs.map(([, c]) => c), total };
}
