import { assertNonEmptyString, assertPositiveInteger, FactkitError, InvalidArgumentError } from '@factkit/core';
import { checkStoreMetric, checkStoreTopK, checkStoreVector } from '../stores/validate-records.js';
import type { FlatIndex, FlatSearchHit, FlatSearchOptions, VectorMetric } from './flat-index.js';
import { createInt8Kernel, INT8_KERNEL_MAX_BYTES, type Int8Kernel } from './kernel/load-int8-kernel.js';
import { pruneCandidates } from './scan-rows.js';

/**
 * Where the float32 rows used for exact re-ranking live when they are not held in memory: a synchronous reader of rows by
 * number. Row r is the r-th vector the index ever added under a new id (upsert order, counting from 0; deleted rows are
 * skipped, never renumbered), so a file written from the same entries in the same order fits. Browser-safe interface;
 * `createFileVectorSource` (`@factkit/retrieval/node`) reads a float32 row file with positioned reads.
 */
export interface VectorRowSource {
  /** Length of every row (must equal the index's `dimensions`). */
  readonly dimensions: number;
  /** Rows available, when known: upserts beyond it fail with a typed error instead of reading past the end. */
  readonly rows?: number;
  /**
   * Copies rows `rows[0..count)` into `out` (row `rows[k]` at `out[k · dimensions]`). Called once per query with the
   * rows sorted ascending, so adjacent rows can be read together.
   */
  read(rows: Int32Array, count: number, out: Float32Array): void;
}

/**
 * The int8 choices of a quantized index: how its shortlist is re-ranked, where the float32 rows live, and the optional
 * binary first stage. `createInMemoryVectorStore({ quantized })` takes them.
 */
export interface QuantizationOptions {
  /**
   * Which rows of the int8 scan are re-ranked, per query (a search option of the same name overrides it):
   * 'exact' = every row whose int8 score, widened by a proven bound on the quantization error, can still reach the
   * top k, so results always equal the float32 index's (needs `floatVectors: 'keep'`); a number n = the n best int8
   * estimates (never fewer than `topK`): a fixed re-ranking cost, exact only when the true top k are among them.
   * @default 'exact' with floatVectors 'keep', 100 with 'drop'
   */
  readonly shortlist?: number | 'exact';
  /**
   * 'keep': a float32 copy of every vector stays in memory and the shortlist is re-scored exactly in float64 (scores
   * equal the float32 index's). 'drop': only the int8 codes (plus one scale and one norm per row) are kept, ¼ of the
   * float32 memory; the shortlist is re-scored against the dequantized rows (float query × int8 code × scale), so
   * scores and order are approximations and `getVector` returns the dequantized vector. A `VectorRowSource`: the
   * float32 rows stay outside process memory (e.g. a file, `createFileVectorSource` from `@factkit/retrieval/node`) and
   * only the shortlist of each query is read from it, so results and scores equal 'keep''s (the source must hold the
   * same float32 values that were upserted, row r = the r-th new id); re-upserting an existing id is unsupported in this
   * mode (typed error) since the source cannot be rewritten; deletes are supported. @default 'keep'
   */
  readonly floatVectors?: 'keep' | 'drop' | VectorRowSource;
  /**
   * Approximate first stage. 'none': every search scans all int8 codes (the modes above). 'binary': the index also keeps
   * one sign bit per dimension (48 bytes per 384-d row); a search first ranks all rows by Hamming distance between sign
   * codes (WebAssembly `i64.popcnt`), keeps the `prefilterShortlist` closest, and runs the int8 stage and the re-ranking
   * above on those rows only. APPROXIMATE: a true top-k row outside the binary shortlist is missed (with
   * `prefilterShortlist` ≥ size the result equals the 'none' mode's). @default 'none'
   */
  readonly prefilter?: 'none' | 'binary';
  /** Rows kept by the binary first stage, per query (a search option of the same name overrides it). @default 4096 */
  readonly prefilterShortlist?: number;
}

export interface QuantizedFlatIndexOptions extends QuantizationOptions {
  /** Length of every vector. */
  readonly dimensions: number;
  /** @default 'cosine' */
  readonly metric?: VectorMetric;
  /** Rows to reserve up front (the index doubles its capacity when full). @default 1024 */
  readonly initialCapacity?: number;
  /**
   * Scoring kernel: 'wasm' (WebAssembly SIMD, int8 rows × int16 query), 'js' (plain JavaScript, same integer sums), or
   * 'auto' (wasm when the runtime supports SIMD). @default 'auto'
   */
  readonly kernel?: 'auto' | 'wasm' | 'js';
  /** Rows scored per kernel call (tuning knob). @default 1024 */
  readonly blockRows?: number;
}

export interface QuantizedFlatSearchOptions extends FlatSearchOptions {
  /** Rows re-ranked for this search: 'exact' or a count (see `QuantizedFlatIndexOptions.shortlist`). @default the index's `shortlist` */
  readonly shortlist?: number | 'exact';
  /** Rows kept by the binary first stage (only with `prefilter: 'binary'`). @default the index's `prefilterShortlist` */
  readonly prefilterShortlist?: number;
}

