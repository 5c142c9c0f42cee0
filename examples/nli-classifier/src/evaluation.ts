// What train.ts and train-use-lite.ts share: the labels and sources, the splits (held-out claims, and the validation
// part of the training claims that model selection is scored on) and the scores per source.
import { createHash } from 'node:crypto';
import type { NliLabel } from '@factkit/core';
import { NLI_LABELS } from '@factkit/core';
import { computeClassificationReport } from '@factkit/metrics';
import type { LabelledPair } from './shared.js';

export const SEED = 20251122;
export const LABELS: readonly NliLabel[] = ['entailment', 'neutral', 'contradiction'];
export const SOURCES = ['fever', 'climate-fever', 'scifact', 'vitaminc', 'mnli'] as const;
export type Source = (typeof SOURCES)[number];
export const sourceOf = (pair: LabelledPair) => pair.source.split(':')[0] as Source;

export const round = (value: number) => Number(value.toPrecision(6));

/** Accuracy and macro-F1 over the three NLI labels (6 significant digits). */
export function score(gold: readonly string[], predicted: readonly string[]): { n: number; accuracy: number; macroF1: number } {
  const report = computeClassificationReport(gold, predicted, { labels: NLI_LABELS });
  return { n: gold.length, accuracy: round(report.accuracy), macroF1: round(report.macro.f1) };
}

/** Positions of the examples of `source` ('all': every example). */
export function positionsOf(data: readonly { pair: LabelledPair }[], source: Source | 'all'): number[] {
  return data.map((example, index) => (source === 'all' || sourceOf(example.pair) === source ? index : -1)).filter((index) => index >= 0);
}

/** Scores of `predicted` (one label per example) over the examples at `positions`. */
export function scoreAt(data: readonly { pair: LabelledPair }[], predicted: readonly string[], positions: readonly number[]) {
  return score(
    positions.map((index) => (data[index] as { pair: LabelledPair }).pair.label),
    positions.map((index) => predicted[index] as string),
  );
}

/** Macro-F1 per source. */
export function macroF1PerSource(data: readonly { pair: LabelledPair }[], predicted: readonly string[]): Record<Source, number> {
  return Object.fromEntries(SOURCES.map((source) => [source, scoreAt(data, predicted, positionsOf(data, source)).macroF1])) as Record<Source, number>;
}

/** Macro-F1 averaged over sources (so the big sources do not drown VitaminC and MultiNLI). */
export const meanOverSources = (bySource: Record<Source, number>) => SOURCES.reduce((sum, source) => sum + bySource[source], 0) / SOURCES.length;

/** The held-out split (test), the training split, and the training claims' 20% validation part used for model selection. */
export function splitExamples<T extends { pair: LabelledPair }>(examples: readonly T[]): { train: T[]; test: T[]; fitPart: T[]; validationPart: T[] } {
  const isValidation = (group: string) => createHash('sha256').update(`factkit-nli-validation-v1:${group}`).digest().readUInt32BE(0) % 100 < 20;
  const train = examples.filter((example) => example.pair.split === 'train');
  const test = examples.filter((example) => example.pair.split === 'test');
  return { train, test, fitPart: train.filter((example) => !isValidation(example.pair.group)), validationPart: train.filter((example) => isValidation(example.pair.group)) };
}
