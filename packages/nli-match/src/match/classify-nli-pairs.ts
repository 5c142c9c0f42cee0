import type { NliLabel, NliModel, NliPair, NliPrediction, ProgressCallback } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError, isAbortReason, splitSentences, tokenizeWords } from '@factkit/core';

export interface ClassifyNliPairsOptions {
  /** Pairs per `classify` call. @default nli.maxBatchSize ?? 32 */
  readonly maxBatchSize?: number;
  /**
   * Longest premise, in words (CJK characters count one each), sent as is; longer premises are split into
   * windows of whole consecutive sentences and the pair is entailment if any window entails.
   * @default nli.maxInputLength ?? Infinity
   */
  readonly maxPremiseWords?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each batch. */
  /** Called after each NLI batch: `completed` counts pairs classified. */
  readonly onProgress?: ProgressCallback;
}

/** Splits a premise into windows of consecutive sentences of at most `maxWords` words (a longer sentence is its own window). */
export function splitPremiseIntoWindows(premise: string, maxWords: number): string[] {
  if (tokenizeWords(premise).length <= maxWords) return [premise];
  const windows: string[] = [];
  let current: string[] = [];
  let currentWords = 0;
  for (const sentence of splitSentences(premise)) {
    const words = tokenizeWords(sentence).length;
    if (current.length > 0 && currentWords + words > maxWords) {
      windows.push(current.join(' '));
      current = [];
      currentWords = 0;
    }
    current.push(sentence);
    currentWords += words;
  }
  if (current.length > 0) windows.push(current.join(' '));
  return windows.length > 0 ? windows : [premise];
}

const PRECEDENCE: readonly NliLabel[] = ['entailment', 'contradiction', 'neutral'];

/** Combines the window predictions of one pair: entailment if any window entails, then contradiction, then neutral; unknown windows make the pair unknown only when nothing decisive was found. */
function combineWindows(predictions: readonly NliPrediction[]): NliPrediction {
  if (predictions.length === 1) return predictions[0] as NliPrediction;
  for (const label of PRECEDENCE.slice(0, 2)) {
    const candidates = predictions.filter((prediction) => prediction.label === label);
    if (candidates.length > 0) {
      return candidates.reduce((best, prediction) => ((prediction.scores?.[label] ?? 0) > (best.scores?.[label] ?? 0) ? prediction : best));
    }
  }
  const unknown = predictions.find((prediction) => prediction.label === null);
  if (unknown) return { ...unknown, problem: `${unknown.problem ?? 'no label'} (in 1 of ${predictions.length} premise windows)` };
  return predictions.reduce((best, prediction) => ((prediction.scores?.neutral ?? 0) > (best.scores?.neutral ?? 0) ? prediction : best));
}

/**
 * Classifies many pairs with any NliModel: splits long premises into sentence windows, sends at most `maxBatchSize`
 * pairs per call, and turns a failed call into per-pair problems (label null) so finished batches are never lost.
 * Aborts rethrow the signal's reason unchanged.
 * @example await classifyNliPairs(nli, [{ premise, hypothesis }], { maxBatchSize: 16 })
 */
export async function classifyNliPairs(nli: NliModel, pairs: readonly NliPair[], options: ClassifyNliPairsOptions = {}): Promise<NliPrediction[]> {
  const { maxBatchSize = nli.maxBatchSize ?? 32, maxPremiseWords = nli.maxInputLength ?? Number.POSITIVE_INFINITY, abortSignal, onProgress } = options;
  assertPositiveInteger('maxBatchSize', maxBatchSize, 'classifyNliPairs');
  if (!(maxPremiseWords >= 1)) {
    throw new InvalidArgumentError({ where: 'classifyNliPairs', argument: 'maxPremiseWords', message: `must be >= 1 (got ${maxPremiseWords})` });
  }
  abortSignal?.throwIfAborted();
  const flat: NliPair[] = [];
  const owners: number[] = [];
  pairs.forEach((pair, index) => {
    for (const window of splitPremiseIntoWindows(pair.premise, maxPremiseWords)) {
      flat.push({ premise: window, hypothesis: pair.hypothesis });
      owners.push(index);
    }
  });
  const predictions: NliPrediction[] = new Array(flat.length);
  for (let start = 0; start < flat.length; start += maxBatchSize) {
    abortSignal?.throwIfAborted();
    const batch = flat.slice(start, start + maxBatchSize);
    try {
      const { results } = await nli.classify({ pairs: batch, ...(abortSignal ? { abortSignal } : {}) });
      batch.forEach((_pair, offset) => {
        const prediction = results[offset];
        predictions[start + offset] = prediction ?? { label: null, problem: `NLI model "${nli.id}" returned ${results.length} results for ${batch.length} pairs` };
      });
    } catch (error) {
      if (isAbortReason(error, abortSignal)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      batch.forEach((_pair, offset) => {
        predictions[start + offset] = { label: null, problem: `NLI model "${nli.id}" failed: ${message}` };
      });
    }
    onProgress?.({ completed: Math.min(start + maxBatchSize, flat.length), total: flat.length });
  }
  const grouped: NliPrediction[][] = pairs.map(() => []);
  predictions.forEach((prediction, index) => grouped[owners[index] as number]?.push(prediction));
  return grouped.map((windows) => combineWindows(windows));
}
