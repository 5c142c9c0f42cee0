import type { Cache } from '../cache.js';

/** An in-memory Cache (a Map). Lost when the process ends. */
export function createMemoryCache(options: { maxEntries?: number } = {}): Cache & { readonly size: number; clear(): void } {
  const { maxEntries = Number.POSITIVE_INFINITY } = options;
  const map = new Map<string, unknown>();
  return {
    id: 'memory',
    get size() {
      return map.size;
    },
    async get(key) {
      return map.has(key) ? structuredClone(map.get(key)) : undefined;
    },
    async set(key, value) {
      if (map.size >= maxEntries && !map.has(key)) {
        const oldest = map.keys().next().value;
        if (oldest !== undefined) map.delete(oldest);
      }
      map.set(key, structuredClone(value));
    },
    async has(key) {
      return map.has(key);
    },
    async delete(key) {
      map.delete(key);
    },
    clear() {
      map.clear();
    },
  };
}
