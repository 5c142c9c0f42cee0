import { FactkitError } from '@factkit/core';
import type { Dot1, Dot4 } from '../scan-rows.js';
import { DOT_KERNEL_WASM_BASE64 } from './dot-kernel-wasm.js';
import { compileOnce, decodeBase64 } from './wasm-module.js';

/** A memory plus the two dot-product routines that read it. */
export interface DotKernel {
  readonly kind: 'wasm-simd' | 'js';
  readonly buffer: ArrayBufferLike;
  /** The WebAssembly.Memory (shared) when `kind` is 'wasm-simd'; workers instantiate the kernel on it. */
  readonly memory: WebAssembly.Memory | undefined;
  readonly dot1: Dot1;
  readonly dot4: Dot4;
  readonly dot1h: Dot1;
}

/** The compiled kernel, or null where WebAssembly SIMD or shared memory is unavailable. Compiled once per process. */
export const getKernelModule: () => WebAssembly.Module | null = compileOnce(DOT_KERNEL_WASM_BASE64);

export function kernelBytes(): Uint8Array<ArrayBuffer> {
  return decodeBase64(DOT_KERNEL_WASM_BASE64);
}

/** Allocates `bytes` of kernel memory and binds the routines: WebAssembly SIMD when possible, else plain JavaScript. */
export function createDotKernel(bytes: number, prefer: 'auto' | 'wasm' | 'js'): DotKernel {
  const module = prefer === 'js' ? null : getKernelModule();
  if (module) {
    const pages = Math.max(1, Math.ceil(bytes / 65536));
    try {
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
      const instance = new WebAssembly.Instance(module, { env: { memory } });
      const exports = instance.exports as unknown as { dot1: Dot1; dot4: Dot4; dot1h: Dot1 };
      return { kind: 'wasm-simd', buffer: memory.buffer, memory, dot1: exports.dot1, dot4: exports.dot4, dot1h: exports.dot1h };
    } catch (error) {
      if (prefer === 'wasm') throw error;
    }
  } else if (prefer === 'wasm') {
    throw new FactkitError('unsupported', 'WebAssembly SIMD with shared memory is not available in this runtime');
  }
  const buffer = new ArrayBuffer(Math.max(8, Math.ceil(bytes / 8) * 8));
  const f32 = new Float32Array(buffer);
  const dot1: Dot1 = (matrix, rows, stride, query, out) => {
    let m = matrix / 4;
    const q = query / 4;
    const o = out / 4;
    for (let r = 0; r < rows; r += 1, m += stride) {
      let sum = 0;
      for (let k = 0; k < stride; k += 1) sum += (f32[m + k] as number) * (f32[q + k] as number);
      f32[o + r] = sum;
    }
  };
  const dot4: Dot4 = (matrix, rows, stride, queries, out, outStride) => {
    for (let j = 0; j < 4; j += 1) dot1(matrix, rows, stride, queries + j * stride * 4, out + j * outStride * 4);
  };
  const u16 = new Uint16Array(buffer);
  const widen = new Uint32Array(1);
  const widened = new Float32Array(widen.buffer);
  const dot1h: Dot1 = (matrix, rows, stride, query, out) => {
    let m = matrix / 2;
    const q = query / 4;
    const o = out / 4;
    for (let r = 0; r < rows; r += 1, m += stride) {
      let sum = 0;
      for (let k = 0; k < stride; k += 1) {
        widen[0] = (u16[m + k] as number) << 16;
        sum += (widened[0] as number) * (f32[q + k] as number);
      }
      f32[o + r] = sum;
    }
  };
  return { kind: 'js', buffer, memory: undefined, dot1, dot4, dot1h };
}
