// The baselines train.ts reports beside the feature model: the lexical model with its two thresholds tuned on the
// training pairs, and the majority class of each source's training labels.
import { computeLexicalFeatures } from '@factkit/nli-models';
import { SOURCES, sourceOf, type Source } from './evaluation.js';
import type { LabelledPair } from './shared.js';

/** createLexicalNliModel's rule applied to features computed once per pair: a grid search over both thresholds. */
export function tuneLexicalThresholds(train: readonly { pair: LabelledPair }[]): { entailmentThreshold: number; contradictionThreshold: number; accuracy: number } {
  const lexicalTrain = train.map((example) => computeLexicalFeatures(example.pair.premise, example.pair.hypothesis));
  let bestLexical = { entailmentThreshold: 0.7, contradictionThreshold: 0.4, accuracy: -1 };
  for (let entail = 6; entail <= 20; entail += 1) {
    for (let contradict = 2; contradict <= entail; contradict += 1) {
      const options = { entailmentThreshold: entail / 20, contradictionThreshold: contradict / 20 };
      let correct = 0;
      lexicalTrain.forEach((features, index) => {
        const mismatch = features.negationMismatch > 0 || features.numberMismatch > 0;
        const label = features.hypothesisCoverage >= options.entailmentThreshold && !mismatch ? 'entailment' : features.hypothesisCoverage >= options.contradictionThreshold && mismatch ? 'contradiction' : 'neutral';
        if (label === (train[index] as { pair: LabelledPair }).pair.label) correct += 1;
      });
      const accuracy = correct / train.length;
      if (accuracy > bestLexical.accuracy) bestLexical = { ...options, accuracy };
    }
  }
  return bestLexical;
}

/** The most frequent training label of each source (ties: alphabetical). */
export function majorityClass(train: readonly { pair: LabelledPair }[]): Record<Source, string> {
  return Object.fromEntries(
    SOURCES.map((source) => {
      const counts = new Map<string, number>();
      for (const example of train) if (sourceOf(example.pair) === source) counts.set(example.pair.label, (counts.get(example.pair.label) ?? 0) + 1);
      return [source, [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] as string];
    }),
  ) as Record<Source, string>;
}
