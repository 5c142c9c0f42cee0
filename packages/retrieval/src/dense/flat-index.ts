import { assertPositiveInteger, FactkitError, InvalidArgumentError } from '@factkit/core';
import { createDotKernel, type DotKernel } from './kernel/load-kernel.js';
import { checkStoreMetric, checkStoreTopK, checkStoreVector } from '../stores/validate-records.js';
import { scanRows, type ScanJob, type ScanPartial } from './scan-rows.js';
import { createScanWorkerPool, type ScanWorkerPool } from './scan-worker-pool.js';
import { checkUpsertBatch, removeBySwap, slotFor } from './slot-table.js';

/** Similarity of a flat index or vector store: cosine, or inner product (equal to cosine on L2-normalized vectors). */
export type VectorMetric = 'cosine' | 'inner-product';

export interface FlatIndexOptions {
  /** Length of every vector. */
  readonly dimensions: number;
  /** @default 'cosine' */
  readonly metric?: VectorMetric;
  /** Rows to reserve up front (the index doubles its capacity when full). @default 1024 */
  readonly initialCapacity?: number;
  /**
   * Scoring kernel: 'wasm' (WebAssembly SIMD, float32 candidates then exact float64 re-scoring), 'js' (plain
   * JavaScript), or 'auto' (wasm when the runtime supports SIMD and shared memory). @default 'auto'
   */
  readonly kernel?: 'auto' | 'wasm' | 'js';
  /**
   * Threads that scan the matrix in `searchAsync` / `searchBatchAsync`: the calling thread plus `threads - 1`
   * worker threads over shared memory (Node.js, wasm kernel only). Call `close()` to stop the workers. @default 1
   */
  readonly threads?: number;
  /** Rows scored per kernel call (tuning knob). @default 2048 */
  readonly blockRows?: number;
  /**
   * What single-query scans read: 'bfloat16' keeps a second, half-size copy of the matrix (1.5× memory) that halves
   * the memory traffic of a single-query scan; the error bound widens to match, so results stay exact. 'float32'
   * reads the float32 matrix. Batched scans always read float32. Ignored by the 'js' kernel. @default 'bfloat16'
   */
  readonly singleQueryScan?: 'bfloat16' | 'float32';
}

/** One search hit: the id and its exact similarity. */
export interface FlatSearchHit {
  readonly id: string;
  readonly score: number;
}

export interface FlatSearchOptions {
  /** @default 10 */
  readonly topK?: number;
}

/** An exact (brute-force) vector index over one contiguous float32 matrix. */
export interface FlatIndex {
  readonly dimensions: number;
  readonly metric: VectorMetric;
  /** Which kernel scores rows: 'wasm-simd' or 'js'. */
  readonly kernel: 'wasm-simd' | 'js';
  /** Threads used by the async searches. */
  readonly threads: number;
  readonly size: number;
  /** Adds or replaces vectors (copied). Validates every vector before changing anything. */
  upsert(entries: readonly { readonly id: string; readonly vector: Float32Array }[]): void;
  /** Removes ids; unknown ids are ignored. Returns how many were removed. */
  delete(ids: readonly string[]): number;
  has(id: string): boolean;
  /** A copy of the stored vector, or undefined. */
  getVector(id: string): Float32Array | undefined;
  /** Ids in storage order. */
  ids(): string[];
  /** Exact top-k by similarity, ties broken by id (ascending). */
  search(query: Float32Array, options?: FlatSearchOptions): FlatSearchHit[];
  /** Exact top-k for many queries; several queries share each pass over the matrix. */
  searchBatch(queries: readonly Float32Array[], options?: FlatSearchOptions): FlatSearchHit[][];
  /** Like `search`, but scans with all `threads`. */
  searchAsync(query: Float32Array, options?: FlatSearchOptions): Promise<FlatSearchHit[]>;
  /** Like `searchBatch`, but scans with all `threads`. */
  searchBatchAsync(queries: readonly Float32Array[], options?: FlatSearchOptions): Promise<FlatSearchHit[][]>;
  /** Stops the worker threads (idempotent). The index stays usable single-threaded. */
  close(): Promise<void>;
}

