import { describe, expect, it } from 'vitest';
import type { NliModel, NliPrediction } from '../index.js';
import { InvalidArgumentError, NLI_LABELS } from '../index.js';

type Factory<T> = () => T | Promise<T>;

export interface NliModelContractOptions {
  /**
   * The model gives the same labels for the same pairs, call after call and whatever the batch (true for classifiers;
   * an LLM judge behind a scripted model whose reply depends only on the prompt is deterministic too). @default true
   */
  readonly deterministic?: boolean;
}

const PAIRS = [
  { premise: 'A man is playing a guitar on stage.', hypothesis: 'A man is playing an instrument.' },
  { premise: 'The sky is blue today.', hypothesis: 'It is raining heavily.' },
  { premise: '', hypothesis: 'Anything.' },
  { premise: 'Paris is the capital of France.', hypothesis: '' },
  { premise: 'Der Eiffelturm steht in Paris. 北京是中国的首都。', hypothesis: 'The tower is in Paris 😀.' },
];

function checkPrediction(prediction: NliPrediction | undefined): void {
  expect(prediction).toBeDefined();
  const { label, scores, problem } = prediction as NliPrediction;
  if (label === null) expect(typeof problem === 'string' && problem.length > 0).toBe(true);
  else expect(NLI_LABELS).toContain(label);
  const entries = Object.entries(scores ?? {}) as [string, number][];
  for (const [name, score] of entries) {
    expect(NLI_LABELS).toContain(name);
    expect(Number.isFinite(score) && score >= 0 && score <= 1).toBe(true);
  }
  if (entries.length === NLI_LABELS.length) {
    expect(Math.abs(entries.reduce((sum, [, score]) => sum + score, 0) - 1)).toBeLessThan(1e-6);
    // With the full distribution, the label is a class of highest probability.
    if (label !== null) expect(scores?.[label]).toBe(Math.max(...entries.map(([, score]) => score)));
  }
}

function abortedSignal(): { signal: AbortSignal; reason: Error } {
  const controller = new AbortController();
  const reason = new DOMException('contract-test-abort', 'AbortError');
  controller.abort(reason);
  return { signal: controller.signal, reason };
}

/**
 * Checks any NliModel: a non-empty id, one prediction per pair in order, labels from the closed set or null with a
 * problem, scores that are probabilities (summing to 1 with a label of highest probability when all three are given),
 * empty and unusual texts handled without throwing, a long premise, no pairs, a rejection for `pairs` that is not an
 * array (naming `pairs` when it is an InvalidArgumentError), the abort reason rethrown unchanged, and (when deterministic) the same labels across calls and batchings.
 */
export function describeNliModelContract(name: string, factory: Factory<NliModel>, options: NliModelContractOptions = {}): void {
  const { deterministic = true } = options;
  describe(`NliModel contract: ${name}`, () => {
    it('has a non-empty id and sane optional limits', async () => {
      const model = await factory();
      expect(typeof model.id === 'string' && model.id.length > 0).toBe(true);
      if (model.maxBatchSize !== undefined) expect(Number.isInteger(model.maxBatchSize) && model.maxBatchSize >= 1).toBe(true);
      if (model.maxInputLength !== undefined) expect(model.maxInputLength).toBeGreaterThan(0);
    });
    it('returns one prediction per pair, in order, with a known label or a problem, and probability scores', async () => {
      const model = await factory();
      const { results } = await model.classify({ pairs: PAIRS });
      expect(results).toHaveLength(PAIRS.length);
      for (const prediction of results) checkPrediction(prediction);
    });
    it('handles a long premise without throwing', async () => {
      const model = await factory();
      const premise = Array.from({ length: 120 }, (_value, index) => `Sentence number ${index} says the guitar is on stage.`).join(' ');
      const { results } = await model.classify({ pairs: [{ premise, hypothesis: 'The guitar is on stage.' }] });
      expect(results).toHaveLength(1);
      checkPrediction(results[0]);
    });
    it('returns no predictions for no pairs', async () => {
      const model = await factory();
      expect((await model.classify({ pairs: [] })).results).toEqual([]);
    });
    it('rejects pairs that are not an array (an InvalidArgumentError naming "pairs" when it is typed) instead of answering', async () => {
      const model = await factory();
      const error = await Promise.resolve()
        .then(() => model.classify({ pairs: 'not pairs' as unknown as [] }))
        .then(
          () => undefined,
          (caught: unknown) => caught ?? 'rejected with nothing (not an Error)',
        );
      expect(error).toBeInstanceOf(Error);
      if (InvalidArgumentError.isInstance(error)) expect(String((error as Error).message)).toMatch(/pairs/);
    });
    it('rejects with the abort reason, unchanged', async () => {
      const model = await factory();
      const { signal, reason } = abortedSignal();
      await expect(model.classify({ pairs: [{ premise: 'a', hypothesis: 'b' }], abortSignal: signal })).rejects.toBe(reason);
    });
    it.runIf(deterministic)('gives the same labels on a second call and whatever the batching', async () => {
      const model = await factory();
      const first = (await model.classify({ pairs: PAIRS })).results.map((prediction) => prediction.label);
      const second = (await model.classify({ pairs: PAIRS })).results.map((prediction) => prediction.label);
      const single = [];
      for (const pair of PAIRS) single.push((await model.classify({ pairs: [pair] })).results[0]?.label);
      const reversed = (await model.classify({ pairs: [...PAIRS].reverse() })).results.map((prediction) => prediction.label).reverse();
      expect(second).toEqual(first);
      expect(single).toEqual(first);
      expect(reversed).toEqual(first);
    });
  });
}
