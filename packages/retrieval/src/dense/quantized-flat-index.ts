import { assertPositiveInteger, FactkitError, InvalidArgumentError } from '@factkit/core';
import { checkStoreMetric, checkStoreTopK, checkStoreVector } from '../stores/validate-records.js';
import type { FlatIndex, FlatSearchHit, FlatSearchOptions, VectorMetric } from './flat-index.js';
import { createInt8Kernel, INT8_KERNEL_MAX_BYTES, type Int8Kernel } from './kernel/load-int8-kernel.js';
import { pruneCandidates } from './scan-rows.js';
import { checkUpsertBatch, removeBySwap, slotFor } from './slot-table.js';

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

/** The checked options of a quantized index and the memory layout they imply. */
interface QuantizedSettings {
  readonly dimensions: number;
  readonly metric: VectorMetric;
  readonly cosine: boolean;
  readonly initialCapacity: number;
  readonly preferredKernel: 'auto' | 'wasm' | 'js';
  readonly floatVectors: 'keep' | 'drop' | VectorRowSource;
  readonly source: VectorRowSource | undefined;
  readonly keepFloats: boolean;
  /** Exact re-ranking against float32 rows, in memory or from the source. */
  readonly exactFloats: boolean;
  readonly defaultShortlist: number | 'exact';
  readonly blockRows: number;
  readonly prefilter: 'none' | 'binary';
  readonly defaultPrefilterShortlist: number;
  /** Row stride of the int8 codes (dimensions rounded up to 16). */
  readonly stride: number;
  /** Largest query code: every integer dot product stays below 2^31 (exact in int32). */
  readonly queryMax: number;
  // int8 kernel memory: [query codes (QUERY_SLOTS × stride int16) | int32 sums (QUERY_SLOTS × blockRows) | codes]
  readonly queryOffset: number;
  readonly outOffset: number;
  readonly codesOffset: number;
  // Binary first stage: its own kernel memory laid out as [histogram | query bits | u16 distances | sign codes].
  readonly bstride: number;
  readonly histogramOffset: number;
  readonly bitsQueryOffset: number;
  readonly distanceOffset: number;
}

const bytesFor = (s: QuantizedSettings, capacity: number) => s.codesOffset + capacity * s.stride;
const bitsCodesOffset = (s: QuantizedSettings, rowCapacity: number) => s.distanceOffset + Math.ceil((rowCapacity * 2) / 16) * 16;
const binaryBytesFor = (s: QuantizedSettings, rowCapacity: number) => bitsCodesOffset(s, rowCapacity) + rowCapacity * s.bstride;

function checkShortlist(value: unknown, at: string, floatVectors: QuantizedSettings['floatVectors']): number | 'exact' {
  if (value === 'exact') {
    if (floatVectors === 'drop') throw new InvalidArgumentError({ where: at, argument: 'shortlist', message: "'exact' needs floatVectors 'keep' or a row source (the float32 rows it re-ranks against)" });
    return value;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError({ where: at, argument: 'shortlist', message: `must be 'exact' or a positive integer (got ${String(value)})` });
  }
  return value;
}

function checkPrefilterShortlist(value: unknown, at: string): number {
  assertPositiveInteger('prefilterShortlist', value, at);
  return value;
}