/** Queries scored per pass over the matrix. */
const QUERY_SLOTS = 16;
/** WebAssembly memories (wasm32) and ArrayBuffers top out near 4 GiB; keep a margin. */
const MAX_BYTES = 4 * 1024 ** 3 - 64 * 1024 ** 2;
const UNIT_ROUNDOFF = 2 ** -24;
const BFLOAT16_ROUNDOFF = 2 ** -8;
const SMALLEST_SUBNORMAL = 2 ** -149;

interface Layout {
  readonly capacity: number;
  readonly halfOffset: number;
  readonly queryOffset: number;
  readonly outOffset: number;
  readonly outBytesPerThread: number;
  readonly counterOffset: number;
  readonly normsOffset: number;
  readonly matrixOffset: number;
  readonly totalBytes: number;
}

function computeLayout(capacity: number, stride: number, blockRows: number, threads: number, halfStride: number): Layout {
  const align = (value: number, to: number) => Math.ceil(value / to) * to;
  const queryOffset = 0;
  const outOffset = align(queryOffset + QUERY_SLOTS * stride * 4, 16);
  const outBytesPerThread = align(QUERY_SLOTS * blockRows * 4, 16);
  const counterOffset = align(outOffset + threads * outBytesPerThread, 16);
  const normsOffset = counterOffset + 16;
  const matrixOffset = align(normsOffset + capacity * 8, 16);
  const halfOffset = align(matrixOffset + capacity * stride * 4, 16);
  const totalBytes = halfOffset + capacity * halfStride * 2;
  return { capacity, queryOffset, outOffset, outBytesPerThread, counterOffset, normsOffset, matrixOffset, halfOffset, totalBytes };
}

/** The checked options of a flat index, its kernel kind and the error-bound constants of its scans. */
interface FlatSettings {
  readonly dimensions: number;
  readonly metric: VectorMetric;
  readonly cosine: boolean;
  readonly initialCapacity: number;
  readonly threads: number;
  readonly blockRows: number;
  /** Row stride of the float32 matrix (dimensions rounded up to 4). */
  readonly stride: number;
  /** Row stride of the bfloat16 copy; 0 when single queries scan the float32 matrix. */
  readonly halfStride: number;
  readonly kernelKind: 'wasm-simd' | 'js';
  readonly effectiveThreads: number;
  /** Relative and absolute error bounds of a float32 scan, and of a bfloat16 scan (its absolute term needs the query norm). */
  readonly gamma: number;
  readonly absolute: number;
  readonly gammaHalf: number;
  readonly terms: number;
  readonly halfStrideWanted: number;
}