/** Bytes held by a quantized flat index. */
export interface QuantizedIndexMemory {
  /** Bytes read by every scan: the int8 codes (rows × stride). */
  readonly scannedBytes: number;
  /** Per-row scale, code L1 norm and vector norm (float64 each). */
  readonly rowMetadataBytes: number;
  /** The float32 copy used for exact re-ranking (0 with `floatVectors: 'drop'` or a row source, whose rows live outside). */
  readonly floatBytes: number;
  /** Binary sign codes of the first stage (0 with `prefilter: 'none'`). */
  readonly prefilterBytes: number;
  /** Everything above for the rows stored (capacity reserved for growth not counted). */
  readonly totalBytes: number;
  /** Bytes actually allocated: kernel memory (codes, query and output buffers at capacity) plus typed arrays at capacity. */
  readonly allocatedBytes: number;
}

/**
 * A flat index over int8 codes (one scale per vector) with exact re-ranking. Same search surface as `FlatIndex`; with
 * `shortlist: 'exact'` (the default) results equal `createFlatIndex`'s, with a numeric shortlist they are approximate
 * only when the true top k fall outside it.
 */
export interface QuantizedFlatIndex extends FlatIndex {
  readonly quantization: 'int8';
  /** 'source' when the float rows are read from a `VectorRowSource`. */
  readonly floatVectors: 'keep' | 'drop' | 'source';
  /** Default shortlist: 'exact' or a row count. */
  readonly shortlist: number | 'exact';
  readonly prefilter: 'none' | 'binary';
  readonly prefilterShortlist: number;
  search(query: Float32Array, options?: QuantizedFlatSearchOptions): FlatSearchHit[];
  searchBatch(queries: readonly Float32Array[], options?: QuantizedFlatSearchOptions): FlatSearchHit[][];
  searchAsync(query: Float32Array, options?: QuantizedFlatSearchOptions): Promise<FlatSearchHit[]>;
  searchBatchAsync(queries: readonly Float32Array[], options?: QuantizedFlatSearchOptions): Promise<FlatSearchHit[][]>;
  memoryUsage(): QuantizedIndexMemory;
  /** Rows re-ranked by the most recent `search` / `searchBatch` (summed over its queries): the cost of exactness. */
  readonly lastReranked: number;
}

/** Queries scored per pass over the codes (a multiple of 4: the kernel scores four per call). */
const QUERY_SLOTS = 16;
const CODE_MAX = 127;

/**
 * Creates a scalar-quantized flat index: each vector (L2-normalised first under cosine) is stored as int8 codes
 * `round(127 · x_i / max|x|)` with its own scale `max|x| / 127`. A query is scaled to int16 (as large as 32-bit sums
 * allow), a WebAssembly SIMD kernel computes exact integer dot products over ¼ of the float32 bytes, and the rows that
 * can still be in the top k are re-scored exactly in float64 against a float32 copy (ties by id). Which rows: by
 * default ('exact') every row whose estimate plus a proven bound on the quantization error reaches the k-th best lower
 * bound — the result always equals a float64 brute force, and on real data only a few dozen rows are re-scored
 * (`lastReranked`); or, with `shortlist: n`, the n best estimates.
 *
 * Why one scale per vector rather than per dimension: it needs no training pass and never re-quantizes, so upsert and
 * delete stay incremental and the codes do not depend on which vectors came first; the exact re-ranking absorbs the
 * extra error that per-dimension ranges would have saved on anisotropic data.
 *
 * With `prefilter: 'binary'` an approximate first stage runs before all this: each row also has a sign code (one bit per
 * dimension), a WebAssembly `i64.popcnt` scan ranks all rows by Hamming distance to the query's sign code, and only the
 * `prefilterShortlist` nearest rows go through the int8 stage and the re-ranking — much faster on large indexes, exact
 * only when the true top k are among those rows (always when `prefilterShortlist` ≥ size).
 * @throws InvalidArgumentError for bad dimensions, metric, capacity, kernel, shortlist, floatVectors, blockRows, prefilter
 * or prefilterShortlist.
 * @example
 * const index = createQuantizedFlatIndex({ dimensions: 384 });
 * index.upsert(entries);
 * index.search(query, { topK: 10 }); // the same hits and scores as createFlatIndex, scanning ¼ of the bytes
 */
