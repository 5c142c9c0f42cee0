import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Cache } from '../cache.js';
import { InvalidArgumentError } from '../errors/factkit-error.js';

export interface FileCacheOptions {
  /** Directory to keep entries in; created if missing. */
  readonly directory: string;
}

/**
 * A persistent Cache on disk: one JSON file per key (sharded by the key's first two characters), written to a
 * temporary file and renamed into place, so a crash never leaves a half-written entry and every finished call
 * survives. Safe to share between processes. Node only: exported from `@factkit/core/node`.
 */
export function createFileCache(options: FileCacheOptions): Cache {
  const { directory } = options;
  if (typeof directory !== 'string' || directory.length === 0) {
    throw new InvalidArgumentError({ where: 'createFileCache', argument: 'directory', message: 'must be a non-empty path' });
  }
  const fileOf = (key: string) => {
    const safe = key.replace(/[^A-Za-z0-9_-]/g, '_');
    return path.join(directory, safe.slice(0, 2) || '__', `${safe}.json`);
  };
  let counter = 0;
  return {
    id: `file:${directory}`,
    async get(key) {
      try {
        const text = await fs.readFile(fileOf(key), 'utf8');
        const entry = JSON.parse(text) as { key: string; value: unknown };
        return entry.key === key ? entry.value : undefined;
      } catch {
        return undefined; // missing or unreadable entry: a cache miss
      }
    },
    async has(key) {
      try {
        await fs.access(fileOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async set(key, value) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      counter += 1;
      const temporary = `${file}.${process.pid}.${counter}.tmp`;
      await fs.writeFile(temporary, JSON.stringify({ key, value }), 'utf8');
      await fs.rename(temporary, file);
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
