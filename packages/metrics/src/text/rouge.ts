import { InvalidArgumentError } from '@factkit/core';
import { stemPorterNltk } from './porter-stemmer.js';

/** ROUGE variants, named as in Google's rouge-score. */
export type RougeType = 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum';
export const ROUGE_TYPES: readonly RougeType[] = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'];

export interface RougeScore {
  readonly precision: number;
  readonly recall: number;
  readonly fmeasure: number;
}

/** Scores per requested ROUGE type. */
export type RougeResult = { readonly [K in RougeType]?: RougeScore };

export interface RougeOptions {
  /** Which scores to compute. @default ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] */
  types?: readonly RougeType[];
  /** Porter-stem tokens longer than 3 characters, as rouge-score's `use_stemmer`. @default false */
  useStemmer?: boolean;
}

export interface RougeTokenizeOptions {
  /** @default false */
  useStemmer?: boolean;
}

/**
 * rouge-score's tokenizer: lowercase, every run of characters outside `[a-z0-9]` becomes a space, split,
 * optionally Porter-stem tokens longer than 3 characters.
 * @example tokenizeForRouge("The café's cats", { useStemmer: true }) // ['the', 'caf', 's', 'cat']
 */
export function tokenizeForRouge(text: string, options: RougeTokenizeOptions = {}): string[] {
  const { useStemmer = false } = options;
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'tokenizeForRouge', argument: 'text', message: 'must be a string' });
  const tokens = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(/\s+/);
  return (useStemmer ? tokens.map((token) => (token.length > 3 ? stemPorterNltk(token) : token)) : tokens).filter((token) => /^[a-z0-9]+$/.test(token));
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function countNgrams(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0; start + n <= tokens.length; start++) {
    const key = tokens.slice(start, start + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function scoreNgrams(target: readonly string[], prediction: readonly string[], n: number): RougeScore {
  const targetCounts = countNgrams(target, n);
  const predictionCounts = countNgrams(prediction, n);
  let overlap = 0;
  for (const [ngram, count] of targetCounts) overlap += Math.min(count, predictionCounts.get(ngram) ?? 0);
  const targetTotal = Math.max(0, target.length - n + 1);
  const predictionTotal = Math.max(0, prediction.length - n + 1);
  const precision = overlap / Math.max(predictionTotal, 1);
  const recall = overlap / Math.max(targetTotal, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function lcsTable(reference: readonly string[], candidate: readonly string[]): Int32Array[] {
  const table = Array.from({ length: reference.length + 1 }, () => new Int32Array(candidate.length + 1));
  for (let i = 1; i <= reference.length; i++) {
    const row = table[i]!;
    const previous = table[i - 1]!;
    for (let j = 1; j <= candidate.length; j++) {
      row[j] = reference[i - 1] === candidate[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    }
  }
  return table;
}

function scoreLcs(target: readonly string[], prediction: readonly string[]): RougeScore {
  if (target.length === 0 || prediction.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const length = lcsTable(target, prediction)[target.length]![prediction.length]!;
  const precision = length / prediction.length;
  const recall = length / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** Indices into `reference` of one LCS with `candidate`, backtracked as rouge-score's `_backtrack_norec`. */
function lcsIndices(reference: readonly string[], candidate: readonly string[]): number[] {
  const table = lcsTable(reference, candidate);
  const indices: number[] = [];
  let i = reference.length;
  let j = candidate.length;
  while (i > 0 && j > 0) {
    if (reference[i - 1] === candidate[j - 1]) {
      indices.push(i - 1);
      i--;
      j--;
    } else if (table[i]![j - 1]! > table[i - 1]![j]!) j--;
    else i--;
  }
  return indices.reverse();
}

function scoreSummaryLcs(targetSentences: readonly string[][], predictionSentences: readonly string[][]): RougeScore {
  const zero = { precision: 0, recall: 0, fmeasure: 0 };
  if (targetSentences.length === 0 || predictionSentences.length === 0) return zero;
  const m = targetSentences.reduce((sum, sentence) => sum + sentence.length, 0);
  const n = predictionSentences.reduce((sum, sentence) => sum + sentence.length, 0);
  if (m === 0 || n === 0) return zero;
  const targetCounts = new Map<string, number>();
  const predictionCounts = new Map<string, number>();
  for (const sentence of targetSentences) for (const token of sentence) targetCounts.set(token, (targetCounts.get(token) ?? 0) + 1);
  for (const sentence of predictionSentences) for (const token of sentence) predictionCounts.set(token, (predictionCounts.get(token) ?? 0) + 1);
  let hits = 0;
  for (const reference of targetSentences) {
    const union = new Set<number>();
    for (const candidate of predictionSentences) for (const index of lcsIndices(reference, candidate)) union.add(index);
    for (const index of [...union].sort((left, right) => left - right)) {
      const token = reference[index]!;
      if ((predictionCounts.get(token) ?? 0) > 0 && (targetCounts.get(token) ?? 0) > 0) {
        hits++;
        predictionCounts.set(token, predictionCounts.get(token)! - 1);
        targetCounts.set(token, targetCounts.get(token)! - 1);
      }
    }
  }
  const recall = hits / m;
  const precision = hits / n;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function checkTypes(types: readonly RougeType[], where: string): void {
  if (!Array.isArray(types) || types.length === 0 || types.some((type) => !ROUGE_TYPES.includes(type))) {
    throw new InvalidArgumentError({ where, argument: 'types', message: `must be a non-empty list of ${ROUGE_TYPES.join(', ')}` });
  }
}

/**
 * ROUGE-1/2/L/Lsum of a prediction against one reference, identical to rouge-score's
 * `RougeScorer(types, use_stemmer).score(target=reference, prediction)`. rougeLsum splits both texts on newlines.
 * @throws InvalidArgumentError for non-string texts or unknown types.
 * @example computeRouge('the cat sat', 'the cat sat down').rouge1.recall // 0.75
 */
export function computeRouge(prediction: string, reference: string, options: RougeOptions = {}): RougeResult {
  const { types = ROUGE_TYPES, useStemmer = false } = options;
  const where = 'computeRouge';
  if (typeof prediction !== 'string') throw new InvalidArgumentError({ where, argument: 'prediction', message: 'must be a string' });
  if (typeof reference !== 'string') throw new InvalidArgumentError({ where, argument: 'reference', message: 'must be a string' });
  checkTypes(types, where);
  const target = tokenizeForRouge(reference, { useStemmer });
  const predicted = tokenizeForRouge(prediction, { useStemmer });
  const result: { -readonly [K in RougeType]?: RougeScore } = {};
  for (const type of types) {
    if (type === 'rouge1') result.rouge1 = scoreNgrams(target, predicted, 1);
    else if (type === 'rouge2') result.rouge2 = scoreNgrams(target, predicted, 2);
    else if (type === 'rougeL') result.rougeL = scoreLcs(target, predicted);
    else {
      const sentences = (text: string) =>
        text
          .split('\n')
          .filter((line) => line.length > 0)
          .map((line) => tokenizeForRouge(line, { useStemmer }));
      result.rougeLsum = scoreSummaryLcs(sentences(reference), sentences(prediction));
    }
  }
  return result;
}

export interface RougeMultiResult {
  /** Per ROUGE type: the reference with the largest F (first one on ties) and its scores. */
  readonly best: Partial<Record<RougeType, RougeScore & { readonly referenceIndex: number }>>;
  /** Scores against each reference, in order. */
  readonly perReference: readonly RougeResult[];
}

/**
 * ROUGE against several references, keeping per type the reference with the highest F-measure (rouge-score `score_multi`).
 * @throws InvalidArgumentError when `references` is empty.
 */
export function computeRougeMulti(prediction: string, references: readonly string[], options: RougeOptions = {}): RougeMultiResult {
  const { types = ROUGE_TYPES } = options;
  if (!Array.isArray(references) || references.length === 0) throw new InvalidArgumentError({ where: 'computeRougeMulti', argument: 'references', message: 'must be a non-empty array of strings' });
  const perReference = references.map((reference) => computeRouge(prediction, reference, options));
  const best: Partial<Record<RougeType, RougeScore & { referenceIndex: number }>> = {};
  for (const type of types) {
    perReference.forEach((scores, referenceIndex) => {
      const score = scores[type]!;
      const current = best[type];
      if (current === undefined || score.fmeasure > current.fmeasure) best[type] = { ...score, referenceIndex };
    });
  }
  return { best, perReference };
}
