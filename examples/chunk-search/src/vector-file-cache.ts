import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Cache } from '@factkit/core';

/**
 * A core `Cache` for embeddings kept in memory and saved as two files (`<path>.keys.json` and `<path>.f32`, raw
 * Float32 rows), so re-running the study does not re-embed anything. Call `flush()` to save (atomic rename).
 */
export function createVectorFileCache(path: string, dimensions: number): Cache & { flush(): void; readonly size: number } {
  const vectors = new Map<string, Float32Array>();
  if (existsSync(`${path}.keys.json`) && existsSync(`${path}.f32`)) {
    const keys = JSON.parse(readFileSync(`${path}.keys.json`, 'utf8')) as string[];
    const buffer = readFileSync(`${path}.f32`);
    const data = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
    if (data.length === keys.length * dimensions) keys.forEach((key, row) => vectors.set(key, data.slice(row * dimensions, (row + 1) * dimensions)));
  }
  let dirty = false;
  return {
    id: `vector-file(${path})`,
    get size() {
      return vectors.size;
    },
    async get(key) {
      const vector = vectors.get(key);
      return vector === undefined ? undefined : Array.from(vector);
    },
    async set(key, value) {
      if (!Array.isArray(value) || value.length !== dimensions) return;
      vectors.set(key, Float32Array.from(value as number[]));
      dirty = true;
    },
    flush() {
      if (!dirty) return;
      mkdirSync(dirname(path), { recursive: true });
      const keys = [...vectors.keys()];
      const data = new Float32Array(keys.length * dimensions);
      keys.forEach((key, row) => data.set(vectors.get(key)!, row * dimensions));
      writeFileSync(`${path}.f32.tmp`, Buffer.from(data.buffer));
      writeFileSync(`${path}.keys.json.tmp`, JSON.stringify(keys));
      renameSync(`${path}.f32.tmp`, `${path}.f32`);
      renameSync(`${path}.keys.json.tmp`, `${path}.keys.json`);
      dirty = false;
    },
  };
}
