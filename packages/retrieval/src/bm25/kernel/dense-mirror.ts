// A copy of a small index's postings inside WebAssembly memory, so the exhaustive dense path can accumulate scores with
// the bm25-kernel.wat routines (about 4× fewer nanoseconds per posting than the JavaScript loop on Node 20) and find
// the top k from 64-document block maxima. Lucene variant only (its f32 arithmetic is exactly reproducible there).
import { compileOnce, decodeBase64 } from '../../dense/kernel/wasm-module.js';
import type { KernelField } from '../search-kernel.js';
import { BM25_KERNEL_WASM_BASE64 } from './bm25-kernel-wasm.js';

/** Indexes with at most this many postings (all fields) get a mirror: ≤ 9 bytes per posting, ≤ 36 MB. */
export const DENSE_MIRROR_MAX_POSTINGS = 4_000_000;
/** Documents per block of {@link DenseMirror.blockMax}. */
export const MIRROR_BLOCK = 64;

interface Bm25KernelExports {
  acc_impacts(docs: number, impacts: number, acc: number, start: number, end: number): void;
  acc_formula_u8(docs: number, tfs: number, factors: number, acc: number, start: number, end: number, weight: number): void;
  acc_formula_u32(docs: number, tfs: number, factors: number, acc: number, start: number, end: number, weight: number): void;
  block_max(acc: number, blocks: number, out: number): void;
}

/** Byte offsets of one field's arrays in the mirror's memory (impacts −1 when the field has none). */
export interface MirrorField {
  readonly docs: number;
  readonly tfs: number;
  readonly wideTfs: boolean;
  readonly factors: number;
  readonly impacts: number;
}

export interface DenseMirror {
  readonly kernel: Bm25KernelExports;
  readonly fields: readonly MirrorField[];
  /** f64 per document, padded with zeros to whole blocks; all zero between searches. */
  readonly accumulator: Float64Array;
  readonly accumulatorOffset: number;
  readonly blockMax: Float64Array;
  readonly blockMaxOffset: number;
  readonly blocks: number;
  /** Documents per block ({@link MIRROR_BLOCK}). */
  readonly blockSize: number;
  /** Bytes of WebAssembly memory the mirror holds. */
  readonly byteLength: number;
}

export function bm25KernelBytes(): Uint8Array<ArrayBuffer> {
  return decodeBase64(BM25_KERNEL_WASM_BASE64);
}

const getModule = compileOnce(BM25_KERNEL_WASM_BASE64);

const align = (value: number): number => Math.ceil(value / 16) * 16;

/**
 * Copies the fields' postings, term frequencies, length factors and impacts into one WebAssembly memory; null where
 * WebAssembly SIMD is unavailable or the index is too large (the JavaScript kernel then runs alone).
 */
export function createDenseMirror(fields: readonly KernelField[], documentCount: number): DenseMirror | null {
  let postings = 0;
  for (const field of fields) postings += field.postingDocs.length;
  if (postings > DENSE_MIRROR_MAX_POSTINGS || documentCount === 0) return null;
  const module = getModule();
  if (!module) return null;
  const blocks = Math.ceil(documentCount / MIRROR_BLOCK);
  let bytes = 0;
  const layout: { docs: number; tfs: number; wideTfs: boolean; factors: number; impacts: number }[] = [];
  for (const field of fields) {
    const count = field.postingDocs.length;
    const wideTfs = !(field.postingTfs instanceof Uint8Array);
    const docs = bytes;
    bytes = align(bytes + 4 * count);
    const tfs = bytes;
    bytes = align(bytes + (wideTfs ? 4 : 1) * count);
    const factors = bytes;
    bytes = align(bytes + 4 * documentCount);
    let impacts = -1;
    if (field.impacts) {
      impacts = bytes;
      bytes = align(bytes + 4 * count);
    }
    if (!(field.documentFactors instanceof Float32Array)) return null;
    layout.push({ docs, tfs, wideTfs, factors, impacts });
  }
  const accumulatorOffset = bytes;
  bytes = align(bytes + 8 * blocks * MIRROR_BLOCK);
  const blockMaxOffset = bytes;
  bytes = align(bytes + 8 * blocks);
  let instance: WebAssembly.Instance;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    instance = new WebAssembly.Instance(module, { env: { memory } });
  } catch {
    return null;
  }
  const buffer = memory.buffer;
  fields.forEach((field, index) => {
    const place = layout[index] as MirrorField;
    const count = field.postingDocs.length;
    new Uint32Array(buffer, place.docs, count).set(field.postingDocs);
    if (place.wideTfs) new Uint32Array(buffer, place.tfs, count).set(field.postingTfs);
    else new Uint8Array(buffer, place.tfs, count).set(field.postingTfs);
    new Float32Array(buffer, place.factors, documentCount).set(field.documentFactors.subarray(0, documentCount));
    if (field.impacts && place.impacts >= 0) new Float32Array(buffer, place.impacts, count).set(field.impacts);
  });
  return {
    kernel: instance.exports as unknown as Bm25KernelExports,
    fields: layout,
    accumulator: new Float64Array(buffer, accumulatorOffset, blocks * MIRROR_BLOCK),
    accumulatorOffset,
    blockMax: new Float64Array(buffer, blockMaxOffset, blocks),
    blockMaxOffset,
    blocks,
    blockSize: MIRROR_BLOCK,
    byteLength: buffer.byteLength,
  };
}
