import { InvalidArgumentError } from '@factkit/core';
import { stemPorterNltk } from './porter-stemmer.js';

/**
 * Synonyms of a (stemmed, lowercased) word for METEOR's third stage: the lemma names of every WordNet synset of
 * the word (NLTK `wordnet.synsets(word)`, all parts of speech, morphy applied), without multi-word (`_`) names.
 */
export type SynonymLookup = (word: string) => Iterable<string>;

type MeteorMatchStage = MeteorMatch[2];
/** One aligned pair: hypothesis index, reference index, stage that matched it. */
export type MeteorMatch = readonly [hypothesisIndex: number, referenceIndex: number, stage: 'exact' | 'stem' | 'synonym'];

export interface MeteorOptions {
  /** Weight of precision vs recall in Fmean. @default 0.9 */
  alpha?: number;
  /** Fragmentation penalty exponent. @default 3 */
  beta?: number;
  /** Maximum fragmentation penalty. @default 0.5 */
  gamma?: number;
  /** Stemmer of the second stage. @default stemPorterNltk (NLTK's PorterStemmer) */
  stemmer?: (word: string) => string;
  /** Synonym source of the third stage; without one the stage matches only identical stems (so it adds nothing). */
  synonyms?: SynonymLookup;
}

export interface MeteorResult {
  readonly score: number;
  /** Alignment sorted by hypothesis index. */
  readonly matches: readonly MeteorMatch[];
  readonly hypothesisLength: number;
  readonly referenceLength: number;
  readonly precision: number;
  readonly recall: number;
  readonly fmean: number;
  readonly chunks: number;
  readonly fragmentation: number;
  readonly penalty: number;
}

type Enumerated = [index: number, word: string][];

/** Greedy matching as NLTK's `_match_enums`: hypothesis from last to first, reference from last to first. */
function matchStage(hypothesis: Enumerated, reference: Enumerated, stage: MeteorMatchStage, accepts: (hypothesisWord: string) => (referenceWord: string) => boolean, out: MeteorMatch[]): void {
  for (let i = hypothesis.length - 1; i >= 0; i--) {
    const [hypothesisIndex, hypothesisWord] = hypothesis[i]!;
    const matches = accepts(hypothesisWord);
    for (let j = reference.length - 1; j >= 0; j--) {
      const [referenceIndex, referenceWord] = reference[j]!;
      if (matches(referenceWord)) {
        out.push([hypothesisIndex, referenceIndex, stage]);
        hypothesis.splice(i, 1);
        reference.splice(j, 1);
        break;
      }
    }
  }
}

function countChunks(matches: readonly MeteorMatch[]): number {
  let chunks = 1;
  for (let index = 0; index < matches.length - 1; index++) {
    const current = matches[index]!;
    const next = matches[index + 1]!;
    if (!(next[0] === current[0] + 1 && next[1] === current[1] + 1)) chunks++;
  }
  return chunks;
}

function checkTokens(tokens: readonly string[], argument: string, where: string): void {
  if (!Array.isArray(tokens) || tokens.some((token) => typeof token !== 'string')) {
    throw new InvalidArgumentError({ where, argument, message: 'must be an array of token strings (tokenize first, e.g. with tokenizeWordsNltk)' });
  }
}

/**
 * METEOR of a tokenized hypothesis against one tokenized reference, exactly as NLTK 3.8's `single_meteor_score`:
 * lowercase, exact → Porter stem → WordNet synonym stages, Fmean with alpha, fragmentation penalty gamma·frag^beta.
 * Empty sides or no match give 0.
 * @throws InvalidArgumentError when tokens are not string arrays.
 * @example computeMeteor(['the', 'cat'], ['the', 'cat']).score // 0.9375 (1 − 0.5·(1/2)³)
 */
export function computeMeteor(hypothesis: readonly string[], reference: readonly string[], options: MeteorOptions = {}): MeteorResult {
  const { alpha = 0.9, beta = 3, gamma = 0.5, stemmer = stemPorterNltk, synonyms } = options;
  const where = 'computeMeteor';
  checkTokens(hypothesis, 'hypothesis', where);
  checkTokens(reference, 'reference', where);
  let hypothesisLeft: Enumerated = hypothesis.map((word, index) => [index, word.toLowerCase()]);
  let referenceLeft: Enumerated = reference.map((word, index) => [index, word.toLowerCase()]);
  const matches: MeteorMatch[] = [];
  matchStage(hypothesisLeft, referenceLeft, 'exact', (word) => (other) => other === word, matches);
  hypothesisLeft = hypothesisLeft.map(([index, word]) => [index, stemmer(word)]);
  referenceLeft = referenceLeft.map(([index, word]) => [index, stemmer(word)]);
  matchStage(hypothesisLeft, referenceLeft, 'stem', (word) => (other) => other === word, matches);
  matchStage(
    hypothesisLeft,
    referenceLeft,
    'synonym',
    (word) => {
      const accepted = new Set<string>([word]);
      if (synonyms) for (const name of synonyms(word)) if (!name.includes('_')) accepted.add(name);
      return (other) => accepted.has(other);
    },
    matches,
  );
  matches.sort((left, right) => left[0] - right[0]);
  const m = matches.length;
  const base = { matches, hypothesisLength: hypothesis.length, referenceLength: reference.length };
  if (m === 0 || hypothesis.length === 0 || reference.length === 0) {
    return { ...base, score: 0, precision: 0, recall: 0, fmean: 0, chunks: 0, fragmentation: 0, penalty: 0 };
  }
  const precision = m / hypothesis.length;
  const recall = m / reference.length;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const chunks = countChunks(matches);
  const fragmentation = chunks / m;
  const penalty = gamma * fragmentation ** beta;
  return { ...base, score: (1 - penalty) * fmean, precision, recall, fmean, chunks, fragmentation, penalty };
}

/**
 * METEOR against several references: the maximum single-reference score (NLTK `meteor_score`).
 * @throws InvalidArgumentError when `references` is empty.
 */
export function computeMeteorMulti(hypothesis: readonly string[], references: readonly (readonly string[])[], options: MeteorOptions = {}): { readonly score: number; readonly perReference: readonly MeteorResult[] } {
  if (!Array.isArray(references) || references.length === 0) throw new InvalidArgumentError({ where: 'computeMeteorMulti', argument: 'references', message: 'must be a non-empty array of token arrays' });
  const perReference = references.map((reference) => computeMeteor(hypothesis, reference, options));
  return { score: Math.max(...perReference.map((result) => result.score)), perReference };
}