/** Checks the options and computes the layout. */
function resolveQuantizedSettings(options: QuantizedFlatIndexOptions): QuantizedSettings {
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
  checkShortlist(defaultShortlist, where, floatVectors);
  assertPositiveInteger('blockRows', blockRows, where);
  if (prefilter !== 'none' && prefilter !== 'binary') {
    throw new InvalidArgumentError({ where, argument: 'prefilter', message: `must be 'none' or 'binary' (got ${String(prefilter)})` });
  }
  checkPrefilterShortlist(defaultPrefilterShortlist, where);
  const stride = Math.ceil(dimensions / 16) * 16;
  const queryMax = Math.min(32767, Math.floor((2 ** 31 - 1) / (CODE_MAX * stride)));
  if (queryMax < 127) {
    throw new InvalidArgumentError({ where, argument: 'dimensions', message: `must be at most ${Math.floor((2 ** 31 - 1) / (CODE_MAX * 127) / 16) * 16} for exact 32-bit integer sums (got ${dimensions})` });
  }
  const outOffset = QUERY_SLOTS * stride * 2;
  const bstride = Math.ceil(dimensions / 64) * 8;
  const bitsQueryOffset = Math.ceil(((dimensions + 1) * 4) / 16) * 16;
  const settings: QuantizedSettings = {
    dimensions,
    metric,
    cosine: metric === 'cosine',
    initialCapacity,
    preferredKernel,
    floatVectors,
    source,
    keepFloats: floatVectors === 'keep',
    exactFloats: floatVectors === 'keep' || source !== undefined,
    defaultShortlist,
    blockRows,
    prefilter,
    defaultPrefilterShortlist,
    stride,
    queryMax,
    queryOffset: 0,
    outOffset,
    codesOffset: Math.ceil((outOffset + QUERY_SLOTS * blockRows * 4) / 16) * 16,
    bstride,
    histogramOffset: 0,
    bitsQueryOffset,
    distanceOffset: bitsQueryOffset + Math.ceil(bstride / 16) * 16,
  };
  if (bytesFor(settings, initialCapacity) > INT8_KERNEL_MAX_BYTES) {
    throw new InvalidArgumentError({ where, argument: 'initialCapacity', message: `needs ${bytesFor(settings, initialCapacity)} bytes, more than the 4 GiB a quantized flat index can address` });
  }
  return settings;
}

/**
 * The rows of a quantized index: int8 codes in kernel memory, one scale, code L1 norm and vector norm per row, the
 * optional float32 copy, source rows and sign codes, and the ids. Growing replaces the arrays, so code that scans reads
 * them into locals first (no growth happens during a scan).
 */
interface QuantizedRows {
  readonly kernel: Int8Kernel;
  readonly binary: Int8Kernel | undefined;
  capacity: number;
  i8: Int8Array;
  i16: Int16Array;
  i32: Int32Array;
  scales: Float64Array;
  /** scale × Σ|code|: the L1 norm of the dequantized row, for the error bound of exact mode. */
  l1s: Float64Array;
  norms: Float64Array;
  floats: Float32Array;
  /** Row-source mode: the source row of each slot (deletes move slots, never source rows), and the next new row. */
  sourceRows: Int32Array;
  nextSourceRow: number;
  bits: Uint8Array;
  bitsCodes: number;
  readonly idBySlot: string[];
  readonly slotById: Map<string, number>;
  /** Candidates re-ranked by the last search (exact mode: the rows whose bound reached the top k). */
  lastCandidates: number;
  /** Row-source mode: scratch for the rows read per search. */
  readBuffer: Float32Array;
  readRows: Int32Array;
}

function createQuantizedRows(s: QuantizedSettings): QuantizedRows {
  const kernel = createInt8Kernel(bytesFor(s, s.initialCapacity), s.preferredKernel);
  const binary = s.prefilter === 'binary' ? createInt8Kernel(binaryBytesFor(s, s.initialCapacity), kernel.kind === 'js' ? 'js' : 'wasm') : undefined;
  const capacity = s.initialCapacity;
  return {
    kernel,
    binary,
    capacity,
    i8: new Int8Array(kernel.buffer),
    i16: new Int16Array(kernel.buffer),
    i32: new Int32Array(kernel.buffer),
    scales: new Float64Array(capacity),
    l1s: new Float64Array(capacity),
    norms: new Float64Array(capacity),
    floats: new Float32Array(s.keepFloats ? capacity * s.dimensions : 0),
    sourceRows: new Int32Array(s.source ? capacity : 0),
    nextSourceRow: 0,
    bits: new Uint8Array(binary ? binary.buffer : new ArrayBuffer(0)),
    bitsCodes: bitsCodesOffset(s, s.initialCapacity),
    idBySlot: [],
    slotById: new Map(),
    lastCandidates: 0,
    readBuffer: new Float32Array(0),
    readRows: new Int32Array(0),
  };
}

/** A copy of `array` with room for `next` entries, keeping its first `count`. */
function grown<T extends Float64Array | Float32Array | Int32Array>(array: T, next: number, count: number, make: (length: number) => T): T {
  const copy = make(next);
  copy.set(array.subarray(0, count));
  return copy;
}

