import { FactkitError } from '@factkit/core';
import { INT8_KERNEL_WASM_BASE64 } from './int8-kernel-wasm.js';
import { compileOnce, decodeBase64 } from './wasm-module.js';

export type Dot8 = (matrix: number, rows: number, stride: number, query: number, out: number) => void;
export type Dot8x4 = (matrix: number, rows: number, stride: number, queries: number, out: number, outStride: number) => void;
/** Hamming distances of binary codes (`bstride` bytes per row, a multiple of 8) to one query: u16 per row, plus a histogram. */
export type Hamming = (codes: number, rows: number, bstride: number, query: number, out: number, histogram: number) => void;

/** A growable memory plus the int8 × int16 dot-product routines that read it (see int8-kernel.wat). */
export interface Int8Kernel {
  readonly kind: 'wasm-simd' | 'js';
  /** The current buffer; it is replaced by `grow`, so views must be re-created after growing. */
  readonly buffer: ArrayBuffer;
  /** Ensures the memory holds at least `bytes` bytes (contents kept). */
  grow(bytes: number): void;
  readonly dot8: Dot8;
  readonly dot8x4: Dot8x4;
  readonly hamming: Hamming;
}

const PAGE = 65536;
/** wasm32 memories address at most 65,536 pages of 64 KiB (4 GiB). */
export const INT8_KERNEL_MAX_BYTES = 65536 * PAGE;

export function int8KernelBytes(): Uint8Array<ArrayBuffer> {
  return decodeBase64(INT8_KERNEL_WASM_BASE64);
}

/** The compiled kernel, or null where WebAssembly SIMD is unavailable. Compiled once per process. */
export const getInt8KernelModule: () => WebAssembly.Module | null = compileOnce(INT8_KERNEL_WASM_BASE64);

/**
 * Allocates `bytes` of kernel memory and binds the routines: WebAssembly SIMD when possible, else plain JavaScript
 * (same integer results). The WebAssembly memory is not shared, so no cross-origin isolation is needed in browsers.
 */
export function createInt8Kernel(bytes: number, prefer: 'auto' | 'wasm' | 'js'): Int8Kernel {
  const module = prefer === 'js' ? null : getInt8KernelModule();
  if (module) {
    try {
      const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)), maximum: 65536 });
      const instance = new WebAssembly.Instance(module, { env: { memory } });
      const exports = instance.exports as unknown as { dot8: Dot8; dot8x4: Dot8x4; hamming: Hamming };
      return {
        kind: 'wasm-simd',
        get buffer() {
          return memory.buffer;
        },
        grow(wanted) {
          const pages = Math.ceil(wanted / PAGE) - memory.buffer.byteLength / PAGE;
          if (pages > 0) memory.grow(pages);
        },
        dot8: exports.dot8,
        dot8x4: exports.dot8x4,
        hamming: exports.hamming,
      };
    } catch (error) {
      if (prefer === 'wasm') throw error;
    }
  } else if (prefer === 'wasm') {
    throw new FactkitError('unsupported', 'WebAssembly SIMD is not available in this runtime');
  }
  let buffer = new ArrayBuffer(Math.max(PAGE, Math.ceil(bytes / PAGE) * PAGE));
  let i8 = new Int8Array(buffer);
  let i16 = new Int16Array(buffer);
  let i32 = new Int32Array(buffer);
  let u8 = new Uint8Array(buffer);
  let u16 = new Uint16Array(buffer);
  const popcount8 = new Uint8Array(256);
  for (let i = 1; i < 256; i += 1) popcount8[i] = (popcount8[i >> 1] as number) + (i & 1);
  const hamming: Hamming = (codes, rows, bstride, query, out, histogram) => {
    for (let r = 0, c = codes; r < rows; r += 1, c += bstride) {
      let distance = 0;
      for (let k = 0; k < bstride; k += 1) distance += popcount8[(u8[c + k] as number) ^ (u8[query + k] as number)] as number;
      u16[out / 2 + r] = distance;
      i32[histogram / 4 + distance] = (i32[histogram / 4 + distance] as number) + 1;
    }
  };
  const dot8: Dot8 = (matrix, rows, stride, query, out) => {
    const q = query / 2;
    const o = out / 4;
    for (let r = 0, m = matrix; r < rows; r += 1, m += stride) {
      let sum = 0;
      for (let k = 0; k < stride; k += 1) sum += (i8[m + k] as number) * (i16[q + k] as number);
      i32[o + r] = sum | 0;
    }
  };
  return {
    kind: 'js',
    get buffer() {
      return buffer;
    },
    grow(wanted) {
      if (wanted <= buffer.byteLength) return;
      const next = new ArrayBuffer(Math.ceil(wanted / PAGE) * PAGE);
      new Uint8Array(next).set(new Uint8Array(buffer));
      buffer = next;
      i8 = new Int8Array(buffer);
      i16 = new Int16Array(buffer);
      i32 = new Int32Array(buffer);
      u8 = new Uint8Array(buffer);
      u16 = new Uint16Array(buffer);
    },
    dot8,
    dot8x4(matrix, rows, stride, queries, out, outStride) {
      for (let j = 0; j < 4; j += 1) dot8(matrix, rows, stride, queries + j * stride * 2, out + j * outStride * 4);
    },
    hamming,
  };
}
