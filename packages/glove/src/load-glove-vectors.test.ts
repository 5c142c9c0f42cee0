import { readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { CorruptDataError, FactkitError } from '@factkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWinkJson, writeWinkFixture } from '../test/wink-fixture.js';
import { defaultGloveCacheDir, loadGloveVectors } from './load-glove-vectors.js';
import type { GloveLoadEvent } from './load-glove-vectors.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function fixture(json?: string) {
  const paths = await writeWinkFixture(json);
  directories.push(paths.directory);
  return paths;
}

describe('loadGloveVectors', () => {
  it('converts the JSON once, then loads the binary cache', async () => {
    const { sourcePath, cacheDir } = await fixture();
    const events: GloveLoadEvent[] = [];
    const first = await loadGloveVectors({ sourcePath, cacheDir, onLoadEvent: (event) => events.push(event) });
    expect(events.map((event) => event.phase)).toEqual(['cache-miss', 'converted']);
    expect(await readdir(cacheDir)).toHaveLength(1);

    const second = await loadGloveVectors({ sourcePath, cacheDir, onLoadEvent: (event) => events.push(event) });
    expect(events.map((event) => event.phase)).toEqual(['cache-miss', 'converted', 'cache-hit']);
    expect(second.words).toEqual(first.words);
    expect([...second.matrix]).toEqual([...first.matrix]);
    expect([...(second.vectorOf('cat') as Float32Array)]).toEqual([1, 0, 0, 0]);
  });

  it('rebuilds a truncated or corrupt cache by default', async () => {
    const { sourcePath, cacheDir } = await fixture();
    await loadGloveVectors({ sourcePath, cacheDir });
    const [name] = await readdir(cacheDir);
    const cachePath = join(cacheDir, name as string);
    await truncate(cachePath, 40);
    const events: GloveLoadEvent[] = [];
    const vectors = await loadGloveVectors({ sourcePath, cacheDir, onLoadEvent: (event) => events.push(event) });
    expect(events.map((event) => event.phase)).toEqual(['cache-corrupt', 'converted']);
    expect(CorruptDataError.isInstance((events[0] as { error: unknown }).error)).toBe(true);
    expect([...(vectors.vectorOf('dog') as Float32Array)]).toEqual([0, 1, 0, 0]);
    // The rebuilt file is valid again.
    const after: GloveLoadEvent[] = [];
    await loadGloveVectors({ sourcePath, cacheDir, onLoadEvent: (event) => after.push(event) });
    expect(after.map((event) => event.phase)).toEqual(['cache-hit']);
  });

  it("throws CorruptDataError for a corrupt cache with onCorruptCache: 'throw'", async () => {
    const { sourcePath, cacheDir } = await fixture();
    await loadGloveVectors({ sourcePath, cacheDir });
    const [name] = await readdir(cacheDir);
    const cachePath = join(cacheDir, name as string);
    const bytes = await readFile(cachePath);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0x55;
    await writeFile(cachePath, bytes);
    const error = await loadGloveVectors({ sourcePath, cacheDir, onCorruptCache: 'throw' }).catch((caught: unknown) => caught);
    expect(CorruptDataError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(cachePath);
  });

  it('uses a fresh cache file when the source changes', async () => {
    const { sourcePath, cacheDir } = await fixture();
    await loadGloveVectors({ sourcePath, cacheDir });
    await writeFile(sourcePath, buildWinkJson({ cat: [9, 9] }, 2));
    const vectors = await loadGloveVectors({ sourcePath, cacheDir });
    expect(vectors.dimensions).toBe(2);
    expect([...(vectors.vectorOf('cat') as Float32Array)]).toEqual([9, 9]);
    expect(await readdir(cacheDir)).toHaveLength(2);
  });

  it('reports a corrupt source as CorruptDataError and a missing one as load_failed', async () => {
    const good = buildWinkJson();
    const { sourcePath, cacheDir } = await fixture(good.slice(0, 100));
    await expect(loadGloveVectors({ sourcePath, cacheDir })).rejects.toSatisfy((error: unknown) => CorruptDataError.isInstance(error));
    const missing = await loadGloveVectors({ sourcePath: join(cacheDir, 'nope.json'), cacheDir }).catch((caught: unknown) => caught);
    expect(FactkitError.isInstance(missing) && missing.code === 'load_failed').toBe(true);
  });

  it('rethrows the abort reason unchanged', async () => {
    const { sourcePath, cacheDir } = await fixture();
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(loadGloveVectors({ sourcePath, cacheDir, abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('defaults the cache dir to the first node_modules/.cache above the source', () => {
    const source = ['', 'app', 'node_modules', '.pnpm', 'x', 'node_modules', 'wink', 'v.json'].join(sep);
    expect(defaultGloveCacheDir(source)).toBe(['', 'app', 'node_modules', '.cache', 'factkit-glove'].join(sep));
    expect(defaultGloveCacheDir(['', 'data', 'v.json'].join(sep))).toMatch(/factkit-glove$/);
  });
});
