import { WORDNET_DIRECT_ANTONYMS, WORDNET_INDIRECT_ANTONYMS } from './wordnet-antonyms.js';

/** Antonym lookup built from the WordNet table extracted by examples/nli-classifier (extract-antonyms.ts). */
export interface AntonymTable {
  /** 2 = direct WordNet antonyms, 1 = indirect (adjective satellite of an antonymous head), 0 = none. */
  readonly relation: (a: string, b: string) => 0 | 1 | 2;
}

const parse = (lines: string): Map<string, Set<string>> =>
  new Map(
    lines.split('\n').map((line) => {
      const [word, ...antonyms] = line.split(' ');
      return [word as string, new Set(antonyms)];
    }),
  );

let cached: { direct: Map<string, Set<string>>; indirect: Map<string, Set<string>> } | undefined;

/** Base-form candidates of an English word (a light stand-in for WordNet's morphy: plural, tense, comparison, -ly). */
export function baseForms(word: string): string[] {
  const forms = [word];
  const rules: readonly (readonly [string, string])[] = [
    ['ies', 'y'], ['es', ''], ['s', ''], ['ied', 'y'], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e'], ['ier', 'y'], ['iest', 'y'], ['er', ''], ['er', 'e'], ['est', ''], ['est', 'e'], ['ly', ''],
  ];
  for (const [suffix, replacement] of rules) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) forms.push(word.slice(0, word.length - suffix.length) + replacement);
  }
  return forms;
}

/** The shipped WordNet antonym table (lazily parsed once). */
export function wordNetAntonyms(): AntonymTable {
  cached ??= { direct: parse(WORDNET_DIRECT_ANTONYMS), indirect: parse(WORDNET_INDIRECT_ANTONYMS) };
  const { direct, indirect } = cached;
  return {
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