export function createQuantizedFlatIndex(options: QuantizedFlatIndexOptions): QuantizedFlatIndex {
  const where = 'createQuantizedFlatIndex';
  const {
    dimensions,
    metric = 'cosine',
    initialCapacity = 1024,
    kernel: preferredKernel = 'auto',
    floatVectors = 'keep',
    shortlist: defaultShortlist = floatVectors === 'drop' ? 100 : 'exact',
    blockRows = 1024,
    prefilter = 'none',
    prefilterShortlist: defaultPrefilterShortlist = 4096,
  } = options ?? ({} as QuantizedFlatIndexOptions);
  assertPositiveInteger('dimensions', dimensions, where);
  checkStoreMetric(metric, where);
  assertPositiveInteger('initialCapacity', initialCapacity, where);
  if (preferredKernel !== 'auto' && preferredKernel !== 'wasm' && preferredKernel !== 'js') {
    throw new InvalidArgumentError({ where, argument: 'kernel', message: `must be 'auto', 'wasm' or 'js' (got ${String(preferredKernel)})` });
  }
  const source: VectorRowSource | undefined = typeof floatVectors === 'object' && floatVectors !== null ? floatVectors : undefined;
  if (floatVectors !== 'keep' && floatVectors !== 'drop' && (source === undefined || typeof source.read !== 'function')) {
    throw new InvalidArgumentError({ where, argument: 'floatVectors', message: `must be 'keep' or 'drop' or a row source (an object with dimensions and a read(rows, count, out) method) (got ${String(floatVectors)})` });
  }
  if (source && source.dimensions !== dimensions) {
    throw new InvalidArgumentError({ where, argument: 'floatVectors', message: `row source has ${String(source.dimensions)} dimensions, the index ${dimensions}` });
  }
  const checkShortlist = (value: unknown, at: string): number | 'exact' => {
    if (value === 'exact') {
      if (floatVectors === 'drop') throw new InvalidArgumentError({ where: at, argument: 'shortlist', message: "'exact' needs floatVectors 'keep' or a row source (the float32 rows it re-ranks against)" });
      return value;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new InvalidArgumentError({ where: at, argument: 'shortlist', message: `must be 'exact' or a positive integer (got ${String(value)})` });
    }
    return value;
  };
  checkShortlist(defaultShortlist, where);
  assertPositiveInteger('blockRows', blockRows, where);
  if (prefilter !== 'none' && prefilter !== 'binary') {
    throw new InvalidArgumentError({ where, argument: 'prefilter', message: `must be 'none' or 'binary' (got ${String(prefilter)})` });
  }
  const checkPrefilterShortlist = (value: unknown, at: string): number => {
    assertPositiveInteger('prefilterShortlist', value, at);
    return value;
  };
  checkPrefilterShortlist(defaultPrefilterShortlist, where);
  const stride = Math.ceil(dimensions / 16) * 16;
  const cosine = metric === 'cosine';
  const keepFloats = floatVectors === 'keep';
  /** Exact re-ranking against float32 rows, in memory or from the source. */
  const exactFloats = keepFloats || source !== undefined;
  // Query codes: as large as possible while every integer dot product stays below 2^31 (exact in int32).
  const queryMax = Math.min(32767, Math.floor((2 ** 31 - 1) / (CODE_MAX * stride)));
  if (queryMax < 127) {
    throw new InvalidArgumentError({ where, argument: 'dimensions', message: `must be at most ${Math.floor((2 ** 31 - 1) / (CODE_MAX * 127) / 16) * 16} for exact 32-bit integer sums (got ${dimensions})` });
  }

  const queryOffset = 0;
  const outOffset = QUERY_SLOTS * stride * 2;
  const codesOffset = Math.ceil((outOffset + QUERY_SLOTS * blockRows * 4) / 16) * 16;
  const bytesFor = (capacity: number) => codesOffset + capacity * stride;
  if (bytesFor(initialCapacity) > INT8_KERNEL_MAX_BYTES) {
    throw new InvalidArgumentError({ where, argument: 'initialCapacity', message: `needs ${bytesFor(initialCapacity)} bytes, more than the 4 GiB a quantized flat index can address` });
  }
  const kernel: Int8Kernel = createInt8Kernel(bytesFor(initialCapacity), preferredKernel);
  let capacity = initialCapacity;
  let i8 = new Int8Array(kernel.buffer);
  let i16 = new Int16Array(kernel.buffer);
  let i32 = new Int32Array(kernel.buffer);
  let scales = new Float64Array(capacity);
  /** scale × Σ|code|: the L1 norm of the dequantized row, for the error bound of exact mode. */
  let l1s = new Float64Array(capacity);
  let norms = new Float64Array(capacity);
  let floats = new Float32Array(keepFloats ? capacity * dimensions : 0);
  /** Row-source mode: the source row of each slot (deletes move slots, never source rows), and the next new row. */
  let sourceRows = new Int32Array(source ? capacity : 0);
  let nextSourceRow = 0;
  const idBySlot: string[] = [];
  const slotById = new Map<string, number>();

  // Binary first stage: its own kernel memory laid out as [histogram | query bits | u16 distances | sign codes].
  const useBinary = prefilter === 'binary';
  const bstride = Math.ceil(dimensions / 64) * 8;
  const histogramOffset = 0;
  const bitsQueryOffset = Math.ceil(((dimensions + 1) * 4) / 16) * 16;
  const distanceOffset = bitsQueryOffset + Math.ceil(bstride / 16) * 16;
  const bitsCodesOffset = (rowCapacity: number) => distanceOffset + Math.ceil((rowCapacity * 2) / 16) * 16;
  const binaryBytesFor = (rowCapacity: number) => bitsCodesOffset(rowCapacity) + rowCapacity * bstride;
  const binary: Int8Kernel | undefined = useBinary ? createInt8Kernel(binaryBytesFor(initialCapacity), kernel.kind === 'js' ? 'js' : 'wasm') : undefined;
  let bits = new Uint8Array(binary ? binary.buffer : new ArrayBuffer(0));
  let bitsCodes = bitsCodesOffset(initialCapacity);
  const writeBits = (target: number, vector: Float32Array) => {
    bits.fill(0, target, target + bstride);
    for (let i = 0; i < dimensions; i += 1) if ((vector[i] as number) > 0) bits[target + (i >> 3)] = (bits[target + (i >> 3)] as number) | (1 << (i & 7));
  };

  const refreshViews = () => {
    i8 = new Int8Array(kernel.buffer);
    i16 = new Int16Array(kernel.buffer);
    i32 = new Int32Array(kernel.buffer);
  };

  const grow = (needed: number) => {
    if (needed <= capacity) return;
    let next = capacity;
    while (next < needed) next *= 2;
    if (bytesFor(next) > INT8_KERNEL_MAX_BYTES) {
      if (bytesFor(needed) > INT8_KERNEL_MAX_BYTES) {
        throw new FactkitError('unsupported', `QuantizedFlatIndex: ${needed} vectors of ${dimensions} dimensions exceed the 4 GiB a single index can address; shard the collection`);
      }
      next = needed;
    }
    kernel.grow(bytesFor(next));
    refreshViews();
    const count = idBySlot.length;
    if (binary) {
      if (binaryBytesFor(next) > INT8_KERNEL_MAX_BYTES) {
        throw new FactkitError('unsupported', `QuantizedFlatIndex: ${needed} binary codes exceed the 4 GiB a single index can address; shard the collection`);
      }
      binary.grow(binaryBytesFor(next));
      bits = new Uint8Array(binary.buffer);
      const moved = bitsCodesOffset(next);
      bits.copyWithin(moved, bitsCodes, bitsCodes + count * bstride);
      bitsCodes = moved;
    }
    const nextScales = new Float64Array(next);
    nextScales.set(scales.subarray(0, count));
    const nextNorms = new Float64Array(next);
    nextNorms.set(norms.subarray(0, count));
    if (keepFloats) {
      const nextFloats = new Float32Array(next * dimensions);
      nextFloats.set(floats.subarray(0, count * dimensions));
      floats = nextFloats;
    }
    if (source) {
      const nextRows = new Int32Array(next);
      nextRows.set(sourceRows.subarray(0, count));
      sourceRows = nextRows;
    }
    scales = nextScales;
    const nextL1s = new Float64Array(next);
    nextL1s.set(l1s.subarray(0, count));
    l1s = nextL1s;
    norms = nextNorms;
    capacity = next;
  };

  const writeRow = (slot: number, vector: Float32Array) => {
    let squares = 0;
    for (let i = 0; i < dimensions; i += 1) squares += (vector[i] as number) * (vector[i] as number);
    const norm = Math.sqrt(squares);
    norms[slot] = norm;
    if (keepFloats) floats.set(vector, slot * dimensions);
    if (binary) writeBits(bitsCodes + slot * bstride, vector);
    // Under cosine the codes represent the unit vector, so estimates rank by cosine directly.
    const unit = cosine ? (norm > 0 ? 1 / norm : 0) : 1;
    let largest = 0;
    for (let i = 0; i < dimensions; i += 1) largest = Math.max(largest, Math.abs((vector[i] as number) * unit));
    const base = codesOffset + slot * stride;
    if (largest === 0 || !Number.isFinite(largest)) {
      i8.fill(0, base, base + stride);
      scales[slot] = 0;
      l1s[slot] = 0;
      return;
    }
    const toCode = (CODE_MAX / largest) * unit;
    let codeL1 = 0;
    for (let i = 0; i < dimensions; i += 1) {
      const code = Math.round((vector[i] as number) * toCode);
      i8[base + i] = code;
      codeL1 += Math.abs(code);
    }
    i8.fill(0, base + dimensions, base + stride);
    scales[slot] = largest / CODE_MAX;
    l1s[slot] = scales[slot] * codeL1;
  };

  const norm = (vector: Float32Array) => {
    let squares = 0;
    for (let i = 0; i < vector.length; i += 1) squares += (vector[i] as number) * (vector[i] as number);
    return Math.sqrt(squares);
  };

  /** What the scan needs to know about one query. */
  interface QueryInfo {
    /** Turns an integer sum times a row scale into an estimate of the (cosine or inner-product) score. */
    readonly factor: number;
    /** Error-bound coefficients (exact mode): bound = rowScale·a + rowL1·b + relative and absolute rounding terms. */
    readonly a: number;
    readonly b: number;
    readonly absolute: number;
  }

  /** Writes a query's int16 codes into slot `j` and returns its scale and error-bound coefficients. */
  const writeQuery = (j: number, query: Float32Array, queryNorm: number): QueryInfo => {
    const base = queryOffset / 2 + j * stride;
    const unit = cosine ? (queryNorm > 0 ? 1 / queryNorm : 0) : 1;
    let largest = 0;
    let l1 = 0;
    for (let i = 0; i < dimensions; i += 1) {
      const value = Math.abs((query[i] as number) * unit);
      largest = Math.max(largest, value);
      l1 += value;
    }
    // Float64 rounding of the exact re-scoring and of these estimates: a few ulps per term, far below this margin.
    const absolute = (dimensions + 8) * 2 ** -50 * (cosine ? 1 : queryNorm);
    if (largest === 0 || !Number.isFinite(largest)) {
      i16.fill(0, base, base + stride);
      return { factor: 0, a: 0, b: 0, absolute };
    }
    const toCode = (queryMax / largest) * unit;
    for (let i = 0; i < dimensions; i += 1) i16[base + i] = Math.round((query[i] as number) * toCode);
    i16.fill(0, base + dimensions, base + stride);
    const factor = largest / queryMax;
    // Rounding moves each row value by at most half its step (scale/2) and each query value by factor/2, so
    // |x·q − estimate| ≤ (scale/2)·Σ|q_i| + (factor/2)·scale·Σ|code_i| (margin 1e-9 for the rounding of the steps).
    return { factor, a: (l1 / 2) * (1 + 1e-9), b: (factor / 2) * (1 + 1e-9), absolute };
  };

  /** Exact score (float64 over the float32 copy), or the dequantized estimate when float vectors are dropped. */
  const rerankScore = (slot: number, query: Float32Array, queryNorm: number, rowsRead?: Float32Array, at = 0): number => {
    let dot = 0;
    if (exactFloats) {
      const from = rowsRead ?? floats;
      const base = rowsRead ? at * dimensions : slot * dimensions;
      for (let i = 0; i < dimensions; i += 1) dot += (from[base + i] as number) * (query[i] as number);
      if (!cosine) return dot;
      const rowNorm = norms[slot] as number;
      return rowNorm === 0 || queryNorm === 0 ? 0 : dot / (rowNorm * queryNorm);
    }
    const base = codesOffset + slot * stride;
    for (let i = 0; i < dimensions; i += 1) dot += (i8[base + i] as number) * (query[i] as number);
    dot *= scales[slot] as number;
    // Codes hold the unit vector under cosine, the raw vector under inner product.
    if (!cosine) return dot;
    return queryNorm === 0 ? 0 : dot / queryNorm;
  };

  const pushHeap = (scores: Float64Array, slots: Int32Array | undefined, size: number, value: number, slot: number): number => {
    // Min-heap insert of `value` (the root is the smallest kept); returns the new size.
    let index = size;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if ((scores[parent] as number) <= value) break;
      scores[index] = scores[parent] as number;
      if (slots) slots[index] = slots[parent] as number;
      index = parent;
    }
    scores[index] = value;
    if (slots) slots[index] = slot;
    return size + 1;
  };
  const replaceRoot = (scores: Float64Array, slots: Int32Array | undefined, size: number, value: number, slot: number) => {
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && (scores[right] as number) < (scores[left] as number) ? right : left;
      if ((scores[child] as number) >= value) break;
      scores[index] = scores[child] as number;
      if (slots) slots[index] = slots[child] as number;
      index = child;
    }
    scores[index] = value;
    if (slots) slots[index] = slot;
  };

  /** Scores one block of rows for every query in the slots (int32 sums land in the out region). */
  const scoreBlock = (block: number, count: number, queryCount: number) => {
    const matrix = codesOffset + block * stride;
    if (queryCount === 1) kernel.dot8(matrix, count, stride, queryOffset, outOffset);
    else for (let g = 0; g < queryCount; g += 4) kernel.dot8x4(matrix, count, stride, queryOffset + g * stride * 2, outOffset + g * blockRows * 4, blockRows);
  };

  /** Fixed shortlist: one pass over the codes, keeping each query's `keep` best estimates. */
  const scanShortlist = (queries: readonly QueryInfo[], keep: number): Int32Array[] => {
    const rows = idBySlot.length;
    const queryCount = queries.length;
    const heapScores = queries.map(() => new Float64Array(keep));
    const heapSlots = queries.map(() => new Int32Array(keep));
    const sizes = new Array<number>(queryCount).fill(0);
    for (let block = 0; block < rows; block += blockRows) {
      const count = Math.min(blockRows, rows - block);
      scoreBlock(block, count, queryCount);
      for (let j = 0; j < queryCount; j += 1) {
        const scores = heapScores[j] as Float64Array;
        const slots = heapSlots[j] as Int32Array;
        let size = sizes[j] as number;
        const outBase = outOffset / 4 + j * blockRows;
        let threshold = size < keep ? -Infinity : (scores[0] as number);
        for (let i = 0; i < count; i += 1) {
          const row = block + i;
          const estimate = (i32[outBase + i] as number) * (scales[row] as number);
          if (estimate <= threshold && size >= keep) continue;
          // Ties at the threshold: the earlier row stays (re-ranking then orders the shortlist exactly).
          if (size < keep) size = pushHeap(scores, slots, size, estimate, row);
          else replaceRoot(scores, slots, size, estimate, row);
          if (size >= keep) threshold = scores[0] as number;
        }
        sizes[j] = size;
      }
    }
    return heapSlots.map((slots, j) => slots.subarray(0, sizes[j] as number));
  };

  /**
   * Exact mode: every row gets an interval [estimate − bound, estimate + bound] that contains its exact score; the k-th
   * largest lower bound T is tracked, and every row whose upper bound reaches T is a candidate (the true top k always
   * are). Candidates are then re-scored exactly, so the result equals a float64 brute force.
   */
  const scanExact = (queries: readonly QueryInfo[], topK: number): Int32Array[] => {
    const rows = idBySlot.length;
    const queryCount = queries.length;
    const heaps = queries.map(() => new Float64Array(topK));
    const sizes = new Array<number>(queryCount).fill(0);
    const candidates: number[][] = queries.map(() => []);
    for (let block = 0; block < rows; block += blockRows) {
      const count = Math.min(blockRows, rows - block);
      scoreBlock(block, count, queryCount);
      for (let j = 0; j < queryCount; j += 1) {
        const { factor, a, b, absolute } = queries[j] as QueryInfo;
        const heap = heaps[j] as Float64Array;
        const list = candidates[j] as number[];
        let size = sizes[j] as number;
        let threshold = size < topK ? -Infinity : (heap[0] as number);
        const outBase = outOffset / 4 + j * blockRows;
        for (let i = 0; i < count; i += 1) {
          const row = block + i;
          const scale = scales[row] as number;
          const estimate = (i32[outBase + i] as number) * scale * factor;
          const bound = scale * a + (l1s[row] as number) * b + Math.abs(estimate) * 1e-12 + (cosine ? absolute : absolute * (norms[row] as number));
          const upper = estimate + bound;
          if (upper < threshold) continue;
          list.push(row, upper);
          const lower = estimate - bound;
          if (size < topK) size = pushHeap(heap, undefined, size, lower, row);
          else if (lower > (heap[0] as number)) replaceRoot(heap, undefined, size, lower, row);
          if (size >= topK) threshold = heap[0] as number;
        }
        sizes[j] = size;
        if (list.length > 16 * topK + 512) pruneCandidates(list, threshold);
      }
    }
    return candidates.map((list, j) => {
      const threshold = (sizes[j] as number) < topK ? -Infinity : ((heaps[j] as Float64Array)[0] as number);
      const slots: number[] = [];
      for (let c = 0; c < list.length; c += 2) if ((list[c + 1] as number) >= threshold) slots.push(list[c] as number);
      return Int32Array.from(slots);
    });
  };

  /** Binary first stage: the `keep` rows with the smallest Hamming distance between sign codes (ties: lower slot first). */
  const binaryCandidates = (query: Float32Array, keep: number): Int32Array => {
    const rows = idBySlot.length;
    const target = binary as Int8Kernel;
    const i32b = new Int32Array(target.buffer);
    const u16b = new Uint16Array(target.buffer);
    i32b.fill(0, histogramOffset / 4, histogramOffset / 4 + dimensions + 1);
    writeBits(bitsQueryOffset, query);
    target.hamming(bitsCodes, rows, bstride, bitsQueryOffset, distanceOffset, histogramOffset);
    // Largest distance t with fewer than `keep` rows strictly below it: all rows < t, then rows at t in slot order.
    let below = 0;
    let threshold = 0;
    while (threshold <= dimensions && below + (i32b[histogramOffset / 4 + threshold] as number) < keep) {
      below += i32b[histogramOffset / 4 + threshold] as number;
      threshold += 1;
    }
    let atThreshold = keep - below;
    const selected = new Int32Array(Math.min(keep, rows));
    let count = 0;
    const base = distanceOffset / 2;
    for (let row = 0; row < rows; row += 1) {
      const distance = u16b[base + row] as number;
      if (distance < threshold) selected[count++] = row;
      else if (distance === threshold && atThreshold > 0) {
        selected[count++] = row;
        atThreshold -= 1;
      }
    }
    return selected.subarray(0, count);
  };

  /** The int8 stage over given rows (query codes in slot `j`): the same two modes as the full scans. */
  const scanCandidates = (info: QueryInfo, j: number, rowsIn: Int32Array, topK: number, shortlist: number | 'exact'): Int32Array => {
    const queryAt = queryOffset + j * stride * 2;
    const out = outOffset / 4;
    if (shortlist !== 'exact') {
      const keep = Math.min(rowsIn.length, Math.max(topK, shortlist));
      const scores = new Float64Array(keep);
      const slots = new Int32Array(keep);
      let size = 0;
      for (const row of rowsIn) {
        kernel.dot8(codesOffset + row * stride, 1, stride, queryAt, outOffset);
        const estimate = (i32[out] as number) * (scales[row] as number);
        if (size < keep) size = pushHeap(scores, slots, size, estimate, row);
        else if (estimate > (scores[0] as number)) replaceRoot(scores, slots, size, estimate, row);
      }
      return slots.subarray(0, size);
    }
    const { factor, a, b, absolute } = info;
    const k = Math.min(topK, rowsIn.length);
    const heap = new Float64Array(k);
    let size = 0;
    const uppers = new Float64Array(rowsIn.length);
    rowsIn.forEach((row, c) => {
      kernel.dot8(codesOffset + row * stride, 1, stride, queryAt, outOffset);
      const scale = scales[row] as number;
      const estimate = (i32[out] as number) * scale * factor;
      const bound = scale * a + (l1s[row] as number) * b + Math.abs(estimate) * 1e-12 + (cosine ? absolute : absolute * (norms[row] as number));
      uppers[c] = estimate + bound;
      const lower = estimate - bound;
      if (size < k) size = pushHeap(heap, undefined, size, lower, row);
      else if (lower > (heap[0] as number)) replaceRoot(heap, undefined, size, lower, row);
    });
    const threshold = size < k ? -Infinity : (heap[0] as number);
    const kept: number[] = [];
    rowsIn.forEach((row, c) => {
      if ((uppers[c] as number) >= threshold) kept.push(row);
    });
    return Int32Array.from(kept);
  };

  let readBuffer = new Float32Array(0);
  let readRows = new Int32Array(0);
  /** Row-source mode: reads the candidates' float rows (sorted by source row) in one call; returns them in that order. */
  const readCandidates = (candidates: Int32Array): { slots: Int32Array; rowsRead: Float32Array } => {
    const count = candidates.length;
    if (readRows.length < count) readRows = new Int32Array(Math.max(count, 2 * readRows.length));
    if (readBuffer.length < count * dimensions) readBuffer = new Float32Array(readRows.length * dimensions);
    const order = Int32Array.from(candidates).sort((x, y) => (sourceRows[x] as number) - (sourceRows[y] as number));
    for (let k = 0; k < count; k += 1) readRows[k] = sourceRows[order[k] as number] as number;
    (source as VectorRowSource).read(readRows.subarray(0, count), count, readBuffer.subarray(0, count * dimensions));
    return { slots: order, rowsRead: readBuffer };
  };

  const finish = (query: Float32Array, queryNorm: number, topK: number, candidates: Int32Array): FlatSearchHit[] => {
    const hits: FlatSearchHit[] = [];
    if (source) {
      const { slots, rowsRead } = readCandidates(candidates);
      slots.forEach((slot, k) => hits.push({ id: idBySlot[slot] as string, score: rerankScore(slot, query, queryNorm, rowsRead, k) }));
    } else for (const slot of candidates) hits.push({ id: idBySlot[slot] as string, score: rerankScore(slot, query, queryNorm) });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (hits.length > topK) hits.length = topK;
    return hits;
  };

  /** Candidates re-ranked by the last search (exact mode: the rows whose bound reached the top k). */
  let lastCandidates = 0;
  const runBatch = (queries: readonly Float32Array[], topK: number, shortlist: number | 'exact', prefilterKeep: number): FlatSearchHit[][] => {
    const rows = idBySlot.length;
    if (rows === 0 || topK === 0) return queries.map(() => []);
    const results: FlatSearchHit[][] = [];
    lastCandidates = 0;
    for (let start = 0; start < queries.length; start += QUERY_SLOTS) {
      const group = queries.slice(start, start + QUERY_SLOTS);
      const queryNorms = group.map(norm);
      // Unused slots of a 4-query kernel call score a zero query (their results are ignored).
      i16.fill(0, queryOffset / 2, queryOffset / 2 + QUERY_SLOTS * stride);
      const infos = group.map((query, j) => writeQuery(j, query, queryNorms[j] as number));
      const lists = binary
        ? group.map((query, j) => scanCandidates(infos[j] as QueryInfo, j, binaryCandidates(query, Math.max(topK, prefilterKeep)), topK, shortlist))
        : shortlist === 'exact'
          ? scanExact(infos, Math.min(topK, rows))
          : scanShortlist(infos, Math.min(rows, Math.max(topK, shortlist)));
      group.forEach((query, j) => {
        lastCandidates += (lists[j] as Int32Array).length;
        results.push(finish(query, queryNorms[j] as number, topK, lists[j] as Int32Array));
      });
    }
    return results;
  };

  const validateQueries = (queries: readonly Float32Array[], method: string) => {
    if (!Array.isArray(queries)) throw new InvalidArgumentError({ where: `QuantizedFlatIndex.${method}`, argument: 'queries', message: 'must be an array of Float32Array' });
    queries.forEach((query, index) => checkStoreVector(query, dimensions, `QuantizedFlatIndex.${method}`, `queries[${index}]`));
  };

  const index: QuantizedFlatIndex = {
    dimensions,
    metric,
    kernel: kernel.kind,
    threads: 1,
    quantization: 'int8',
    floatVectors: source ? 'source' : (floatVectors as 'keep' | 'drop'),
    shortlist: defaultShortlist,
    prefilter,
    prefilterShortlist: defaultPrefilterShortlist,
    get size() {
      return idBySlot.length;
    },
    get lastReranked() {
      return lastCandidates;
    },
    upsert(entries) {
      if (!Array.isArray(entries)) throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.upsert', argument: 'entries', message: 'must be an array' });
      const seen = new Set<string>();
      entries.forEach((entry, position) => {
        assertNonEmptyString(`entries[${position}].id`, entry?.id, 'QuantizedFlatIndex.upsert');
        if (seen.has(entry.id)) {
          throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.upsert', argument: `entries[${position}].id`, message: `duplicates id "${entry.id}" within one call` });
        }
        seen.add(entry.id);
        checkStoreVector(entry.vector, dimensions, 'QuantizedFlatIndex.upsert', `entries[${position}].vector`);
      });
      let added = 0;
      for (const entry of entries) if (!slotById.has(entry.id)) added += 1;
      if (source) {
        const existing = entries.find((entry) => slotById.has(entry.id));
        if (existing) {
          throw new FactkitError(
            'unsupported',
            `QuantizedFlatIndex.upsert: id "${existing.id}" is already indexed; replacing a vector is unsupported with a row source (its row cannot be rewritten) — delete it and add it under a new row instead`,
          );
        }
        if (source.rows !== undefined && nextSourceRow + added > source.rows) {
          throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.upsert', argument: 'entries', message: `would use rows ${nextSourceRow}..${nextSourceRow + added - 1} of the row source, which holds only ${source.rows} rows` });
        }
      }
      grow(idBySlot.length + added);
      for (const entry of entries) {
        let slot = slotById.get(entry.id);
        if (slot === undefined) {
          slot = idBySlot.length;
          idBySlot.push(entry.id);
          slotById.set(entry.id, slot);
          if (source) sourceRows[slot] = nextSourceRow++;
        }
        writeRow(slot, entry.vector);
      }
    },
    delete(ids) {
      if (!Array.isArray(ids)) throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.delete', argument: 'ids', message: 'must be an array of strings' });
      let removed = 0;
      for (const id of ids) {
        const slot = slotById.get(id);
        if (slot === undefined) continue;
        const last = idBySlot.length - 1;
        if (slot !== last) {
          // Move the last row into the hole so the codes stay contiguous.
          const lastId = idBySlot[last] as string;
          const from = codesOffset + last * stride;
          i8.copyWithin(codesOffset + slot * stride, from, from + stride);
          scales[slot] = scales[last] as number;
          l1s[slot] = l1s[last] as number;
          norms[slot] = norms[last] as number;
          if (binary) bits.copyWithin(bitsCodes + slot * bstride, bitsCodes + last * bstride, bitsCodes + (last + 1) * bstride);
          if (keepFloats) floats.copyWithin(slot * dimensions, last * dimensions, (last + 1) * dimensions);
          if (source) sourceRows[slot] = sourceRows[last] as number;
          idBySlot[slot] = lastId;
          slotById.set(lastId, slot);
        }
        idBySlot.pop();
        slotById.delete(id);
        removed += 1;
      }
      return removed;
    },
    has(id) {
      return slotById.has(id);
    },
    getVector(id) {
      const slot = slotById.get(id);
      if (slot === undefined) return undefined;
      if (keepFloats) return floats.slice(slot * dimensions, (slot + 1) * dimensions);
      if (source) {
        const out = new Float32Array(dimensions);
        source.read(Int32Array.of(sourceRows[slot] as number), 1, out);
        return out;
      }
      const base = codesOffset + slot * stride;
      const factor = (scales[slot] as number) * (cosine ? (norms[slot] as number) : 1);
      return Float32Array.from({ length: dimensions }, (_, i) => (i8[base + i] as number) * factor);
    },
    ids() {
      return [...idBySlot];
    },
    search(query, searchOptions = {}) {
      const { topK = 10, shortlist = defaultShortlist, prefilterShortlist = defaultPrefilterShortlist } = searchOptions;
      checkStoreTopK(topK, 'QuantizedFlatIndex.search');
      checkShortlist(shortlist, 'QuantizedFlatIndex.search');
      checkPrefilterShortlist(prefilterShortlist, 'QuantizedFlatIndex.search');
      checkStoreVector(query, dimensions, 'QuantizedFlatIndex.search', 'query');
      return runBatch([query], topK, shortlist, prefilterShortlist)[0] as FlatSearchHit[];
    },
    searchBatch(queries, searchOptions = {}) {
      const { topK = 10, shortlist = defaultShortlist, prefilterShortlist = defaultPrefilterShortlist } = searchOptions;
      checkStoreTopK(topK, 'QuantizedFlatIndex.searchBatch');
      checkShortlist(shortlist, 'QuantizedFlatIndex.searchBatch');
      checkPrefilterShortlist(prefilterShortlist, 'QuantizedFlatIndex.searchBatch');
      validateQueries(queries, 'searchBatch');
      return runBatch(queries, topK, shortlist, prefilterShortlist);
    },
    async searchAsync(query, searchOptions) {
      return index.search(query, searchOptions);
    },
    async searchBatchAsync(queries, searchOptions) {
      return index.searchBatch(queries, searchOptions);
    },
    memoryUsage() {
      const rows = idBySlot.length;
      const scannedBytes = rows * stride;
      const rowMetadataBytes = rows * (source ? 28 : 24);
      const floatBytes = keepFloats ? rows * dimensions * 4 : 0;
      const prefilterBytes = binary ? rows * bstride : 0;
      return {
        scannedBytes,
        rowMetadataBytes,
        floatBytes,
        prefilterBytes,
        totalBytes: scannedBytes + rowMetadataBytes + floatBytes + prefilterBytes,
        allocatedBytes: kernel.buffer.byteLength + (binary ? binary.buffer.byteLength : 0) + scales.byteLength + l1s.byteLength + norms.byteLength + floats.byteLength + sourceRows.byteLength,
      };
    },
    async close() {
      // Single-threaded: nothing to stop.
    },
  };
  return index;
}