/** Makes room for `needed` rows (capacity doubles), moving the sign codes up behind the grown distance region. */
function growRows(s: QuantizedSettings, r: QuantizedRows, needed: number): void {
  if (needed <= r.capacity) return;
  const { dimensions } = s;
  const { kernel, binary } = r;
  let next = r.capacity;
  while (next < needed) next *= 2;
  if (bytesFor(s, next) > INT8_KERNEL_MAX_BYTES) {
    if (bytesFor(s, needed) > INT8_KERNEL_MAX_BYTES) {
      throw new FactkitError('unsupported', `QuantizedFlatIndex: ${needed} vectors of ${dimensions} dimensions exceed the 4 GiB a single index can address; shard the collection`);
    }
    next = needed;
  }
  kernel.grow(bytesFor(s, next));
  r.i8 = new Int8Array(kernel.buffer);
  r.i16 = new Int16Array(kernel.buffer);
  r.i32 = new Int32Array(kernel.buffer);
  const count = r.idBySlot.length;
  if (binary) {
    if (binaryBytesFor(s, next) > INT8_KERNEL_MAX_BYTES) {
      throw new FactkitError('unsupported', `QuantizedFlatIndex: ${needed} binary codes exceed the 4 GiB a single index can address; shard the collection`);
    }
    binary.grow(binaryBytesFor(s, next));
    r.bits = new Uint8Array(binary.buffer);
    const moved = bitsCodesOffset(s, next);
    r.bits.copyWithin(moved, r.bitsCodes, r.bitsCodes + count * s.bstride);
    r.bitsCodes = moved;
  }
  r.scales = grown(r.scales, next, count, (length) => new Float64Array(length));
  r.norms = grown(r.norms, next, count, (length) => new Float64Array(length));
  if (s.keepFloats) r.floats = grown(r.floats, next * dimensions, count * dimensions, (length) => new Float32Array(length));
  if (s.source) r.sourceRows = grown(r.sourceRows, next, count, (length) => new Int32Array(length));
  r.l1s = grown(r.l1s, next, count, (length) => new Float64Array(length));
  r.capacity = next;
}

/** Writes the sign code (one bit per dimension, `x_i > 0`) of `vector` at byte `target` of `bits`. */
function writeBits(s: QuantizedSettings, bits: Uint8Array, target: number, vector: Float32Array): void {
  const { dimensions, bstride } = s;
  bits.fill(0, target, target + bstride);
  for (let i = 0; i < dimensions; i += 1) if ((vector[i] as number) > 0) bits[target + (i >> 3)] = (bits[target + (i >> 3)] as number) | (1 << (i & 7));
}

/** Stores one vector in `slot`: its norm, float32 copy, sign code and int8 codes with their scale and L1 norm. */
function writeRow(s: QuantizedSettings, r: QuantizedRows, slot: number, vector: Float32Array): void {
  const { dimensions, cosine, codesOffset, stride } = s;
  const { i8, scales, l1s, norms } = r;
  let squares = 0;
  for (let i = 0; i < dimensions; i += 1) squares += (vector[i] as number) * (vector[i] as number);
  const norm = Math.sqrt(squares);
  norms[slot] = norm;
  if (s.keepFloats) r.floats.set(vector, slot * dimensions);
  if (r.binary) writeBits(s, r.bits, r.bitsCodes + slot * s.bstride, vector);
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
}

/** Checks and stores a batch of entries (new ids get new slots; row-source mode refuses replacing an id). */
function upsertRows(s: QuantizedSettings, r: QuantizedRows, entries: readonly { readonly id: string; readonly vector: Float32Array }[]): void {
  const where = 'QuantizedFlatIndex.upsert';
  const added = checkUpsertBatch(entries, s.dimensions, r.slotById, where);
  const { idBySlot, slotById } = r;
  const { source } = s;
  if (source) {
    const existing = entries.find((entry) => slotById.has(entry.id));
    if (existing) {
      throw new FactkitError(
        'unsupported',
        `QuantizedFlatIndex.upsert: id "${existing.id}" is already indexed; replacing a vector is unsupported with a row source (its row cannot be rewritten) — delete it and add it under a new row instead`,
      );
    }
    if (source.rows !== undefined && r.nextSourceRow + added > source.rows) {
      throw new InvalidArgumentError({ where, argument: 'entries', message: `would use rows ${r.nextSourceRow}..${r.nextSourceRow + added - 1} of the row source, which holds only ${source.rows} rows` });
    }
  }
  growRows(s, r, idBySlot.length + added);
  const onNew = source ? (slot: number) => (r.sourceRows[slot] = r.nextSourceRow++) : undefined;
  for (const entry of entries) writeRow(s, r, slotFor(idBySlot, slotById, entry.id, onNew), entry.vector);
}

