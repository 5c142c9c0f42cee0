import { compileOnce, FactkitError } from '@factkit/core';
import type { VectorMatrix } from '../vector-matrix.js';
import { KMEANS_KERNEL_WASM_BASE64 } from './kmeans-kernel-wasm.js';

/** `out[r*k + j] = Σ (rows[r] − cents[j])²` in float32 for `r < nRows`, `j < k` (byte offsets, `stride` in floats). */
export type SquaredDistances = (rows: number, nRows: number, cents: number, k: number, stride: number, out: number) => void;
/** Like SquaredDistances for the rows numbered by the `nIdx` int32 at `idx`: `out[t*k + j]` for row `idx[t]`. */
export type SquaredDistancesAt = (rows: number, idx: number, nIdx: number, cents: number, k: number, stride: number, out: number) => void;
/** `out[t]` = the float32 squared distance of row `idx[t]` to its own centroid `cents[assign[idx[t]]]`. */
export type SquaredDistancesOwn = (rows: number, idx: number, nIdx: number, cents: number, assign: number, stride: number, out: number) => void;
/** `sums[assign[r]] += rows[r]` in float64, rows in order (byte offsets; `assign` int32, `sums` k × stride float64). */
export type Accumulate = (rows: number, n: number, stride: number, assign: number, sums: number) => void;

/** `Σ_r Σ_i (rows[r][i] − cents[assign[r]][i])²` in float64 (byte offsets; `cents` k × stride float64). */
export type Inertia = (rows: number, n: number, stride: number, assign: number, cents: number) => number;

/** Rows whose distances to all centroids one `sqdist` call computes in a full pass. */
export const KMEANS_BLOCK_ROWS = 1024;

/**
 * A matrix loaded into kernel memory (rows zero-padded to `stride` floats) plus room for `k` centroids, their float64
 * sums, the assignments and a distance buffer; all offsets are bytes. `kind` says which routines run.
 */
export interface KMeansKernel {
  readonly kind: 'wasm-simd' | 'js';
  readonly rows: number;
  readonly dimensions: number;
  readonly stride: number;
  readonly k: number;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
  readonly i32: Int32Array;
  readonly rowsAt: number;
  readonly centroidsAt: number;
  /** max(rows, KMEANS_BLOCK_ROWS × k) float32 values. */
  readonly outAt: number;
  readonly assignAt: number;
  /** `rows` int32 row numbers for sqdistAt / sqdistOwn. */
  readonly idxAt: number;
  readonly sumsAt: number;
  readonly sqdist: SquaredDistances;
  readonly sqdistAt: SquaredDistancesAt;
  readonly sqdistOwn: SquaredDistancesOwn;
  readonly accumulate: Accumulate;
  readonly inertia: Inertia;
}

/** What the workspace keeps of a `WebAssembly.Memory`: its buffer and `grow`. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(delta: number): number;
}

/** The compiled kernel, or null where WebAssembly SIMD is unavailable. Compiled once per process. */
export const getKMeansKernelModule: () => object | null = compileOnce(KMEANS_KERNEL_WASM_BASE64);

const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/**
 * Kernel memory kept across k-means runs (buildClusterTree's splits), grown as needed, so each split neither allocates
 * nor page-faults fresh memory. Memory is not cleared between uses: everything the kernel reads is written first.
 */
export interface KMeansWorkspace {
  /** A `WebAssembly.Memory` (typed structurally so these declarations need no DOM library). */
  memory?: KernelMemory;
  buffer?: ArrayBuffer;
}

export interface LoadKMeansKernelOptions {
  /** Load only these rows of the matrix, in this order (row i of the kernel is matrix row `rows[i]`). */
  readonly rows?: ArrayLike<number>;
  readonly workspace?: KMeansWorkspace;
  /** @default 'auto' */
  readonly prefer?: 'auto' | 'wasm' | 'js';
}

/**
 * Copies `matrix` into fresh kernel memory with room for `k` centroids and binds the routines: WebAssembly SIMD when
 * the engine has it (`prefer` 'auto' or 'wasm'), else the same routines in plain JavaScript (float64 sums rounded to
 * float32, within the error bound the Lloyd kernel allows for).
 * @throws FactkitError 'unsupported' when `prefer` is 'wasm' and WebAssembly SIMD is unavailable.
 */
