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

/**
 * A `length`-element view at the start of a buffer holding `capacity` elements: the spare room lets a later merge grow
 * the array in place. Untouched pages of a large zero-filled buffer are not resident on common platforms (mmap/calloc),
 * so the spare room costs address space, not memory, until used.
 */
export function shared32WithCapacity(length: number, capacity: number): Uint32Array {
  const elements = Math.max(1, length, capacity);
  return new Uint32Array(hasShared ? new SharedArrayBuffer(elements * 4) : new ArrayBuffer(elements * 4), 0, length);
}

/** {@link sharedTf} with spare room (see {@link shared32WithCapacity}). */
export function sharedTfWithCapacity(length: number, capacity: number, maxTf: number): TfArray {
  const elements = Math.max(1, length, capacity);
  const width = maxTf < 256 ? 1 : maxTf < 65536 ? 2 : 4;
  const buffer = hasShared ? new SharedArrayBuffer(elements * width) : new ArrayBuffer(elements * width);
  return width === 1 ? new Uint8Array(buffer, 0, length) : width === 2 ? new Uint16Array(buffer, 0, length) : new Uint32Array(buffer, 0, length);
}

/** Elements the buffer behind `array` holds from the array's start. */
export function capacityOf(array: Uint8Array | Uint16Array | Uint32Array): number {
  return Math.floor((array.buffer.byteLength - array.byteOffset) / array.BYTES_PER_ELEMENT);
}

/** A view of the same type over the same memory with another length (within {@link capacityOf}). */
export function resizedView<T extends Uint8Array | Uint16Array | Uint32Array>(array: T, length: number): T {
  if (array instanceof Uint8Array) return new Uint8Array(array.buffer, array.byteOffset, length) as T;
  if (array instanceof Uint16Array) return new Uint16Array(array.buffer, array.byteOffset, length) as T;
  return new Uint32Array(array.buffer, array.byteOffset, length) as T;
}