/** Checks the options, picks the kernel and derives the error-bound constants. */
function resolveFlatSettings(options: FlatIndexOptions): FlatSettings {
  const where = 'createFlatIndex';
  const { dimensions, metric = 'cosine', initialCapacity = 1024, kernel: preferredKernel = 'auto', threads = 1, blockRows = 2048, singleQueryScan = 'bfloat16' } = options;
  assertPositiveInteger('dimensions', dimensions, where);
  checkStoreMetric(metric, where);
  assertPositiveInteger('initialCapacity', initialCapacity, where);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw new InvalidArgumentError({ where, argument: 'threads', message: `must be an integer from 1 to 64 (got ${threads})` });
  }
  assertPositiveInteger('blockRows', blockRows, where);
  if (singleQueryScan !== 'bfloat16' && singleQueryScan !== 'float32') {
    throw new InvalidArgumentError({ where, argument: 'singleQueryScan', message: `must be 'bfloat16' or 'float32' (got ${String(singleQueryScan)})` });
  }
  if (preferredKernel !== 'auto' && preferredKernel !== 'wasm' && preferredKernel !== 'js') {
    throw new InvalidArgumentError({ where, argument: 'kernel', message: `must be 'auto', 'wasm' or 'js' (got ${String(preferredKernel)})` });
  }
  const stride = Math.ceil(dimensions / 4) * 4;
  // Error bound of a float32 dot product with any summation order of at most `terms` additions per term
  // (Higham, Accuracy and Stability of Numerical Algorithms, eq. 3.5): |fl(x·y) − x·y| ≤ γ_n Σ|x_i y_i| ≤ γ_n ‖x‖‖y‖,
  // γ_n = n·u / (1 − n·u), plus one subnormal spacing per term for underflow. Doubled for margin.
  const halfStrideWanted = Math.ceil(dimensions / 8) * 8;
  const terms = Math.max(stride, halfStrideWanted) + 8;
  const gammaN = (terms * UNIT_ROUNDOFF) / (1 - terms * UNIT_ROUNDOFF);
  // The kernel is chosen first (the bfloat16 copy exists only with the wasm kernel), then the memory is laid out.
  const probeKind = createDotKernel(64, preferredKernel).kind;
  const useHalfScan = probeKind === 'wasm-simd' && singleQueryScan === 'bfloat16';
  return {
    dimensions,
    metric,
    cosine: metric === 'cosine',
    initialCapacity,
    threads,
    blockRows,
    stride,
    halfStride: useHalfScan ? halfStrideWanted : 0,
    kernelKind: probeKind,
    effectiveThreads: probeKind === 'wasm-simd' ? threads : 1,
    gamma: 2 * gammaN,
    absolute: 2 * terms * SMALLEST_SUBNORMAL,
    // bfloat16 rows: rounding to nearest changes each x_i by at most 2^-8·|x_i| (+2^-134 below the normal range), so
    // |x̃·y − x·y| ≤ 2^-8‖x‖‖y‖ + 2^-134·Σ|y_i|, on top of the float32 summation error γ_n(1 + 2^-8)‖x‖‖y‖.
    gammaHalf: 2 * (BFLOAT16_ROUNDOFF + gammaN * (1 + BFLOAT16_ROUNDOFF)),
    terms,
    halfStrideWanted,
  };
}

const absoluteHalf = (s: FlatSettings, queryNorm: number) => 2 * (s.terms * SMALLEST_SUBNORMAL + Math.sqrt(s.halfStrideWanted) * queryNorm * 2 ** -134);

/**
 * The rows of a flat index: the kernel memory (matrix, norms, bfloat16 copy, query and output regions), its typed views,
 * the ids, the worker pool and the serialisation of searches. Growing replaces the kernel and the views.
 */
interface FlatRows {
  layout: Layout;
  kernel: DotKernel;
  f32: Float32Array;
  f64: Float64Array;
  u16: Uint16Array;
  readonly idBySlot: string[];
  readonly slotById: Map<string, number>;
  pool: ScanWorkerPool | undefined;
  /** Bumped when the kernel memory is replaced (workers re-attach). */
  generation: number;
  /** A search in progress owns the query/out regions; async searches are serialized through this chain. */
  queue: Promise<unknown>;
  busy: boolean;
}

function createFlatRows(s: FlatSettings): FlatRows {
  const layout = computeLayout(s.initialCapacity, s.stride, s.blockRows, s.threads, s.halfStride);
  if (layout.totalBytes > MAX_BYTES) {
    throw new InvalidArgumentError({ where: 'createFlatIndex', argument: 'initialCapacity', message: `needs ${layout.totalBytes} bytes, more than the 4 GiB a flat index can address` });
  }
  const kernel = createDotKernel(layout.totalBytes, s.kernelKind === 'wasm-simd' ? 'wasm' : 'js');
  return {
    layout,
    kernel,
    f32: new Float32Array(kernel.buffer),
    f64: new Float64Array(kernel.buffer),
    u16: new Uint16Array(kernel.buffer),
    idBySlot: [],
    slotById: new Map(),
    pool: undefined,
    generation: 0,
    queue: Promise.resolve(),
    busy: false,
  };
}