/** Removes ids (unknown ones ignored), moving the last row into each hole so the codes stay contiguous. */
function deleteRows(s: QuantizedSettings, r: QuantizedRows, ids: readonly string[]): number {
  if (!Array.isArray(ids)) throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.delete', argument: 'ids', message: 'must be an array of strings' });
  const { dimensions, codesOffset, stride, bstride } = s;
  return removeBySwap(r.idBySlot, r.slotById, ids, (slot, last) => {
    const from = codesOffset + last * stride;
    r.i8.copyWithin(codesOffset + slot * stride, from, from + stride);
    r.scales[slot] = r.scales[last] as number;
    r.l1s[slot] = r.l1s[last] as number;
    r.norms[slot] = r.norms[last] as number;
    if (r.binary) r.bits.copyWithin(r.bitsCodes + slot * bstride, r.bitsCodes + last * bstride, r.bitsCodes + (last + 1) * bstride);
    if (s.keepFloats) r.floats.copyWithin(slot * dimensions, last * dimensions, (last + 1) * dimensions);
    if (s.source) r.sourceRows[slot] = r.sourceRows[last] as number;
  });
}

/** A stored vector: the float32 copy, the source row, or the dequantized codes ('drop'). */
function readVector(s: QuantizedSettings, r: QuantizedRows, id: string): Float32Array | undefined {
  const { dimensions } = s;
  const slot = r.slotById.get(id);
  if (slot === undefined) return undefined;
  if (s.keepFloats) return r.floats.slice(slot * dimensions, (slot + 1) * dimensions);
  if (s.source) {
    const out = new Float32Array(dimensions);
    s.source.read(Int32Array.of(r.sourceRows[slot] as number), 1, out);
    return out;
  }
  const base = s.codesOffset + slot * s.stride;
  const factor = (r.scales[slot] as number) * (s.cosine ? (r.norms[slot] as number) : 1);
  const i8 = r.i8;
  return Float32Array.from({ length: dimensions }, (_, i) => (i8[base + i] as number) * factor);
}

function quantizedMemory(s: QuantizedSettings, r: QuantizedRows): QuantizedIndexMemory {
  const rows = r.idBySlot.length;
  const scannedBytes = rows * s.stride;
  const rowMetadataBytes = rows * (s.source ? 28 : 24);
  const floatBytes = s.keepFloats ? rows * s.dimensions * 4 : 0;
  const prefilterBytes = r.binary ? rows * s.bstride : 0;
  return {
    scannedBytes,
    rowMetadataBytes,
    floatBytes,
    prefilterBytes,
    totalBytes: scannedBytes + rowMetadataBytes + floatBytes + prefilterBytes,
    allocatedBytes: r.kernel.buffer.byteLength + (r.binary ? r.binary.buffer.byteLength : 0) + r.scales.byteLength + r.l1s.byteLength + r.norms.byteLength + r.floats.byteLength + r.sourceRows.byteLength,
  };
}

function vectorNorm(vector: Float32Array): number {
  let squares = 0;
  for (let i = 0; i < vector.length; i += 1) squares += (vector[i] as number) * (vector[i] as number);
  return Math.sqrt(squares);
}

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
function writeQuery(s: QuantizedSettings, i16: Int16Array, j: number, query: Float32Array, queryNorm: number): QueryInfo {
  const { dimensions, cosine, stride, queryMax } = s;
  const base = s.queryOffset / 2 + j * stride;
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
}

