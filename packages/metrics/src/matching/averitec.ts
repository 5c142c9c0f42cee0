import type { ItemProblem } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import type { SynonymLookup } from '../text/meteor.js';
import { computeMeteor } from '../text/meteor.js';
import { tokenizeWordsNltk } from '../text/nltk-word-tokenize.js';
import { linearSumAssignment } from './linear-sum-assignment.js';

/** A gold AVeriTeC question with its answers (the dataset's `questions[]` entries). */
export interface AveritecQuestion {
  readonly question: string;
  readonly answers: readonly { readonly answer: string; readonly answer_type?: string; readonly boolean_explanation?: string }[];
}

/** A predicted question–answer pair. */
export interface AveritecEvidence {
  readonly question: string;
  readonly answer: string;
}

/**
 * Reference strings as the AVeriTeC scorer builds them: `question + " " + answer` per answer (plus `". " +
 * boolean_explanation` for Boolean answers; `question + " No answer could be found."` without answers), and the
 * de-duplicated questions (first occurrence order).
 */
export function buildAveritecReferences(questions: readonly AveritecQuestion[]): { readonly questionAnswer: string[]; readonly questionOnly: string[] } {
  if (!Array.isArray(questions)) throw new InvalidArgumentError({ where: 'buildAveritecReferences', argument: 'questions', message: 'must be an array' });
  const questionAnswer: string[] = [];
  for (const { question, answers } of questions) {
    if (answers.length === 0) questionAnswer.push(`${question} No answer could be found.`);
    for (const answer of answers) {
      let text = `${question} ${answer.answer}`;
      if (answer.answer_type === 'Boolean' && answer.boolean_explanation !== undefined) text += `. ${answer.boolean_explanation}`;
      questionAnswer.push(text);
    }
  }
  return { questionAnswer, questionOnly: [...new Set(questions.map(({ question }) => question))] };
}

export interface AveritecEvidenceScoreOptions {
  /** Tokenizer for METEOR. @default tokenizeWordsNltk (NLTK word_tokenize) */
  tokenize?: (text: string) => string[];
  /** WordNet synonym source for METEOR's third stage (see `createWordNetSynonyms`). */
  synonyms?: SynonymLookup;
  /** Predictions beyond this many are dropped, as in the scorer. @default 10 */
  maxPredictions?: number;
}

export interface AveritecEvidenceScore {
  /** Σ of METEOR over the optimal one-to-one assignment, times 1/|references|. */
  readonly score: number;
  /** `pairwise[i][j]` = METEOR(reference j, prediction i). */
  readonly pairwise: readonly (readonly number[])[];
  /** Optimal [prediction, reference] pairs. */
  readonly assignment: readonly (readonly [number, number])[];
}

/** Result of `computeHungarianMatchScore`. */
export interface HungarianMatchScore {
  /** Σ over the optimal one-to-one assignment, times 1/|references| (unmatched references count 0). */
  readonly score: number;
  /** Optimal [prediction, reference] pairs. */
  readonly assignment: readonly (readonly [number, number])[];
}

/**
 * The AVeriTeC matching step for any similarity: `pairwise[i][j]` = similarity of prediction i and reference j
 * (METEOR, BERTScore F1, …); maximizing assignment, total × 1/|references| as the scorer computes it.
 * @throws InvalidArgumentError for a ragged or NaN matrix or zero references.
 */
export function computeHungarianMatchScore(pairwise: readonly (readonly number[])[], options: { referenceCount?: number } = {}): HungarianMatchScore {
  const referenceCount = options.referenceCount ?? pairwise[0]?.length ?? 0;
  if (!Number.isInteger(referenceCount) || referenceCount < 1) {
    throw new InvalidArgumentError({ where: 'computeHungarianMatchScore', argument: 'referenceCount', message: `must be a positive integer (got ${String(referenceCount)}); pass it when there are no predictions` });
  }
  if (pairwise.length === 0) return { score: 0, assignment: [] };
  const { rows, columns, total } = linearSumAssignment(pairwise, { maximize: true });
  return { score: total * (1 / referenceCount), assignment: rows.map((row, index) => [row, columns[index]!] as const) };
}

/**
 * AVeriTeC evidence score: pairwise METEOR between predictions and references, Hungarian assignment maximizing the
 * total, divided by the number of references (unmatched references count 0).
 * @throws InvalidArgumentError when `references` is empty.
 */