/** Makes room for `needed` rows (capacity doubles) in a new kernel memory, copying norms, matrix and bfloat16 rows. */
function growFlatRows(s: FlatSettings, r: FlatRows, needed: number): void {
  const { layout, f32, f64, u16 } = r;
  if (needed <= layout.capacity) return;
  let capacity = layout.capacity;
  while (capacity < needed) capacity *= 2;
  const next = computeLayout(capacity, s.stride, s.blockRows, s.threads, s.halfStride);
  if (next.totalBytes > MAX_BYTES) {
    throw new FactkitError('unsupported', `FlatIndex: ${needed} vectors of ${s.dimensions} dimensions exceed the 4 GiB a single flat index can address; shard the collection or use a database-backed store`);
  }
  const nextKernel = createDotKernel(next.totalBytes, s.kernelKind === 'wasm-simd' ? 'wasm' : 'js');
  const nextF32 = new Float32Array(nextKernel.buffer);
  const nextF64 = new Float64Array(nextKernel.buffer);
  const count = r.idBySlot.length;
  nextF64.set(f64.subarray(layout.normsOffset / 8, layout.normsOffset / 8 + count), next.normsOffset / 8);
  nextF32.set(f32.subarray(layout.matrixOffset / 4, layout.matrixOffset / 4 + count * s.stride), next.matrixOffset / 4);
  const nextU16 = new Uint16Array(nextKernel.buffer);
  nextU16.set(u16.subarray(layout.halfOffset / 2, layout.halfOffset / 2 + count * s.halfStride), next.halfOffset / 2);
  r.layout = next;
  r.kernel = nextKernel;
  r.f32 = nextF32;
  r.f64 = nextF64;
  r.u16 = nextU16;
  r.generation += 1;
}

/** Stores one vector in `slot`: float32 row, bfloat16 row (when scanned) and norm. */
function writeFlatRow(s: FlatSettings, r: FlatRows, slot: number, vector: Float32Array): void {
  const { dimensions, stride, halfStride } = s;
  const { layout, f32, f64, u16 } = r;
  const base = layout.matrixOffset / 4 + slot * stride;
  f32.set(vector, base);
  if (halfStride > 0) {
    // Round each float32 to the nearest bfloat16 (ties to even): keep the top 16 bits after adding half an ulp.
    const bits = new Uint32Array(vector.buffer, vector.byteOffset, vector.length);
    const halfBase = layout.halfOffset / 2 + slot * halfStride;
    for (let i = 0; i < dimensions; i += 1) {
      const value = bits[i] as number;
      u16[halfBase + i] = (value + 0x7fff + ((value >>> 16) & 1)) >>> 16;
    }
  }
  let squares = 0;
  for (let i = 0; i < dimensions; i += 1) squares += (vector[i] as number) * (vector[i] as number);
  f64[layout.normsOffset / 8 + slot] = Math.sqrt(squares);
}

/** Checks and stores a batch of entries (new ids get new slots). */
function upsertFlatRows(s: FlatSettings, r: FlatRows, entries: readonly { readonly id: string; readonly vector: Float32Array }[]): void {
  const added = checkUpsertBatch(entries, s.dimensions, r.slotById, 'FlatIndex.upsert');
  growFlatRows(s, r, r.idBySlot.length + added);
  for (const entry of entries) writeFlatRow(s, r, slotFor(r.idBySlot, r.slotById, entry.id), entry.vector);
}

