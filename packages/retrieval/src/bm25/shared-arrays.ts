import type { TfArray } from './search-kernel.js';

// Typed arrays backed by SharedArrayBuffer when available, so worker threads read postings, factors and impacts
// without copies (plain buffers otherwise).
const hasShared = typeof SharedArrayBuffer === 'function';

export function shared32(length: number): Uint32Array {
  return hasShared ? new Uint32Array(new SharedArrayBuffer(Math.max(1, length) * 4)).subarray(0, length) : new Uint32Array(length);
}

/** The narrowest unsigned array that holds term frequencies up to `maxTf`. */
export function sharedTf(length: number, maxTf: number): TfArray {
  if (maxTf < 256) return hasShared ? new Uint8Array(new SharedArrayBuffer(Math.max(1, length))).subarray(0, length) : new Uint8Array(length);
  if (maxTf < 65536) return hasShared ? new Uint16Array(new SharedArrayBuffer(Math.max(1, length) * 2)).subarray(0, length) : new Uint16Array(length);
  return shared32(length);
}

export function sharedFloat32(length: number): Float32Array {
  return hasShared ? new Float32Array(new SharedArrayBuffer(Math.max(1, length) * 4)).subarray(0, length) : new Float32Array(length);
}

export function sharedFloat64(length: number): Float64Array {
  return hasShared ? new Float64Array(new SharedArrayBuffer(Math.max(1, length) * 8)).subarray(0, length) : new Float64Array(length);
}
