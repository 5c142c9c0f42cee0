import { linkAbort } from './abort-link.js';

/**
 * Waits `ms` milliseconds; rejects with the signal's reason if aborted first. Many waits on one shared signal (retries
 * of a whole batch) hold one 'abort' listener on it ({@link linkAbort}), so Node never warns MaxListenersExceeded.
 */
export function abortableDelay(ms: number, abortSignal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abortSignal?.aborted) {
      reject(abortSignal.reason);
      return;
    }
    const unlink = linkAbort(abortSignal, () => {
      clearTimeout(timer);
      reject(abortSignal?.reason);
    });
    const timer = setTimeout(() => {
      unlink();
      resolve();
    }, ms);
  });
}
