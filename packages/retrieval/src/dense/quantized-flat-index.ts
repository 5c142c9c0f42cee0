import { FactkitError, InvalidArgumentError } from '@factkit/core';
import { checkStoreMetric, checkStoreTopK, checkStoreVector } from '../stores/validate-records.js';
import type { FlatIndex, FlatSearchHit, FlatSearchOptions, VectorMetric } from './flat-index.js';
import { createInt8Kernel, INT8_KERNEL_MAX_BYTES, type Int8Kernel } from './kernel/load-int8-kernel.js';

export interface QuantizedFlatIndexOptions {
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
  /**
   * Rows kept from the int8 scan and re-ranked exactly, per query (never fewer than `topK`); a search option of the
   * same name overrides it. Larger is slower and closer to exact; at least the index size gives exact search.
   * @default 100
   */
  readonly shortlist?: number;
  /**
   * 'keep': a float32 copy of every vector stays in memory and the shortlist is re-scored exactly in float64 (scores
   * equal `createFlatIndex`'s). 'drop': only the int8 codes (plus one scale and one norm per row) are kept, ¼ of the
   * float32 memory; the shortlist is re-scored against the dequantized rows (float query × int8 code × scale), so
   * scores and order are approximations and `getVector` returns the dequantized vector. @default 'keep'
   */
  readonly floatVectors?: 'keep' | 'drop';
  /** Rows scored per kernel call (tuning knob). @default 1024 */
  readonly blockRows?: number;
}

export interface QuantizedFlatSearchOptions extends FlatSearchOptions {
  /** Rows re-ranked exactly for this search. @default the index's `shortlist` */
  readonly shortlist?: number;
}

/** Bytes held by a quantized flat index. */
export interface QuantizedIndexMemory {
  /** Bytes read by every scan: the int8 codes (rows × stride). */
  readonly scannedBytes: number;
  /** Per-row scales and norms (float64 each). */
  readonly rowMetadataBytes: number;
  /** The float32 copy used for exact re-ranking (0 with `floatVectors: 'drop'`). */
  readonly floatBytes: number;
  /** Everything above for the rows stored (capacity reserved for growth not counted). */
  readonly totalBytes: number;
  /** Bytes actually allocated: kernel memory (codes, query and output buffers at capacity) plus typed arrays at capacity. */
  readonly allocatedBytes: number;
}

/**
 * A flat index over int8 codes (one scale per vector) with exact re-ranking of a shortlist. Same search surface as
 * `FlatIndex`; results are approximate only when the true top k fall outside the shortlist of the int8 scan.
 */
export interface QuantizedFlatIndex extends FlatIndex {
  readonly quantization: 'int8';
  readonly floatVectors: 'keep' | 'drop';
  /** Default shortlist size. */
  readonly shortlist: number;
  search(query: Float32Array, options?: QuantizedFlatSearchOptions): FlatSearchHit[];
  searchBatch(queries: readonly Float32Array[], options?: QuantizedFlatSearchOptions): FlatSearchHit[][];
  searchAsync(query: Float32Array, options?: QuantizedFlatSearchOptions): Promise<FlatSearchHit[]>;
  searchBatchAsync(queries: readonly Float32Array[], options?: QuantizedFlatSearchOptions): Promise<FlatSearchHit[][]>;
  memoryUsage(): QuantizedIndexMemory;
}

/** Queries scored per pass over the codes (a multiple of 4: the kernel scores four per call). */
const QUERY_SLOTS = 16;
const CODE_MAX = 127;

/**
 * Creates a scalar-quantized flat index: each vector (L2-normalised first under cosine) is stored as int8 codes
 * `round(127 · x_i / max|x|)` with its own scale `max|x| / 127`. A query is scaled to int16 (as large as 32-bit sums
 * allow, so only the rows are quantized), a WebAssembly SIMD kernel computes exact integer dot products over ¼ of the
 * float32 bytes, the `shortlist` best estimates are kept per query, and those are re-scored exactly in float64 against
 * a float32 copy (ties by id), so the top k equal `createFlatIndex`'s whenever the true top k are in the shortlist.
 *
 * Why one scale per vector rather than per dimension: it needs no training pass and never re-quantizes, so upsert and
 * delete stay incremental and the codes do not depend on which vectors came first; the exact re-ranking absorbs the
 * extra error that per-dimension ranges would have saved on anisotropic data.
 * @throws InvalidArgumentError for bad dimensions, metric, capacity, kernel, shortlist, floatVectors or blockRows.
 * @example
 * const index = createQuantizedFlatIndex({ dimensions: 384 });
 * index.upsert(entries);
 * index.search(query, { topK: 10 }); // exact scores of the best 10 of the 100-row int8 shortlist
 */