/** Exact score (float64 over the float32 copy), or the dequantized estimate when float vectors are dropped. */
function rerankScore(s: QuantizedSettings, r: QuantizedRows, slot: number, query: Float32Array, queryNorm: number, rowsRead?: Float32Array, at = 0): number {
  const { dimensions, cosine } = s;
  let dot = 0;
  if (s.exactFloats) {
    const from = rowsRead ?? r.floats;
    const base = rowsRead ? at * dimensions : slot * dimensions;
    for (let i = 0; i < dimensions; i += 1) dot += (from[base + i] as number) * (query[i] as number);
    if (!cosine) return dot;
    const rowNorm = r.norms[slot] as number;
    return rowNorm === 0 || queryNorm === 0 ? 0 : dot / (rowNorm * queryNorm);
  }
  const i8 = r.i8;
  const base = s.codesOffset + slot * s.stride;
  for (let i = 0; i < dimensions; i += 1) dot += (i8[base + i] as number) * (query[i] as number);
  dot *= r.scales[slot] as number;
  // Codes hold the unit vector under cosine, the raw vector under inner product.
  if (!cosine) return dot;
  return queryNorm === 0 ? 0 : dot / queryNorm;
}

/** Min-heap insert of `value` (the root is the smallest kept); returns the new size. */
function pushHeap(scores: Float64Array, slots: Int32Array | undefined, size: number, value: number, slot: number): number {
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
}

function replaceRoot(scores: Float64Array, slots: Int32Array | undefined, size: number, value: number, slot: number): void {
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
}

/** Scores one block of rows for every query in the slots (int32 sums land in the out region). */
function scoreBlock(s: QuantizedSettings, kernel: Int8Kernel, block: number, count: number, queryCount: number): void {
  const { stride, queryOffset, outOffset, blockRows } = s;
  const matrix = s.codesOffset + block * stride;
  if (queryCount === 1) kernel.dot8(matrix, count, stride, queryOffset, outOffset);
  else for (let g = 0; g < queryCount; g += 4) kernel.dot8x4(matrix, count, stride, queryOffset + g * stride * 2, outOffset + g * blockRows * 4, blockRows);
}

