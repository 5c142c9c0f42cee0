/**
 * Memory accounting for the dense benchmarks that counts shared memory.
 *
 * `process.memoryUsage().arrayBuffers` (and `external`) count ArrayBuffers, Node Buffers and SharedArrayBuffers made
 * by `new SharedArrayBuffer`, but not the backing store of a `WebAssembly.Memory` (shared or not), which V8 reserves
 * itself: the flat index keeps its whole matrix in a shared WebAssembly memory, so heap/arrayBuffers figures miss it.
 * Resident set size (RSS) counts every touched page, whoever allocated it, so the figure reported here is the RSS
 * growth across a build (after a forced GC), next to the arrayBuffers growth to show what the usual figure misses and
 * the bytes the structure itself says it holds. RSS is noisy (the allocator may keep freed pages), so figures are
 * rounded to MB; the lead may consolidate this with packages/retrieval/bench/shared/memory.ts (branch `bm25`).
 * Run node with --expose-gc for stable figures.
 */
export interface MemorySample {
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export interface MemoryDelta {
  /** Resident set growth: counts WebAssembly memories, SharedArrayBuffers and everything else touched. */
  readonly rssBytes: number;
  /** Growth of Node's arrayBuffers figure (misses WebAssembly memories). */
  readonly arrayBuffersBytes: number;
  readonly heapUsedBytes: number;
}

export function sampleMemory(): MemorySample {
  globalThis.gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}

/** Runs `build` and reports how much memory it left resident. */
export async function measureMemory<T>(build: () => T | Promise<T>): Promise<{ value: T; delta: MemoryDelta }> {
  const before = sampleMemory();
  const value = await build();
  const after = sampleMemory();
  return {
    value,
    delta: { rssBytes: after.rss - before.rss, arrayBuffersBytes: after.arrayBuffers - before.arrayBuffers, heapUsedBytes: after.heapUsed - before.heapUsed },
  };
}

export const megabytes = (bytes: number) => Math.round(bytes / 1e6);
