import { tokenizeWords } from '@factkit/core';

/** English function words (and a few Chinese particles) ignored when measuring content-word overlap. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then than so of to in on at by for with from into onto over under about as is are was were be been being ' +
    "am do does did done has have had having it its it's this that these those there here he she they we you i me him her them us " +
    'his hers their our your my mine what which who whom whose when where why how all any both each few more most other some such ' +
    'only own same too very can will just should would could may might must shall also lrb rrb lsb rsb s t ' +
    '的 了 是 在 和 与 及 也 都 而 之 于 为 对 把 被'
  ).split(/\s+/u),
);

/** Words that negate a statement. Negation present on one side only is a classic contradiction cue. */
const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'nowhere',
  'without',
  "n't",
  'cannot',
  "can't",
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "won't",
  "wouldn't",
  "shouldn't",
  "couldn't",
  "hasn't",
  "haven't",
  "hadn't",
  'fails',
  'failed',
  'lack',
  'lacks',
  'lacked',
  'only',
  'incapable',
  'unable',
  'refused',
  'denied',
  '不',
  '没',
  '没有',
  '无',
  '非',
  '未',
  '别',
]);

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  twenty: '20',
  hundred: '100',
  thousand: '1000',
  million: '1000000',
  billion: '1000000000',
  first: '1',
  second: '2',
  third: '3',
};

/** Names of the lexical features, in the order {@link computeLexicalFeatures} returns them. */
export const LEXICAL_FEATURE_NAMES = [
  'hypothesisCoverage',
  'premiseCoverage',
  'jaccard',
  'bigramCoverage',
  'negationMismatch',
  'hypothesisNegations',
  'premiseNegations',
  'numberMismatch',
  'hypothesisHasNumbers',
  'entityMismatch',
  'logLengthRatio',
  'exactContainment',
  'missingContentWords',
  'negationMismatchCoverage',
  'numberMismatchCoverage',
  'entityMismatchCoverage',
] as const;

export type LexicalFeatureName = (typeof LEXICAL_FEATURE_NAMES)[number];

/** Lexical evidence about a premise/hypothesis pair; every value is finite. */
export type LexicalFeatures = Readonly<Record<LexicalFeatureName, number>>;

export function contentWords(tokens: readonly string[]): string[] {
  return tokens.filter((token) => !STOPWORDS.has(token) && !/^\p{P}+$/u.test(token));
}

export function countNegations(text: string, tokens: readonly string[]): number {
  let count = 0;
  for (const token of tokens) if (NEGATIONS.has(token)) count += 1;
  count += (text.match(/n't\b/giu) ?? []).length;
  // Chinese has no spaces: count negation characters in the raw text.
  count += (text.match(/[不没无未非]/gu) ?? []).length;
  return count;
}

export function numbersOf(text: string, tokens: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/\d+(?:[.,]\d+)*/gu)) found.add(match[0].replace(/,/gu, ''));
  for (const token of tokens) {
    const value = NUMBER_WORDS[token];
    if (value !== undefined) found.add(value);
  }
  return found;
}

/** Capitalised words not at the start of a sentence: a cheap stand-in for named entities. */
export function entitiesOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?<![.!?]\s|^)\b\p{Lu}[\p{L}\p{N}'-]+/gu)) found.add(match[0].toLowerCase());
  return found;
}

/** Computes the lexical features of a pair. Pure and cheap; used by the lexical and the feature-based NLI models. */
export function computeLexicalFeatures(premise: string, hypothesis: string): LexicalFeatures {
  const premiseTokens = tokenizeWords(premise);
  const hypothesisTokens = tokenizeWords(hypothesis);
  const premiseContent = contentWords(premiseTokens);
  const hypothesisContent = contentWords(hypothesisTokens);
  const premiseSet = new Set(premiseContent);
  const hypothesisSet = new Set(hypothesisContent);
  let shared = 0;
  for (const word of hypothesisSet) if (premiseSet.has(word)) shared += 1;
  const union = new Set([...premiseSet, ...hypothesisSet]).size;

  const bigrams = (tokens: readonly string[]) => {
    const out = new Set<string>();
    for (let i = 0; i + 1 < tokens.length; i += 1) out.add(`${tokens[i]} ${tokens[i + 1]}`);
    return out;
  };
  const premiseBigrams = bigrams(premiseTokens);
  const hypothesisBigrams = bigrams(hypothesisTokens);
  let sharedBigrams = 0;
  for (const bigram of hypothesisBigrams) if (premiseBigrams.has(bigram)) sharedBigrams += 1;

  const hypothesisNegations = countNegations(hypothesis, hypothesisTokens);
  const premiseNegations = countNegations(premise, premiseTokens);

  const premiseNumbers = numbersOf(premise, premiseTokens);
  const hypothesisNumbers = numbersOf(hypothesis, hypothesisTokens);
  let missingNumbers = 0;
  for (const number of hypothesisNumbers) if (!premiseNumbers.has(number)) missingNumbers += 1;

  const premiseLower = ` ${premiseTokens.join(' ')} `;
  const hypothesisEntities = entitiesOf(hypothesis);
  let missingEntities = 0;
  for (const entity of hypothesisEntities) {
    const entityTokens = tokenizeWords(entity);
    if (entityTokens.length > 0 && !premiseLower.includes(` ${entityTokens.join(' ')} `)) missingEntities += 1;
  }

  const hypothesisText = hypothesisTokens.join(' ');
  const hypothesisCoverage = hypothesisSet.size === 0 ? 0 : shared / hypothesisSet.size;
  const negationMismatch = hypothesisNegations > 0 !== premiseNegations > 0 ? 1 : 0;
  const numberMismatch = hypothesisNumbers.size === 0 ? 0 : missingNumbers / hypothesisNumbers.size;
  const entityMismatch = hypothesisEntities.size === 0 ? 0 : missingEntities / hypothesisEntities.size;
  return {
    hypothesisCoverage,
    premiseCoverage: premiseSet.size === 0 ? 0 : shared / premiseSet.size,
    jaccard: union === 0 ? 0 : shared / union,
    bigramCoverage: hypothesisBigrams.size === 0 ? 0 : sharedBigrams / hypothesisBigrams.size,
    negationMismatch,
    hypothesisNegations: Math.min(hypothesisNegations, 3),
    premiseNegations: Math.min(premiseNegations, 3),
    numberMismatch,
    hypothesisHasNumbers: hypothesisNumbers.size > 0 ? 1 : 0,
    entityMismatch,
    logLengthRatio: Math.log((hypothesisTokens.length + 1) / (premiseTokens.length + 1)),
    exactContainment: hypothesisText.length > 0 && premiseLower.includes(` ${hypothesisText} `) ? 1 : 0,
    // High overlap plus a mismatch is the contradiction pattern ("X is an English-language network" vs "Spanish-language").
    missingContentWords: Math.min(hypothesisSet.size - shared, 5),
    negationMismatchCoverage: negationMismatch * hypothesisCoverage,
    numberMismatchCoverage: numberMismatch * hypothesisCoverage,
    entityMismatchCoverage: entityMismatch * hypothesisCoverage,
  };
}

/** The features as an array in {@link LEXICAL_FEATURE_NAMES} order. */
export function lexicalFeatureVector(features: LexicalFeatures): number[] {
  return LEXICAL_FEATURE_NAMES.map((name) => features[name]);
}