/** Fixed shortlist: one pass over the codes, keeping each query's `keep` best estimates. */
function scanShortlist(s: QuantizedSettings, r: QuantizedRows, queries: readonly QueryInfo[], keep: number): Int32Array[] {
  const { blockRows, outOffset } = s;
  const { kernel, i32, scales } = r;
  const rows = r.idBySlot.length;
  const queryCount = queries.length;
  const heapScores = queries.map(() => new Float64Array(keep));
  const heapSlots = queries.map(() => new Int32Array(keep));
  const sizes = new Array<number>(queryCount).fill(0);
  for (let block = 0; block < rows; block += blockRows) {
    const count = Math.min(blockRows, rows - block);
    scoreBlock(s, kernel, block, count, queryCount);
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
}

/**
 * Exact mode: every row gets an interval [estimate − bound, estimate + bound] that contains its exact score; the k-th
 * largest lower bound T is tracked, and every row whose upper bound reaches T is a candidate (the true top k always
 * are). Candidates are then re-scored exactly, so the result equals a float64 brute force.
 */
function scanExact(s: QuantizedSettings, r: QuantizedRows, queries: readonly QueryInfo[], topK: number): Int32Array[] {
  const { blockRows, outOffset, cosine } = s;
  const { kernel, i32, scales, l1s, norms } = r;
  const rows = r.idBySlot.length;
  const queryCount = queries.length;
  const heaps = queries.map(() => new Float64Array(topK));
  const sizes = new Array<number>(queryCount).fill(0);
  const candidates: number[][] = queries.map(() => []);
  for (let block = 0; block < rows; block += blockRows) {
    const count = Math.min(blockRows, rows - block);
    scoreBlock(s, kernel, block, count, queryCount);
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
}

/** Binary first stage: the `keep` rows with the smallest Hamming distance between sign codes (ties: lower slot first). */
function binaryCandidates(s: QuantizedSettings, r: QuantizedRows, query: Float32Array, keep: number): Int32Array {
  const { dimensions, histogramOffset, bitsQueryOffset, distanceOffset, bstride } = s;
  const rows = r.idBySlot.length;
  const target = r.binary as Int8Kernel;
  const i32b = new Int32Array(target.buffer);
  const u16b = new Uint16Array(target.buffer);
  i32b.fill(0, histogramOffset / 4, histogramOffset / 4 + dimensions + 1);
  writeBits(s, r.bits, bitsQueryOffset, query);
  target.hamming(r.bitsCodes, rows, bstride, bitsQueryOffset, distanceOffset, histogramOffset);
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
}

/** The int8 stage over given rows (query codes in slot `j`): the same two modes as the full scans. */
function scanCandidates(s: QuantizedSettings, r: QuantizedRows, info: QueryInfo, j: number, rowsIn: Int32Array, topK: number, shortlist: number | 'exact'): Int32Array {
  const { stride, outOffset, codesOffset, cosine } = s;
  const { kernel, i32, scales, l1s, norms } = r;
  const queryAt = s.queryOffset + j * stride * 2;
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
}

/** Row-source mode: reads the candidates' float rows (sorted by source row) in one call; returns them in that order. */
function readCandidates(s: QuantizedSettings, r: QuantizedRows, candidates: Int32Array): { slots: Int32Array; rowsRead: Float32Array } {
  const { dimensions } = s;
  const count = candidates.length;
  if (r.readRows.length < count) r.readRows = new Int32Array(Math.max(count, 2 * r.readRows.length));
  if (r.readBuffer.length < count * dimensions) r.readBuffer = new Float32Array(r.readRows.length * dimensions);
  const { sourceRows, readRows, readBuffer } = r;
  const order = Int32Array.from(candidates).sort((x, y) => (sourceRows[x] as number) - (sourceRows[y] as number));
  for (let k = 0; k < count; k += 1) readRows[k] = sourceRows[order[k] as number] as number;
  (s.source as VectorRowSource).read(readRows.subarray(0, count), count, readBuffer.subarray(0, count * dimensions));
  return { slots: order, rowsRead: readBuffer };
}

/** Re-scores the candidates exactly (or dequantized) and keeps the top k, ties by id. */
function finish(s: QuantizedSettings, r: QuantizedRows, query: Float32Array, queryNorm: number, topK: number, candidates: Int32Array): FlatSearchHit[] {
  const { idBySlot } = r;
  const hits: FlatSearchHit[] = [];
  if (s.source) {
    const { slots, rowsRead } = readCandidates(s, r, candidates);
    slots.forEach((slot, k) => hits.push({ id: idBySlot[slot] as string, score: rerankScore(s, r, slot, query, queryNorm, rowsRead, k) }));
  } else for (const slot of candidates) hits.push({ id: idBySlot[slot] as string, score: rerankScore(s, r, slot, query, queryNorm) });
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (hits.length > topK) hits.length = topK;
  return hits;
}

/** Searches queries in groups of QUERY_SLOTS: codes written, candidates found by the configured stages, re-ranked. */
function runBatch(s: QuantizedSettings, r: QuantizedRows, queries: readonly Float32Array[], topK: number, shortlist: number | 'exact', prefilterKeep: number): FlatSearchHit[][] {
  const rows = r.idBySlot.length;
  if (rows === 0 || topK === 0) return queries.map(() => []);
  const results: FlatSearchHit[][] = [];
  r.lastCandidates = 0;
  const { i16 } = r;
  for (let start = 0; start < queries.length; start += QUERY_SLOTS) {
    const group = queries.slice(start, start + QUERY_SLOTS);
    const queryNorms = group.map(vectorNorm);
    // Unused slots of a 4-query kernel call score a zero query (their results are ignored).
    i16.fill(0, s.queryOffset / 2, s.queryOffset / 2 + QUERY_SLOTS * s.stride);
    const infos = group.map((query, j) => writeQuery(s, i16, j, query, queryNorms[j] as number));
    const lists = r.binary
      ? group.map((query, j) => scanCandidates(s, r, infos[j] as QueryInfo, j, binaryCandidates(s, r, query, Math.max(topK, prefilterKeep)), topK, shortlist))
      : shortlist === 'exact'
        ? scanExact(s, r, infos, Math.min(topK, rows))
        : scanShortlist(s, r, infos, Math.min(rows, Math.max(topK, shortlist)));
    group.forEach((query, j) => {
      r.lastCandidates += (lists[j] as Int32Array).length;
      results.push(finish(s, r, query, queryNorms[j] as number, topK, lists[j] as Int32Array));
    });
  }
  return results;
}

/** Checks one search's options against the index's defaults. */
function searchSettings(s: QuantizedSettings, options: QuantizedFlatSearchOptions, at: string): { topK: number; shortlist: number | 'exact'; prefilterShortlist: number } {
  const { topK = 10, shortlist = s.defaultShortlist, prefilterShortlist = s.defaultPrefilterShortlist } = options;
  checkStoreTopK(topK, at);
  checkShortlist(shortlist, at, s.floatVectors);
  checkPrefilterShortlist(prefilterShortlist, at);
  return { topK, shortlist, prefilterShortlist };
}

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
 *
 * Steps (module functions over the settings `s` and the rows `r`): `resolveQuantizedSettings` (options, layout),
 * `createQuantizedRows` / `growRows` / `writeRow` / `upsertRows` / `deleteRows` (storage), `runBatch` → `writeQuery`,
 * `scanExact` | `scanShortlist` | `binaryCandidates` + `scanCandidates`, then `finish` (exact re-ranking).
 * @throws InvalidArgumentError for bad dimensions, metric, capacity, kernel, shortlist, floatVectors, blockRows, prefilter
 * or prefilterShortlist.
 * @example
 * const index = createQuantizedFlatIndex({ dimensions: 384 });
 * index.upsert(entries);
 * index.search(query, { topK: 10 }); // the same hits and scores as createFlatIndex, scanning ¼ of the bytes
 */
export function createQuantizedFlatIndex(options: QuantizedFlatIndexOptions): QuantizedFlatIndex {
  const s = resolveQuantizedSettings(options);
  const r = createQuantizedRows(s);
  const validateQueries = (queries: readonly Float32Array[], method: string) => {
    if (!Array.isArray(queries)) throw new InvalidArgumentError({ where: `QuantizedFlatIndex.${method}`, argument: 'queries', message: 'must be an array of Float32Array' });
    queries.forEach((query, index) => checkStoreVector(query, s.dimensions, `QuantizedFlatIndex.${method}`, `queries[${index}]`));
  };
  const index: QuantizedFlatIndex = {
    dimensions: s.dimensions,
    metric: s.metric,
    kernel: r.kernel.kind,
    threads: 1,
    quantization: 'int8',
    floatVectors: s.source ? 'source' : (s.floatVectors as 'keep' | 'drop'),
    shortlist: s.defaultShortlist,
    prefilter: s.prefilter,
    prefilterShortlist: s.defaultPrefilterShortlist,
    get size() {
      return r.idBySlot.length;
    },
    get lastReranked() {
      return r.lastCandidates;
    },
    upsert: (entries) => upsertRows(s, r, entries),
    delete: (ids) => deleteRows(s, r, ids),
    has: (id) => r.slotById.has(id),
    getVector: (id) => readVector(s, r, id),
    ids: () => [...r.idBySlot],
    search(query, searchOptions = {}) {
      const { topK, shortlist, prefilterShortlist } = searchSettings(s, searchOptions, 'QuantizedFlatIndex.search');
      checkStoreVector(query, s.dimensions, 'QuantizedFlatIndex.search', 'query');
      return runBatch(s, r, [query], topK, shortlist, prefilterShortlist)[0] as FlatSearchHit[];
    },
    searchBatch(queries, searchOptions = {}) {
      const { topK, shortlist, prefilterShortlist } = searchSettings(s, searchOptions, 'QuantizedFlatIndex.searchBatch');
      validateQueries(queries, 'searchBatch');
      return runBatch(s, r, queries, topK, shortlist, prefilterShortlist);
    },
    async searchAsync(query, searchOptions) {
      return index.search(query, searchOptions);
    },
    async searchBatchAsync(queries, searchOptions) {
      return index.searchBatch(queries, searchOptions);
    },
    memoryUsage: () => quantizedMemory(s, r),
    async close() {
      // Single-threaded: nothing to stop.
    },
  };
  return index;
}
