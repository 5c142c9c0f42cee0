// Memory figures for the benchmarks (lexical and dense), counting SharedArrayBuffers honestly.
//
// What Node reports (checked on Node v20.20.2 with a 256 MB SharedArrayBuffer, see memory.test.ts):
// - `process.memoryUsage().arrayBuffers` of the thread that ALLOCATED a SharedArrayBuffer includes it;
// - `process.memoryUsage().external` does NOT include SharedArrayBuffers (it does include ordinary ArrayBuffers);
// - a worker thread that RECEIVES a SharedArrayBuffer does not count it in its own `arrayBuffers` (so figures taken
//   in a worker undercount it), and it stays on the allocating thread's count while anyone holds it;
// - other Node releases may differ (only v20.20.2 was checked here), hence the probe below.
// So a figure of heap + `arrayBuffers` is right only on the allocating thread of a Node that counts them. This module
// probes once whether `arrayBuffers` counts SharedArrayBuffers on this thread, and adds the bytes the caller knows it
// holds in SharedArrayBuffers (e.g. from `index.statistics().sharedArrayBufferBytes`) when it does not. RSS is the
// process's resident set (all threads, native allocations included); `peakRssBytes` is the kernel's high-water mark.
import { readFileSync } from 'node:fs';

export interface MemoryMeasurement {
  /** V8 heap in use (JS objects, strings, Maps). */
  readonly heapUsedBytes: number;
  /** `process.memoryUsage().arrayBuffers` of this thread. */
  readonly arrayBuffersBytes: number;
  /** Whether `arrayBuffersBytes` already includes SharedArrayBuffers allocated by this thread (probed once). */
  readonly arrayBuffersCountShared: boolean;
  /** SharedArrayBuffer bytes the caller said it holds (index accounting); 0 when not given. */
  readonly knownSharedBytes: number;
  /**
   * heap + arrayBuffers, plus `knownSharedBytes` when `arrayBuffers` does not count SharedArrayBuffers: the
   * figure the benchmarks report as "memory".
   */
  readonly totalBytes: number;
  /** Resident set of the whole process (every thread, native memory, code). */
  readonly rssBytes: number;
  /** Highest resident set of the process so far (Linux `VmHWM`, else `process.resourceUsage().maxRSS`). */
  readonly peakRssBytes: number;
}

let probed: boolean | undefined;

/**
 * True when `process.memoryUsage().arrayBuffers` grows by a SharedArrayBuffer allocated on this thread (probed once
 * with 8 MB; false where SharedArrayBuffer does not exist).
 */
export function arrayBuffersCountSharedMemory(): boolean {
  if (probed !== undefined) return probed;
  if (typeof SharedArrayBuffer !== 'function') return (probed = false);
  const size = 8 * 2 ** 20;
  const before = process.memoryUsage().arrayBuffers;
  const buffer = new SharedArrayBuffer(size);
  new Uint8Array(buffer)[0] = 1;
  const after = process.memoryUsage().arrayBuffers;
  probed = after - before >= size * 0.9;
  return probed;
}

/** The process's peak resident set so far, in bytes. */
export function peakRssBytes(): number {
  try {
    const match = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * Heap, ArrayBuffers, known SharedArrayBuffer bytes and RSS of this process now.
 * @param knownSharedBytes SharedArrayBuffer bytes the caller holds (a number, or a function asked now).
 */
export function measureMemory(knownSharedBytes: number | (() => number) = 0): MemoryMeasurement {
  const usage = process.memoryUsage();
  const shared = typeof knownSharedBytes === 'function' ? knownSharedBytes() : knownSharedBytes;
  const countsShared = arrayBuffersCountSharedMemory();
  return {
    heapUsedBytes: usage.heapUsed,
    arrayBuffersBytes: usage.arrayBuffers,
    arrayBuffersCountShared: countsShared,
    knownSharedBytes: shared,
    totalBytes: usage.heapUsed + usage.arrayBuffers + (countsShared ? 0 : shared),
    rssBytes: usage.rss,
    peakRssBytes: peakRssBytes(),
  };
}

/**
 * Samples the process RSS from a worker thread every `intervalMs` (so it keeps sampling while the main thread runs
 * a long synchronous build); `stop()` returns the highest sample and the kernel's high-water mark.
 */
export async function startRssSampler(intervalMs = 50): Promise<{ stop(): Promise<{ peakSampledBytes: number; peakRssBytes: number }> }> {
  const { Worker } = await import('node:worker_threads');
  const code = `
    const { parentPort } = require('node:worker_threads');
    let peak = 0;
    const tick = () => { const rss = process.memoryUsage.rss(); if (rss > peak) peak = rss; };
    const timer = setInterval(tick, ${Math.max(1, Math.floor(intervalMs))});
    tick();
    parentPort.on('message', () => { tick(); clearInterval(timer); parentPort.postMessage(peak); });
  `;
  const worker = new Worker(code, { eval: true });
  await new Promise((resolve) => worker.once('online', resolve));
  return {
    async stop() {
      const peak = await new Promise<number>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('stop');
      });
      await worker.terminate();
      return { peakSampledBytes: peak, peakRssBytes: peakRssBytes() };
    },
  };
}

export const toMb = (bytes: number): number => bytes / 2 ** 20;
export const megabytes = (bytes: number): number => Math.round(bytes / 1e6);

// Growth across a build (the dense benchmarks). The flat index keeps its matrix in a shared WebAssembly.Memory, whose
// backing store V8 reserves itself: neither `arrayBuffers` nor `external` counts it, so the dense figures are RSS growth
// (every touched page, whoever allocated it) after a forced GC, beside the arrayBuffers growth that shows what the
// usual figure misses. RSS is noisy (the allocator may keep freed pages): report it rounded to MB. Run with --expose-gc.
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

/** process.memoryUsage() after a forced GC (when node runs with --expose-gc). */
export function sampleMemory(): MemorySample {
  globalThis.gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}

/** Runs `build` and reports how much memory it left resident. */
export async function measureMemoryGrowth<T>(build: () => T | Promise<T>): Promise<{ value: T; delta: MemoryDelta }> {
  const before = sampleMemory();
  const value = await build();
  const after = sampleMemory();
  return {
    value,
    delta: { rssBytes: after.rss - before.rss, arrayBuffersBytes: after.arrayBuffers - before.arrayBuffers, heapUsedBytes: after.heapUsed - before.heapUsed },
  };
}
