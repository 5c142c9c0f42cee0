import type { NliLabel, NliModel } from '@factkit/core';
import { assertProbability, InvalidArgumentError } from '@factkit/core';
import { computeLexicalFeatures } from '../lexical/lexical-features.js';

export interface LexicalNliModelOptions {
  /**
   * Smallest share of the hypothesis's content words found in the premise for entailment.
   * The default was tuned by grid search (0.30-1.00) on the training split of `examples/nli-classifier`. @default 0.3
   */
  readonly entailmentThreshold?: number;
  /** Smallest content-word overlap for a negation or number mismatch to count as contradiction (tuned likewise). @default 0.3 */
  readonly contradictionThreshold?: number;
}

/**
 * A classical, LLM-free NLI baseline from word overlap (MacCartney-style lexical entailment): entailment when the
 * premise covers most of the hypothesis's content words with no negation or number mismatch, contradiction when the
 * overlap is high but negation or a number differs, neutral otherwise. No scores (it is a rule, not a classifier).
 * @throws InvalidArgumentError when a threshold is outside [0, 1].
 * @example await createLexicalNliModel().classify({ pairs: [{ premise: 'Paris is in France.', hypothesis: 'Paris is in France.' }] })
 */
export function createLexicalNliModel(options: LexicalNliModelOptions = {}): NliModel {
  const { entailmentThreshold = 0.3, contradictionThreshold = 0.3 } = options;
  for (const [argument, value] of [
    ['entailmentThreshold', entailmentThreshold],
    ['contradictionThreshold', contradictionThreshold],
  ] as const) {
    assertProbability(argument, value, 'createLexicalNliModel');
  }
  const label = (premise: string, hypothesis: string): NliLabel => {
    const features = computeLexicalFeatures(premise, hypothesis);
    const mismatch = features.negationMismatch > 0 || features.numberMismatch > 0;
    if (features.hypothesisCoverage >= entailmentThreshold && !mismatch) return 'entailment';
    if (features.hypothesisCoverage >= contradictionThreshold && mismatch) return 'contradiction';
    return 'neutral';
  };
  return {
    id: `lexical-nli(entail>=${entailmentThreshold},contradict>=${contradictionThreshold})`,
    async classify({ pairs, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (!Array.isArray(pairs)) throw new InvalidArgumentError({ where: 'LexicalNliModel.classify', argument: 'pairs', message: 'must be an array of { premise, hypothesis }' });
      return { results: pairs.map((pair) => ({ label: label(String(pair?.premise ?? ''), String(pair?.hypothesis ?? '')) })) };
    },
  };
}
