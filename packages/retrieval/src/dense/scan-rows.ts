/**
 * The inner loop of the flat index: score a range of rows against up to QUERY_SLOTS queries with the float32 kernel,
 * and keep, per query, the k largest lower bounds and every row whose upper bound can still reach the top k.
 *
 * This function must stay self-contained (no imports, no outer variables): worker threads receive it as source text
 * (`scanRows.toString()`), so the main thread and the workers run the same code.
 */

/** Everything `scanRows` needs; plain numbers so it can be posted to a worker. */
export interface ScanJob {
  /** First row (inclusive) and last row (exclusive) to scan. */
  readonly rowStart: number;
  readonly rowEnd: number;
  /** Queries stored at `queryOffset`, `stride` floats apart (1 uses the single-query kernel). */
  readonly queryCount: number;
  readonly topK: number;
  readonly cosine: boolean;
  /** Euclidean norm of each query (float64). */
  readonly queryNorms: readonly number[];
  /** Byte offsets into memory. */
  readonly queryOffset: number;
  readonly outOffset: number;
  readonly normsOffset: number;
  readonly matrixOffset: number;
  /** Row length in floats (dimensions rounded up to a multiple of 4). */
  readonly stride: number;
  /** Rows scored per kernel call; the out region holds `querySlots * blockRows` floats. */
  readonly blockRows: number;
  /** Relative error bound of one scored dot product (see flat-index.ts) and its absolute (underflow) part. */
  readonly gamma: number;
  readonly absolute: number;
  /** Single-query scans read the bfloat16 copy of the matrix at `halfOffset` (row = 2 × `halfStride` bytes). */
  readonly useHalf: boolean;
  readonly halfOffset: number;
  readonly halfStride: number;
  /**
   * Byte offset of a shared Int32 work counter, or -1. With a counter, the threads of one search take blocks of
   * `blockRows` rows from [rowStart, rowEnd) in turn (Atomics.add), so a thread whose core is busy does less.
   */
  readonly counterOffset: number;
}

/** Per query: the k largest lower bounds seen and the flattened (row, upper bound) pairs of the candidates. */
export interface ScanPartial {
  readonly lowers: number[][];
  readonly candidates: number[][];
}

export type Dot1 = (matrix: number, rows: number, stride: number, query: number, out: number) => void;
export type Dot4 = (matrix: number, rows: number, stride: number, queries: number, out: number, outStride: number) => void;

/**
 * Drops the (row, upper bound) pairs of a candidate list whose upper bound is below `threshold` (the threshold only
 * rises during a scan, so they can no longer reach the top k); keeps the order of the rest.
 */
export function pruneCandidates(list: number[], threshold: number): void {
  let kept = 0;
  for (let c = 0; c < list.length; c += 2) {
    if ((list[c + 1] as number) >= threshold) {
      list[kept] = list[c] as number;
      list[kept + 1] = list[c + 1] as number;
      kept += 2;
    }
  }
  list.length = kept;
}

/** The kernel routines: float32 rows for one and four queries, bfloat16 rows for one query. */
export interface ScanKernels {
  readonly dot1: Dot1;
  readonly dot4: Dot4;
  readonly dot1h: Dot1;
}

export function scanRows(kernels: ScanKernels, buffer: ArrayBufferLike, job: ScanJob): ScanPartial {
  const { dot1, dot4, dot1h } = kernels;
  const f32 = new Float32Array(buffer);
  const f64 = new Float64Array(buffer);
  const { rowStart, rowEnd, queryCount, topK, cosine, queryNorms, stride, blockRows, gamma, absolute } = job;
  const rowBytes = stride * 4;
  const heaps: Float64Array[] = [];
  const sizes: number[] = [];
  const candidates: number[][] = [];
  for (let j = 0; j < queryCount; j += 1) {
    heaps.push(new Float64Array(Math.max(1, topK)));
    sizes.push(0);
    candidates.push([]);
  }
  const normBase = job.normsOffset / 8;
  const counter = job.counterOffset >= 0 ? new Int32Array(buffer, job.counterOffset, 1) : null;
  let staticBlock = rowStart;
  for (;;) {
    let block: number;
    if (counter) {
      block = rowStart + Atomics.add(counter, 0, 1) * blockRows;
    } else {
      block = staticBlock;
      staticBlock += blockRows;
    }
    if (block >= rowEnd) break;
    const rows = Math.min(blockRows, rowEnd - block);
    const matrix = job.matrixOffset + block * rowBytes;
    if (queryCount === 1 && job.useHalf) {
      dot1h(job.halfOffset + block * job.halfStride * 2, rows, job.halfStride, job.queryOffset, job.outOffset);
    } else if (queryCount === 1) {
      dot1(matrix, rows, stride, job.queryOffset, job.outOffset);
    } else {
      for (let group = 0; group < queryCount; group += 4) {
        dot4(matrix, rows, stride, job.queryOffset + group * rowBytes, job.outOffset + group * blockRows * 4, blockRows);
      }
    }
    for (let j = 0; j < queryCount; j += 1) {
      const heap = heaps[j] as Float64Array;
      const list = candidates[j] as number[];
      const queryNorm = queryNorms[j] as number;
      const outBase = job.outOffset / 4 + j * blockRows;
      let size = sizes[j] as number;
      let threshold = size < topK ? -Infinity : (heap[0] as number);
      for (let i = 0; i < rows; i += 1) {
        const row = block + i;
        const rowNorm = f64[normBase + row] as number;
        let score = f32[outBase + i] as number;
        let bound: number;
        if (cosine) {
          if (rowNorm === 0 || queryNorm === 0) {
            score = 0;
            bound = 0;
          } else {
            const inverse = 1 / (rowNorm * queryNorm);
            score *= inverse;
            bound = gamma + absolute * inverse + Math.abs(score) * 1e-12;
          }
        } else {
          bound = gamma * rowNorm * queryNorm + absolute + Math.abs(score) * 1e-12;
        }
        let lower = score - bound;
        let upper = score + bound;
        if (!(lower === lower && upper === upper) || lower === -Infinity || upper === Infinity) {
          lower = -Infinity;
          upper = Infinity;
        }
        if (upper < threshold) continue;
        list.push(row, upper);
        if (topK === 0) continue;
        // Min-heap of the topK largest lower bounds: the root is the current threshold.
        if (size < topK) {
          let index = size;
          size += 1;
          while (index > 0) {
            const parent = (index - 1) >> 1;
            if ((heap[parent] as number) <= lower) break;
            heap[index] = heap[parent] as number;
            index = parent;
          }
          heap[index] = lower;
        } else if (lower > (heap[0] as number)) {
          let index = 0;
          for (;;) {
            const left = 2 * index + 1;
            if (left >= size) break;
            const right = left + 1;
            const child = right < size && (heap[right] as number) < (heap[left] as number) ? right : left;
            if ((heap[child] as number) >= lower) break;
            heap[index] = heap[child] as number;
            index = child;
          }
          heap[index] = lower;
        }
        if (size >= topK) threshold = heap[0] as number;
      }
      sizes[j] = size;
      if (list.length > 8 * topK + 256) pruneCandidates(list, threshold);
    }
  }
  const lowers: number[][] = [];
  for (let j = 0; j < queryCount; j += 1) lowers.push(Array.from((heaps[j] as Float64Array).subarray(0, sizes[j] as number)));
  return { lowers, candidates };
}
