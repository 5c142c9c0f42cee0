/**
 * Links a caller's AbortSignal to many attempts with ONE listener per signal.
 *
 * Adding an 'abort' listener per call to a signal shared by a whole batch puts one listener per in-flight call on it,
 * and Node warns (`MaxListenersExceededWarning`) past 10, even when every listener is removed later. Here the first
 * link adds a single listener that fans out to the linked callbacks, and the last unlink removes it.
 */
const links = new WeakMap<AbortSignal, { readonly callbacks: Set<() => void>; readonly dispatch: () => void }>();

/**
 * Calls `onAbort` once when `signal` aborts (at once if it already has); returns the unlink function. Many links to
 * one signal (a batch's shared signal: calls, retry waits) hold one 'abort' listener on it.
 * @example const unlink = linkAbort(abortSignal, () => controller.abort(abortSignal?.reason)); try { … } finally { unlink(); }
 */
export function linkAbort(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  let entry = links.get(signal);
  if (entry === undefined) {
    const callbacks = new Set<() => void>();
    const dispatch = (): void => {
      links.delete(signal);
      for (const callback of [...callbacks]) callback();
      callbacks.clear();
    };
    entry = { callbacks, dispatch };
    links.set(signal, entry);
    signal.addEventListener('abort', dispatch, { once: true });
  }
  const { callbacks, dispatch } = entry;
  // A fresh function per link, so linking the same callback twice needs two unlinks.
  const callback = (): void => onAbort();
  callbacks.add(callback);
  let linked = true;
  return () => {
    if (!linked) return;
    linked = false;
    callbacks.delete(callback);
    if (callbacks.size === 0 && links.get(signal)?.dispatch === dispatch) {
      links.delete(signal);
      signal.removeEventListener('abort', dispatch);
    }
  };
}
