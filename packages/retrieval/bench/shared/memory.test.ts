import { describe, expect, it } from 'vitest';
import { arrayBuffersCountSharedMemory, measureMemory, peakRssBytes, startRssSampler } from './memory.js';

const SIZE = 32 * 2 ** 20;

describe('measureMemory', () => {
  it('counts a SharedArrayBuffer once in totalBytes, whether or not arrayBuffers includes it', () => {
    const before = measureMemory();
    const buffer = new SharedArrayBuffer(SIZE);
    new Uint8Array(buffer).fill(1);
    const after = measureMemory(SIZE);
    const grown = after.totalBytes - before.totalBytes;
    expect(grown).toBeGreaterThanOrEqual(SIZE * 0.95);
    // not counted twice: at most the buffer plus some heap noise
    expect(grown).toBeLessThan(SIZE * 1.5);
    expect(after.knownSharedBytes).toBe(SIZE);
    expect(after.arrayBuffersCountShared).toBe(arrayBuffersCountSharedMemory());
    expect(after.rssBytes).toBeGreaterThanOrEqual(before.rssBytes);
    expect(buffer.byteLength).toBe(SIZE);
  });

  it('reads known shared bytes from a function at measurement time', () => {
    let held = 0;
    const measure = () => measureMemory(() => held);
    expect(measure().knownSharedBytes).toBe(0);
    held = 1234;
    expect(measure().knownSharedBytes).toBe(1234);
  });

  it('reports a peak RSS at least the current RSS, and a sampler that sees a large allocation', async () => {
    const sampler = await startRssSampler(5);
    const big = new Uint8Array(64 * 2 ** 20).fill(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { peakSampledBytes, peakRssBytes: peak } = await sampler.stop();
    expect(peakSampledBytes).toBeGreaterThan(64 * 2 ** 20);
    expect(peak).toBeGreaterThanOrEqual(peakSampledBytes * 0.99);
    expect(peakRssBytes()).toBeGreaterThanOrEqual(process.memoryUsage().rss * 0.99);
    expect(big[0]).toBe(1);
  });
});
