import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEmbedder, createMockLanguageModel } from '../testing/index.js';
import { createMemoryCache } from './cache-stores.js';
import { createFileCache } from './file-cache.js';
import { settleWithConcurrency } from './concurrency.js';
import { computeGenerateCacheKey, withCache, withEmbeddingCache } from './with-cache.js';

const directories: string[] = [];
async function temporaryDirectory() {
  const directory = await mkdtemp(join(tmpdir(), 'factkit-cache-'));
  directories.push(directory);
  return directory;
}
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

describe('computeGenerateCacheKey', () => {
  it('changes with every part of the request and ignores the abort signal', async () => {
    const model = createMockLanguageModel();
    const base = { prompt: 'p', temperature: 0.7, n: 1, seed: 1 };
    const key = await computeGenerateCacheKey(model, base);
    expect(await computeGenerateCacheKey(model, { ...base, abortSignal: new AbortController().signal })).toBe(key);
    for (const variant of [{ prompt: 'q' }, { temperature: 0 }, { n: 2 }, { seed: 2 }, { maxTokens: 5 }, { system: 's' }]) {
      expect(await computeGenerateCacheKey(model, { ...base, ...variant })).not.toBe(key);
    }
    expect(await computeGenerateCacheKey(createMockLanguageModel({ id: 'other' }), base)).not.toBe(key);
  });
});

describe('withCache', () => {
  it('answers repeated requests from the cache', async () => {
    const model = createMockLanguageModel({ responses: (_request, index) => `answer ${index}` });
    const cached = withCache(model, createMemoryCache());
    const first = await cached.generate({ prompt: 'hello', seed: 1 });
    const second = await cached.generate({ prompt: 'hello', seed: 1 });
    const third = await cached.generate({ prompt: 'hello', seed: 2 });
    expect(second.texts).toEqual(first.texts);
    expect(second.cached).toBe(true);
    expect(third.texts).not.toEqual(first.texts);
    expect(model.calls).toHaveLength(2);
  });

  it('shares one call between identical requests in flight', async () => {
    const model = createMockLanguageModel({
      responses: async () => {
        await new Promise((r) => setTimeout(r, 20));
        return 'x';
      },
    });
    const cached = withCache(model, createMemoryCache());
    await Promise.all([cached.generate({ prompt: 'same' }), cached.generate({ prompt: 'same' })]);
    expect(model.calls).toHaveLength(1);
  });

  it('on disk: a crash mid-batch loses no finished call and a rerun repeats none', async () => {
    const directory = await temporaryDirectory();
    const prompts = Array.from({ length: 12 }, (_, i) => `prompt ${i}`);
    let crashAfter = 7;
    const flaky = createMockLanguageModel({
      responses: (request) => {
        if (crashAfter <= 0) throw new Error('process died');
        crashAfter -= 1;
        return `done: ${request.prompt}`;
      },
    });
    const firstRun = await settleWithConcurrency(prompts, (prompt) => withCache(flaky, createFileCache({ directory })).generate({ prompt }), { concurrency: 1 });
    expect(firstRun.filter((entry) => entry.status === 'fulfilled')).toHaveLength(7);

    const healthy = createMockLanguageModel({ responses: (request) => `done: ${request.prompt}` });
    const cachedAgain = withCache(healthy, createFileCache({ directory }));
    const secondRun = await Promise.all(prompts.map((prompt) => cachedAgain.generate({ prompt })));
    // Cache reads finish in any order under load, so the model sees the misses in any order: compare as sets.
    expect(healthy.calls.map((call) => call.prompt).sort()).toEqual(prompts.slice(7).sort());
    expect(secondRun.map((result) => result.texts[0])).toEqual(prompts.map((prompt) => `done: ${prompt}`));

    const thirdModel = createMockLanguageModel();
    await Promise.all(prompts.map((prompt) => withCache(thirdModel, createFileCache({ directory })).generate({ prompt })));
    expect(thirdModel.calls).toHaveLength(0);
  });

  it('on disk: a corrupt or half-written entry is a miss, not a crash; no temp files are left', async () => {
    const directory = await temporaryDirectory();
    const cache = createFileCache({ directory });
    await cache.set('abcdef', { texts: ['x'] });
    await mkdir(join(directory, 'zz'), { recursive: true });
    await writeFile(join(directory, 'zz', 'zzzz.json'), '{"key":"zzzz","val');
    expect(await cache.get('zzzz')).toBeUndefined();
    expect(await cache.get('abcdef')).toEqual({ texts: ['x'] });
    const files = await readdir(join(directory, 'ab'));
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});

describe('withEmbeddingCache', () => {
  it('embeds only texts it has not seen, in order', async () => {
    const embedder = createMockEmbedder({ dimensions: 8 });
    const cached = withEmbeddingCache(embedder, createMemoryCache());
    const first = await cached.embed({ texts: ['a', 'b'], kind: 'passage' });
    const second = await cached.embed({ texts: ['b', 'c', 'a'], kind: 'passage' });
    expect(embedder.calls.map((call) => call.texts)).toEqual([['a', 'b'], ['c']]);
    expect(Array.from(second.embeddings[0]!)).toEqual(Array.from(first.embeddings[1]!));
    expect(Array.from(second.embeddings[2]!)).toEqual(Array.from(first.embeddings[0]!));
  });
});