/** Removes ids (unknown ones ignored), moving the last row into each hole so the matrix stays contiguous. */
function deleteFlatRows(s: FlatSettings, r: FlatRows, ids: readonly string[]): number {
  const { stride, halfStride } = s;
  const { layout, f32, f64, u16 } = r;
  return removeBySwap(r.idBySlot, r.slotById, ids, (slot, last) => {
    const from = layout.matrixOffset / 4 + last * stride;
    f32.copyWithin(layout.matrixOffset / 4 + slot * stride, from, from + stride);
    f64[layout.normsOffset / 8 + slot] = f64[layout.normsOffset / 8 + last] as number;
    if (halfStride > 0) {
      const halfFrom = layout.halfOffset / 2 + last * halfStride;
      u16.copyWithin(layout.halfOffset / 2 + slot * halfStride, halfFrom, halfFrom + halfStride);
    }
  });
}

function exactScore(s: FlatSettings, r: FlatRows, slot: number, query: Float32Array, queryNorm: number): number {
  const { dimensions } = s;
  const { layout, f32, f64 } = r;
  const base = layout.matrixOffset / 4 + slot * s.stride;
  let dot = 0;
  for (let i = 0; i < dimensions; i += 1) dot += (f32[base + i] as number) * (query[i] as number);
  if (!s.cosine) return dot;
  const rowNorm = f64[layout.normsOffset / 8 + slot] as number;
  return rowNorm === 0 || queryNorm === 0 ? 0 : dot / (rowNorm * queryNorm);
}

function vectorNorm(vector: Float32Array): number {
  let squares = 0;
  for (let i = 0; i < vector.length; i += 1) squares += (vector[i] as number) * (vector[i] as number);
  return Math.sqrt(squares);
}