export function loadKMeansKernel(matrix: VectorMatrix, k: number, options: LoadKMeansKernelOptions = {}): KMeansKernel {
  const { prefer = 'auto', workspace = {} } = options;
  const { dimensions: d, data } = matrix;
  const selected = options.rows;
  const rows = selected ? selected.length : matrix.rows;
  const stride = Math.ceil(d / 4) * 4;
  const rowsAt = 0;
  const centroidsAt = align16(rows * stride * 4);
  const outAt = centroidsAt + align16(k * stride * 4);
  const assignAt = outAt + align16(Math.max(rows, KMEANS_BLOCK_ROWS * k) * 4);
  const idxAt = assignAt + align16(rows * 4);
  const sumsAt = idxAt + align16(rows * 4);
  const bytes = sumsAt + k * stride * 8;
  const module = prefer === 'js' ? null : getKMeansKernelModule();
  if (!module && prefer === 'wasm') throw new FactkitError('unsupported', 'WebAssembly SIMD is not available in this runtime');
  let buffer: ArrayBuffer | undefined;
  let routines: ({ kind: 'wasm-simd' | 'js' } & Routines) | undefined;
  if (module) {
    try {
      const pages = Math.max(1, Math.ceil(bytes / 65536));
      workspace.memory ??= new WebAssembly.Memory({ initial: pages });
      const memory = workspace.memory;
      if (memory.buffer.byteLength < pages * 65536) memory.grow(pages - memory.buffer.byteLength / 65536);
      const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Routines;
      buffer = memory.buffer;
      routines = { kind: 'wasm-simd', sqdist: exports.sqdist, sqdistAt: exports.sqdistAt, sqdistOwn: exports.sqdistOwn, accumulate: exports.accumulate, inertia: exports.inertia };
    } catch (error) {
      // More than WebAssembly's 4 GiB of memory (or none to be had): the JavaScript routines, unless 'wasm' was asked.
      if (prefer === 'wasm') throw error;
    }
  }
  if (!buffer) {
    if (!workspace.buffer || workspace.buffer.byteLength < bytes) workspace.buffer = new ArrayBuffer(Math.max(16, align16(bytes)));
    buffer = workspace.buffer;
  }
  const f32 = new Float32Array(buffer);
  const f64 = new Float64Array(buffer);
  const i32 = new Int32Array(buffer);
  if (stride === d && !selected) f32.set(data, rowsAt / 4);
  else {
    for (let row = 0; row < rows; row++) {
      const from = selected ? (selected[row] as number) : row;
      f32.set(data.subarray(from * d, (from + 1) * d), rowsAt / 4 + row * stride);
      if (stride !== d) f32.fill(0, rowsAt / 4 + row * stride + d, rowsAt / 4 + (row + 1) * stride);
    }
  }
  f32.fill(0, centroidsAt / 4, (centroidsAt + k * stride * 4) / 4); // the padding of every centroid stays zero
  routines ??= { kind: 'js', ...javascriptRoutines(f32, f64, i32) };
  return { ...routines, rows, dimensions: d, stride, k, f32, f64, i32, rowsAt, centroidsAt, outAt, assignAt, idxAt, sumsAt };
}

interface Routines {
  readonly sqdist: SquaredDistances;
  readonly sqdistAt: SquaredDistancesAt;
  readonly sqdistOwn: SquaredDistancesOwn;
  readonly accumulate: Accumulate;
  readonly inertia: Inertia;
}

/** The kernel's routines over the same memory layout in plain JavaScript (where WebAssembly SIMD is unavailable). */
function javascriptRoutines(f32: Float32Array, f64: Float64Array, i32: Int32Array): Routines {
  /** Float64 sum rounded to float32 when stored: within the float32 kernel's error bound. Arguments in floats. */
  const dist = (m: number, c: number, stride: number): number => {
    let sum = 0;
    for (let i = 0; i < stride; i++) {
      const difference = (f32[m + i] as number) - (f32[c + i] as number);
      sum += difference * difference;
    }
    return sum;
  };
  const sqdist: SquaredDistances = (rows, nRows, cents, k, stride, out) => {
    let o = out / 4;
    for (let r = 0; r < nRows; r++) for (let j = 0; j < k; j++) f32[o++] = dist(rows / 4 + r * stride, cents / 4 + j * stride, stride);
  };
  const sqdistAt: SquaredDistancesAt = (rows, idx, nIdx, cents, k, stride, out) => {
    let o = out / 4;
    for (let t = 0; t < nIdx; t++) for (let j = 0; j < k; j++) f32[o++] = dist(rows / 4 + (i32[idx / 4 + t] as number) * stride, cents / 4 + j * stride, stride);
  };
  const sqdistOwn: SquaredDistancesOwn = (rows, idx, nIdx, cents, assign, stride, out) => {
    for (let t = 0; t < nIdx; t++) {
      const row = i32[idx / 4 + t] as number;
      f32[out / 4 + t] = dist(rows / 4 + row * stride, cents / 4 + (i32[assign / 4 + row] as number) * stride, stride);
    }
  };
  const accumulate: Accumulate = (rows, n, stride, assign, sums) => {
    for (let r = 0, m = rows / 4; r < n; r++, m += stride) {
      const base = sums / 8 + (i32[assign / 4 + r] as number) * stride;
      for (let i = 0; i < stride; i++) f64[base + i] = (f64[base + i] as number) + (f32[m + i] as number);
    }
  };
  const inertia: Inertia = (rows, n, stride, assign, cents) => {
    let total = 0;
    for (let r = 0, m = rows / 4; r < n; r++, m += stride) {
      const base = cents / 8 + (i32[assign / 4 + r] as number) * stride;
      for (let i = 0; i < stride; i++) {
        const difference = (f32[m + i] as number) - (f64[base + i] as number);
        total += difference * difference;
      }
    }
    return total;
  };
  return { sqdist, sqdistAt, sqdistOwn, accumulate, inertia };
}

/**
 * Sum over the kernel's rows of the float64 squared distance to their centroid (`centroids` k × dimensions float64,
 * row-major, at most `kernel.k` of them). Writes the assignments and centroids into kernel memory.
 */
export function kernelInertia(kernel: KMeansKernel, assignments: ArrayLike<number>, centroids: Float64Array): number {
  const { stride, f64, i32, sumsAt, assignAt, dimensions } = kernel;
  const count = centroids.length / dimensions;
  f64.fill(0, sumsAt / 8, sumsAt / 8 + kernel.k * stride);
  for (let cluster = 0; cluster < count; cluster++) f64.set(centroids.subarray(cluster * dimensions, (cluster + 1) * dimensions), sumsAt / 8 + cluster * stride);
  i32.set(assignments, assignAt / 4);
  return kernel.inertia(kernel.rowsAt, kernel.rows, stride, assignAt, sumsAt);
}
