import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkAbort } from './abort-link.js';

const linkedListenerCount = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('linkAbort', () => {
  it('holds one listener per signal however many links, fans an abort out to every live link, and lets go when all unlink', () => {
    const controller = new AbortController();
    const fired: number[] = [];
    const unlinks = Array.from({ length: 50 }, (_, index) => linkAbort(controller.signal, () => fired.push(index)));
    expect(linkedListenerCount(controller.signal)).toBe(1);
    unlinks.slice(0, 10).forEach((unlink) => unlink());
    unlinks[0]?.(); // unlinking twice is harmless
    controller.abort();
    expect(fired).toEqual(Array.from({ length: 40 }, (_, index) => index + 10));
    expect(linkedListenerCount(controller.signal)).toBe(0);

    const other = new AbortController();
    const unlinkAll = Array.from({ length: 5 }, () => linkAbort(other.signal, () => fired.push(-1)));
    unlinkAll.forEach((unlink) => unlink());
    expect(linkedListenerCount(other.signal)).toBe(0);
    other.abort();
    expect(fired).not.toContain(-1);
  });

  it('calls back at once for an already aborted signal, and does nothing without a signal', () => {
    let calls = 0;
    linkAbort(AbortSignal.abort(), () => (calls += 1));
    linkAbort(undefined, () => (calls += 10))();
    expect(calls).toBe(1);
  });
});