/** Final step: merge partial scans, keep rows whose upper bound reaches the k-th lower bound, re-score in float64. */
function finishFlat(s: FlatSettings, r: FlatRows, query: Float32Array, queryNorm: number, topK: number, partials: readonly ScanPartial[], index: number): FlatSearchHit[] {
  const lowers: number[] = [];
  for (const partial of partials) for (const value of partial.lowers[index] ?? []) lowers.push(value);
  lowers.sort((a, b) => b - a);
  const threshold = lowers.length >= topK && topK > 0 ? (lowers[topK - 1] as number) : -Infinity;
  const hits: { id: string; score: number }[] = [];
  for (const partial of partials) {
    const list = partial.candidates[index] ?? [];
    for (let c = 0; c < list.length; c += 2) {
      if ((list[c + 1] as number) < threshold) continue;
      const slot = list[c] as number;
      hits.push({ id: r.idBySlot[slot] as string, score: exactScore(s, r, slot, query, queryNorm) });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (hits.length > topK) hits.length = topK;
  return hits;
}

function makeJob(s: FlatSettings, r: FlatRows, queryCount: number, topK: number, queryNorms: number[], rowStart: number, rowEnd: number, thread: number, shared = false): ScanJob {
  const { layout } = r;
  const useHalf = s.halfStride > 0 && queryCount === 1;
  return {
    rowStart,
    rowEnd,
    queryCount,
    topK,
    cosine: s.cosine,
    queryNorms,
    queryOffset: layout.queryOffset,
    outOffset: layout.outOffset + thread * layout.outBytesPerThread,
    normsOffset: layout.normsOffset,
    matrixOffset: layout.matrixOffset,
    stride: s.stride,
    blockRows: s.blockRows,
    gamma: useHalf ? s.gammaHalf : s.gamma,
    absolute: useHalf ? absoluteHalf(s, queryNorms[0] as number) : s.absolute,
    useHalf,
    halfOffset: layout.halfOffset,
    halfStride: s.halfStride,
    counterOffset: shared ? layout.counterOffset : -1,
  };
}

/**
 * Writes the queries into the kernel's query slots one group of up to QUERY_SLOTS at a time. The next group is
 * written only when the caller asks for it, i.e. after it has finished scanning the previous one.
 */
function* queryGroups(s: FlatSettings, r: FlatRows, queries: readonly Float32Array[]): Generator<{ group: Float32Array[]; queryNorms: number[] }> {
  for (let start = 0; start < queries.length; start += QUERY_SLOTS) {
    const group = queries.slice(start, start + QUERY_SLOTS);
    const queryNorms = group.map(vectorNorm);
    const { f32, layout } = r;
    f32.fill(0, layout.queryOffset / 4, layout.queryOffset / 4 + QUERY_SLOTS * s.stride);
    group.forEach((query, j) => f32.set(query, layout.queryOffset / 4 + j * s.stride));
    yield { group, queryNorms };
  }
}

const scanOnCallingThread = (s: FlatSettings, r: FlatRows, groupSize: number, topK: number, queryNorms: number[], count: number): ScanPartial[] => [
  scanRows(r.kernel, r.kernel.buffer, makeJob(s, r, groupSize, topK, queryNorms, 0, count, 0)),
];

/** Scans one query group on every thread: all threads pull blocks of rows from one shared counter. */
async function scanOnAllThreads(s: FlatSettings, r: FlatRows, groupSize: number, topK: number, queryNorms: number[], count: number): Promise<ScanPartial[]> {
  r.pool ??= createScanWorkerPool(s.effectiveThreads - 1);
  await r.pool.start();
  const { kernel, layout, pool } = r;
  // A thread on a busy core simply does fewer blocks.
  Atomics.store(new Int32Array(kernel.buffer, layout.counterOffset, 1), 0, 0);
  const jobs: Promise<ScanPartial>[] = [];
  for (let t = 1; t < s.effectiveThreads; t += 1) {
    jobs.push(pool.run(t - 1, kernel.memory as WebAssembly.Memory, r.generation, makeJob(s, r, groupSize, topK, queryNorms, 0, count, t, true)));
  }
  const own = scanRows(kernel, kernel.buffer, makeJob(s, r, groupSize, topK, queryNorms, 0, count, 0, true));
  return [own, ...(await Promise.all(jobs))];
}

async function runFlatBatch(s: FlatSettings, r: FlatRows, queries: readonly Float32Array[], topK: number, parallel: boolean): Promise<FlatSearchHit[][]> {
  const count = r.idBySlot.length;
  if (count === 0 || topK === 0) return queries.map(() => []);
  const results: FlatSearchHit[][] = [];
  for (const { group, queryNorms } of queryGroups(s, r, queries)) {
    const partials =
      parallel && s.effectiveThreads > 1 && count >= s.effectiveThreads * s.blockRows && r.kernel.memory
        ? await scanOnAllThreads(s, r, group.length, topK, queryNorms, count)
        : scanOnCallingThread(s, r, group.length, topK, queryNorms, count);
    group.forEach((query, j) => results.push(finishFlat(s, r, query, queryNorms[j] as number, topK, partials, j)));
  }
  return results;
}

function runFlatBatchSync(s: FlatSettings, r: FlatRows, queries: readonly Float32Array[], topK: number): FlatSearchHit[][] {
  const count = r.idBySlot.length;
  if (count === 0 || topK === 0) return queries.map(() => []);
  const results: FlatSearchHit[][] = [];
  for (const { group, queryNorms } of queryGroups(s, r, queries)) {
    const partials = scanOnCallingThread(s, r, group.length, topK, queryNorms, count);
    group.forEach((query, j) => results.push(finishFlat(s, r, query, queryNorms[j] as number, topK, partials, j)));
  }
  return results;
}

/** Runs an async search after the ones before it, marking the index busy for synchronous calls meanwhile. */
function serializeSearch<T>(r: FlatRows, task: () => Promise<T>): Promise<T> {
  const run = async () => {
    r.busy = true;
    try {
      return await task();
    } finally {
      r.busy = false;
    }
  };
  const next = r.queue.then(run, run);
  r.queue = next.catch(() => undefined);
  return next;
}

function guardSync<T>(r: FlatRows, task: () => T): T {
  if (r.busy) throw new FactkitError('unsupported', 'FlatIndex: a synchronous call was made while a multi-threaded search is running; await it first');
  return task();
}

function validateQueries(s: FlatSettings, queries: readonly Float32Array[], topK: number, method: string): void {
  checkStoreTopK(topK, `FlatIndex.${method}`);
  if (!Array.isArray(queries)) throw new InvalidArgumentError({ where: `FlatIndex.${method}`, argument: 'queries', message: 'must be an array of Float32Array' });
  queries.forEach((query, index) => checkStoreVector(query, s.dimensions, `FlatIndex.${method}`, method.startsWith('searchBatch') ? `queries[${index}]` : 'query'));
}

/**
 * Creates an exact flat index: vectors live in one float32 matrix; a WebAssembly SIMD kernel computes float32 dot
 * products for several queries per pass, a proven error bound keeps every row that could still be in the top k, and
 * those candidates are re-scored in float64, so results equal a float64 brute force (ties broken by id).
 *
 * Steps (module functions over the settings `s` and the rows `r`): `resolveFlatSettings` (options, kernel, error
 * bounds), `createFlatRows` / `growFlatRows` / `writeFlatRow` / `upsertFlatRows` / `deleteFlatRows` (storage),
 * `runFlatBatch(Sync)` → `queryGroups`, `scanOnCallingThread` | `scanOnAllThreads` (`scanRows`), `finishFlat` (float64 re-scoring).
 * @throws InvalidArgumentError for bad dimensions, metric, threads or capacity.
 * @example
 * const index = createFlatIndex({ dimensions: 3 });
 * index.upsert([{ id: 'a', vector: new Float32Array([1, 0, 0]) }]);
 * index.search(new Float32Array([1, 0, 0]), { topK: 1 }); // [{ id: 'a', score: 1 }]
 */
export function createFlatIndex(options: FlatIndexOptions): FlatIndex {
  const s = resolveFlatSettings(options);
  const r = createFlatRows(s);
  const { dimensions } = s;
  return {
    dimensions,
    metric: s.metric,
    kernel: s.kernelKind,
    threads: s.effectiveThreads,
    get size() {
      return r.idBySlot.length;
    },
    upsert: (entries) => guardSync(r, () => upsertFlatRows(s, r, entries)),
    delete: (ids) => guardSync(r, () => deleteFlatRows(s, r, ids)),
    has: (id) => r.slotById.has(id),
    getVector(id) {
      const slot = r.slotById.get(id);
      if (slot === undefined) return undefined;
      const base = r.layout.matrixOffset / 4 + slot * s.stride;
      return r.f32.slice(base, base + dimensions);
    },
    ids: () => [...r.idBySlot],
    search(query, searchOptions = {}) {
      const { topK = 10 } = searchOptions;
      return guardSync(r, () => {
        checkStoreTopK(topK, 'FlatIndex.search');
        checkStoreVector(query, dimensions, 'FlatIndex.search', 'query');
        return runFlatBatchSync(s, r, [query], topK)[0] as FlatSearchHit[];
      });
    },
    searchBatch(queries, searchOptions = {}) {
      const { topK = 10 } = searchOptions;
      return guardSync(r, () => {
        validateQueries(s, queries, topK, 'searchBatch');
        return runFlatBatchSync(s, r, queries, topK);
      });
    },
    async searchAsync(query, searchOptions = {}) {
      const { topK = 10 } = searchOptions;
      checkStoreTopK(topK, 'FlatIndex.searchAsync');
      checkStoreVector(query, dimensions, 'FlatIndex.searchAsync', 'query');
      return serializeSearch(r, async () => (await runFlatBatch(s, r, [query], topK, true))[0] as FlatSearchHit[]);
    },
    async searchBatchAsync(queries, searchOptions = {}) {
      const { topK = 10 } = searchOptions;
      validateQueries(s, queries, topK, 'searchBatchAsync');
      return serializeSearch(r, () => runFlatBatch(s, r, queries, topK, true));
    },
    async close() {
      const current = r.pool;
      r.pool = undefined;
      await current?.close();
    },
  };
}
