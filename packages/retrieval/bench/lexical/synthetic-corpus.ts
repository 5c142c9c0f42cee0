// Deterministic synthetic corpora for the lexical benchmark: Zipfian (s = 1) vocabulary of pronounceable
// pseudo-words, documents of 40–80 tokens (≈ 60), queries of 2–6 terms drawn from the same distribution.
import { createSeededRandom } from '@factkit/core';

/** Seeded mulberry32 from core (the same sequence the corpora were always generated with). */
export const createRandom = createSeededRandom;

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/** The i-th pseudo-word: 2–4 consonant-vowel syllables plus a closing consonant (never an English stop word). */
export function pseudoWord(index: number): string {
  let word = '';
  let rest = index;
  do {
    word += (CONSONANTS[rest % CONSONANTS.length] as string) + (VOWELS[Math.floor(rest / CONSONANTS.length) % VOWELS.length] as string);
    rest = Math.floor(rest / (CONSONANTS.length * VOWELS.length));
  } while (rest > 0);
  return `${word}${CONSONANTS[index % 7] as string}`;
}

export class ZipfSampler {
  private readonly cdf: Float64Array;
  constructor(
    readonly vocabularySize: number,
    exponent = 1,
  ) {
    this.cdf = new Float64Array(vocabularySize);
    let total = 0;
    for (let rank = 0; rank < vocabularySize; rank++) {
      total += 1 / (rank + 1) ** exponent;
      this.cdf[rank] = total;
    }
    for (let rank = 0; rank < vocabularySize; rank++) this.cdf[rank] = (this.cdf[rank] as number) / total;
  }
  sample(random: () => number): number {
    const target = random();
    let low = 0;
    let high = this.vocabularySize - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cdf[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

export const VOCABULARY_SIZE = 100_000;

/** Documents `{ id, text }` generated lazily (the corpus is never held in memory by the generator). */
export function* generateDocuments(count: number, seed = 42): Generator<{ id: string; text: string }> {
  const random = createRandom(seed);
  const zipf = new ZipfSampler(VOCABULARY_SIZE);
  const words = new Map<number, string>();
  const wordOf = (rank: number): string => {
    let word = words.get(rank);
    if (word === undefined) {
      word = pseudoWord(rank);
      words.set(rank, word);
    }
    return word;
  };
  for (let index = 0; index < count; index++) {
    const length = 40 + Math.floor(random() * 41);
    const tokens: string[] = new Array<string>(length);
    for (let position = 0; position < length; position++) tokens[position] = wordOf(zipf.sample(random));
    yield { id: `doc${index}`, text: tokens.join(' ') };
  }
}

export function generateQueries(count: number, seed = 7): string[] {
  const random = createRandom(seed);
  const zipf = new ZipfSampler(VOCABULARY_SIZE);
  return Array.from({ length: count }, () => Array.from({ length: 2 + Math.floor(random() * 5) }, () => pseudoWord(zipf.sample(random))).join(' '));
}