export function createQuantizedFlatIndex(options: QuantizedFlatIndexOptions): QuantizedFlatIndex {
  const where = 'createQuantizedFlatIndex';
  const {
    dimensions,
    metric = 'cosine',
    initialCapacity = 1024,
    kernel: preferredKernel = 'auto',
    shortlist: defaultShortlist = 100,
    floatVectors = 'keep',
    blockRows = 1024,
  } = options ?? ({} as QuantizedFlatIndexOptions);
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new InvalidArgumentError({ where, argument: 'dimensions', message: `must be a positive integer (got ${String(dimensions)})` });
  }
  checkStoreMetric(metric, where);
  if (!Number.isInteger(initialCapacity) || initialCapacity < 1) {
    throw new InvalidArgumentError({ where, argument: 'initialCapacity', message: `must be a positive integer (got ${String(initialCapacity)})` });
  }
  if (preferredKernel !== 'auto' && preferredKernel !== 'wasm' && preferredKernel !== 'js') {
    throw new InvalidArgumentError({ where, argument: 'kernel', message: `must be 'auto', 'wasm' or 'js' (got ${String(preferredKernel)})` });
  }
  if (!Number.isInteger(defaultShortlist) || defaultShortlist < 1) {
    throw new InvalidArgumentError({ where, argument: 'shortlist', message: `must be a positive integer (got ${String(defaultShortlist)})` });
  }
  if (floatVectors !== 'keep' && floatVectors !== 'drop') {
    throw new InvalidArgumentError({ where, argument: 'floatVectors', message: `must be 'keep' or 'drop' (got ${String(floatVectors)})` });
  }
  if (!Number.isInteger(blockRows) || blockRows < 1) {
    throw new InvalidArgumentError({ where, argument: 'blockRows', message: `must be a positive integer (got ${String(blockRows)})` });
  }
  const stride = Math.ceil(dimensions / 16) * 16;
  const cosine = metric === 'cosine';
  const keepFloats = floatVectors === 'keep';
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
  let norms = new Float64Array(capacity);
  let floats = new Float32Array(keepFloats ? capacity * dimensions : 0);
  const idBySlot: string[] = [];
  const slotById = new Map<string, number>();

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
    const nextScales = new Float64Array(next);
    nextScales.set(scales.subarray(0, count));
    const nextNorms = new Float64Array(next);
    nextNorms.set(norms.subarray(0, count));
    if (keepFloats) {
      const nextFloats = new Float32Array(next * dimensions);
      nextFloats.set(floats.subarray(0, count * dimensions));
      floats = nextFloats;
    }
    scales = nextScales;
    norms = nextNorms;
    capacity = next;
  };

  const writeRow = (slot: number, vector: Float32Array) => {
    let squares = 0;
    for (let i = 0; i < dimensions; i += 1) squares += (vector[i] as number) * (vector[i] as number);
    const norm = Math.sqrt(squares);
    norms[slot] = norm;
    if (keepFloats) floats.set(vector, slot * dimensions);
    // Under cosine the codes represent the unit vector, so estimates rank by cosine directly.
    const unit = cosine ? (norm > 0 ? 1 / norm : 0) : 1;
    let largest = 0;
    for (let i = 0; i < dimensions; i += 1) largest = Math.max(largest, Math.abs((vector[i] as number) * unit));
    const base = codesOffset + slot * stride;
    if (largest === 0 || !Number.isFinite(largest)) {
      i8.fill(0, base, base + stride);
      scales[slot] = 0;
      return;
    }
    const toCode = (CODE_MAX / largest) * unit;
    for (let i = 0; i < dimensions; i += 1) i8[base + i] = Math.round((vector[i] as number) * toCode);
    i8.fill(0, base + dimensions, base + stride);
    scales[slot] = largest / CODE_MAX;
  };

  const norm = (vector: Float32Array) => {
    let squares = 0;
    for (let i = 0; i < vector.length; i += 1) squares += (vector[i] as number) * (vector[i] as number);
    return Math.sqrt(squares);
  };

  /** Writes a query's int16 codes into slot `j` and returns the factor that turns integer sums into estimates. */
  const writeQuery = (j: number, query: Float32Array, queryNorm: number): number => {
    const base = queryOffset / 2 + j * stride;
    const unit = cosine ? (queryNorm > 0 ? 1 / queryNorm : 0) : 1;
    let largest = 0;
    for (let i = 0; i < dimensions; i += 1) largest = Math.max(largest, Math.abs((query[i] as number) * unit));
    if (largest === 0 || !Number.isFinite(largest)) {
      i16.fill(0, base, base + stride);
      return 0;
    }
    const toCode = (queryMax / largest) * unit;
    for (let i = 0; i < dimensions; i += 1) i16[base + i] = Math.round((query[i] as number) * toCode);
    i16.fill(0, base + dimensions, base + stride);
    return largest / queryMax;
  };

  /** Exact score (float64 over the float32 copy), or the dequantized estimate when float vectors are dropped. */
  const rerankScore = (slot: number, query: Float32Array, queryNorm: number): number => {
    let dot = 0;
    if (keepFloats) {
      const base = slot * dimensions;
      for (let i = 0; i < dimensions; i += 1) dot += (floats[base + i] as number) * (query[i] as number);
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

  /** One pass over the codes for `count` queries already written to the query slots; returns each query's shortlist. */
  const scan = (queryCount: number, keep: number): Int32Array[] => {
    const rows = idBySlot.length;
    const heapScores: Float64Array[] = [];
    const heapSlots: Int32Array[] = [];
    const sizes = new Array<number>(queryCount).fill(0);
    for (let j = 0; j < queryCount; j += 1) {
      heapScores.push(new Float64Array(keep));
      heapSlots.push(new Int32Array(keep));
    }
    const groups = Math.ceil(queryCount / 4);
    for (let block = 0; block < rows; block += blockRows) {
      const count = Math.min(blockRows, rows - block);
      const matrix = codesOffset + block * stride;
      if (queryCount === 1) kernel.dot8(matrix, count, stride, queryOffset, outOffset);
      else for (let g = 0; g < groups; g += 1) kernel.dot8x4(matrix, count, stride, queryOffset + g * 4 * stride * 2, outOffset + g * 4 * blockRows * 4, blockRows);
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
          // Min-heap of the `keep` best estimates (ties: the earlier row stays; re-ranking orders exactly).
          if (size < keep) {
            let index = size;
            size += 1;
            while (index > 0) {
              const parent = (index - 1) >> 1;
              if ((scores[parent] as number) <= estimate) break;
              scores[index] = scores[parent] as number;
              slots[index] = slots[parent] as number;
              index = parent;
            }
            scores[index] = estimate;
            slots[index] = row;
          } else {
            let index = 0;
            for (;;) {
              const left = 2 * index + 1;
              if (left >= size) break;
              const right = left + 1;
              const child = right < size && (scores[right] as number) < (scores[left] as number) ? right : left;
              if ((scores[child] as number) >= estimate) break;
              scores[index] = scores[child] as number;
              slots[index] = slots[child] as number;
              index = child;
            }
            scores[index] = estimate;
            slots[index] = row;
          }
          if (size >= keep) threshold = scores[0] as number;
        }
        sizes[j] = size;
      }
    }
    return heapSlots.map((slots, j) => slots.subarray(0, sizes[j] as number));
  };

  const finish = (query: Float32Array, queryNorm: number, topK: number, candidates: Int32Array): FlatSearchHit[] => {
    const hits: FlatSearchHit[] = [];
    for (const slot of candidates) hits.push({ id: idBySlot[slot] as string, score: rerankScore(slot, query, queryNorm) });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (hits.length > topK) hits.length = topK;
    return hits;
  };

  const runBatch = (queries: readonly Float32Array[], topK: number, shortlist: number): FlatSearchHit[][] => {
    const rows = idBySlot.length;
    if (rows === 0 || topK === 0) return queries.map(() => []);
    const keep = Math.min(rows, Math.max(topK, shortlist));
    const results: FlatSearchHit[][] = [];
    for (let start = 0; start < queries.length; start += QUERY_SLOTS) {
      const group = queries.slice(start, start + QUERY_SLOTS);
      const queryNorms = group.map(norm);
      // Unused slots of a 4-query kernel call score a zero query (their results are ignored).
      i16.fill(0, queryOffset / 2, queryOffset / 2 + QUERY_SLOTS * stride);
      group.forEach((query, j) => writeQuery(j, query, queryNorms[j] as number));
      const shortlists = scan(group.length, keep);
      group.forEach((query, j) => results.push(finish(query, queryNorms[j] as number, topK, shortlists[j] as Int32Array)));
    }
    return results;
  };

  const checkShortlist = (value: unknown, method: string): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new InvalidArgumentError({ where: `QuantizedFlatIndex.${method}`, argument: 'shortlist', message: `must be a positive integer (got ${String(value)})` });
    }
    return value;
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
    floatVectors,
    shortlist: defaultShortlist,
    get size() {
      return idBySlot.length;
    },
    upsert(entries) {
      if (!Array.isArray(entries)) throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.upsert', argument: 'entries', message: 'must be an array' });
      const seen = new Set<string>();
      entries.forEach((entry, position) => {
        if (typeof entry?.id !== 'string' || entry.id.length === 0) {
          throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.upsert', argument: `entries[${position}].id`, message: 'must be a non-empty string' });
        }
        if (seen.has(entry.id)) {
          throw new InvalidArgumentError({ where: 'QuantizedFlatIndex.upsert', argument: `entries[${position}].id`, message: `duplicates id "${entry.id}" within one call` });
        }
        seen.add(entry.id);
        checkStoreVector(entry.vector, dimensions, 'QuantizedFlatIndex.upsert', `entries[${position}].vector`);
      });
      let added = 0;
      for (const entry of entries) if (!slotById.has(entry.id)) added += 1;
      grow(idBySlot.length + added);
      for (const entry of entries) {
        let slot = slotById.get(entry.id);
        if (slot === undefined) {
          slot = idBySlot.length;
          idBySlot.push(entry.id);
          slotById.set(entry.id, slot);
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
          norms[slot] = norms[last] as number;
          if (keepFloats) floats.copyWithin(slot * dimensions, last * dimensions, (last + 1) * dimensions);
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
      const base = codesOffset + slot * stride;
      const factor = (scales[slot] as number) * (cosine ? (norms[slot] as number) : 1);
      return Float32Array.from({ length: dimensions }, (_, i) => (i8[base + i] as number) * factor);
    },
    ids() {
      return [...idBySlot];
    },
    search(query, searchOptions = {}) {
      const { topK = 10, shortlist = defaultShortlist } = searchOptions;
      checkStoreTopK(topK, 'QuantizedFlatIndex.search');
      checkShortlist(shortlist, 'search');
      checkStoreVector(query, dimensions, 'QuantizedFlatIndex.search', 'query');
      return runBatch([query], topK, shortlist)[0] as FlatSearchHit[];
    },
    searchBatch(queries, searchOptions = {}) {
      const { topK = 10, shortlist = defaultShortlist } = searchOptions;
      checkStoreTopK(topK, 'QuantizedFlatIndex.searchBatch');
      checkShortlist(shortlist, 'searchBatch');
      validateQueries(queries, 'searchBatch');
      return runBatch(queries, topK, shortlist);
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
      const rowMetadataBytes = rows * 16;
      const floatBytes = keepFloats ? rows * dimensions * 4 : 0;
      return {
        scannedBytes,
        rowMetadataBytes,
        floatBytes,
        totalBytes: scannedBytes + rowMetadataBytes + floatBytes,
        allocatedBytes: kernel.buffer.byteLength + scales.byteLength + norms.byteLength + floats.byteLength,
      };
    },
    async close() {
      // Single-threaded: nothing to stop.
    },
  };
  return index;
}