export function computeAveritecEvidenceScore(predictions: readonly string[], references: readonly string[], options: AveritecEvidenceScoreOptions = {}): AveritecEvidenceScore {
  const { tokenize = tokenizeWordsNltk, synonyms, maxPredictions = 10 } = options;
  const where = 'computeAveritecEvidenceScore';
  if (!Array.isArray(predictions)) throw new InvalidArgumentError({ where, argument: 'predictions', message: 'must be an array of strings' });
  if (!Array.isArray(references) || references.length === 0) throw new InvalidArgumentError({ where, argument: 'references', message: 'must be a non-empty array of strings' });
  const kept = predictions.slice(0, maxPredictions);
  const referenceTokens = references.map((text) => tokenize(text));
  const pairwise = kept.map((prediction) => {
    const hypothesis = tokenize(prediction);
    return referenceTokens.map((reference) => computeMeteor(hypothesis, reference, { synonyms }).score);
  });
  return { ...computeHungarianMatchScore(pairwise, { referenceCount: references.length }), pairwise };
}

export interface AveritecItem {
  readonly id?: string;
  readonly predictedEvidence: readonly AveritecEvidence[];
  readonly predictedLabel: string;
  readonly referenceQuestions: readonly AveritecQuestion[];
  readonly referenceLabel: string;
}

export interface AveritecEvaluationOptions extends AveritecEvidenceScoreOptions {
  /** Evidence-score thresholds above which a correct label counts. @default [0.25] */
  levels?: readonly number[];
}

/**
 * Every problem code `@factkit/metrics` can emit (the `problems` of `evaluateAveritec`):
 * - `unscorable-item`: the item could not be scored (e.g. it has no reference questions or a malformed field); it is
 *   left out of every mean.
 */
export type MetricsProblemCode = 'unscorable-item';

/** `evaluateAveritec`'s result; every mean is `null` when no item could be scored (a mean over zero items is absent). */
export interface AveritecEvaluation {
  /** Mean question-only evidence score. */
  readonly questionOnly: number | null;
  /** Mean question+answer evidence score. */
  readonly questionAnswer: number | null;
  /** Plain label accuracy. */
  readonly labelAccuracy: number | null;
  /** Per level: share of items whose Q+A score is > level and whose label is correct (the AVeriTeC score). */
  readonly averitecScore: Readonly<Record<string, number | null>>;
  readonly perItem: readonly { readonly id?: string; readonly questionOnly: number; readonly questionAnswer: number; readonly labelCorrect: boolean }[];
  /** Items that could not be scored (e.g. no reference questions); they are left out of every mean. */
  readonly problems: readonly ItemProblem<MetricsProblemCode>[];
}

/**
 * Full AVeriTeC evaluation: question-only and question+answer METEOR/Hungarian scores, label accuracy, and the
 * AVeriTeC score (label accuracy gated at Q+A score > 0.25). A bad item becomes a `problems` entry.
 */
export function evaluateAveritec(items: readonly AveritecItem[], options: AveritecEvaluationOptions = {}): AveritecEvaluation {
  const { levels = [0.25], ...scoreOptions } = options;
  if (!Array.isArray(items)) throw new InvalidArgumentError({ where: 'evaluateAveritec', argument: 'items', message: 'must be an array' });
  const perItem: { id?: string; questionOnly: number; questionAnswer: number; labelCorrect: boolean }[] = [];
  const problems: ItemProblem<MetricsProblemCode>[] = [];
  items.forEach((item, index) => {
    try {
      const references = buildAveritecReferences(item.referenceQuestions);
      const evidence: readonly AveritecEvidence[] = item.predictedEvidence.slice(0, scoreOptions.maxPredictions ?? 10);
      const questionOnly = computeAveritecEvidenceScore(
        evidence.map(({ question }) => question),
        references.questionOnly,
        scoreOptions,
      ).score;
      const questionAnswer = computeAveritecEvidenceScore(
        evidence.map(({ question, answer }) => `${question} ${answer}`),
        references.questionAnswer,
        scoreOptions,
      ).score;
      perItem.push({ ...(item.id === undefined ? {} : { id: item.id }), questionOnly, questionAnswer, labelCorrect: item.predictedLabel === item.referenceLabel });
    } catch (error) {
      problems.push({ index, ...(item?.id === undefined ? {} : { id: item.id }), code: 'unscorable-item', message: error instanceof Error ? error.message : String(error) });
    }
  });
  const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);
  const averitecScore: Record<string, number | null> = {};
  for (const level of levels) averitecScore[String(level)] = mean(perItem.map((item) => (item.questionAnswer > level && item.labelCorrect ? 1 : 0)));
  return {
    questionOnly: mean(perItem.map((item) => item.questionOnly)),
    questionAnswer: mean(perItem.map((item) => item.questionAnswer)),
    labelAccuracy: mean(perItem.map((item) => (item.labelCorrect ? 1 : 0))),
    averitecScore,
    perItem,
    problems,
  };
}
