import type { NliLabel } from '@factkit/core';

/** Guesses the NLI label of a model's class name: 'ENTAILMENT', 'entails', 'Neutral', 'contradiction', … */
export function guessNliLabel(modelLabel: string): NliLabel | undefined {
  const label = modelLabel.trim().toLowerCase();
  if (/^(not|non)[-_ ]?entail/.test(label)) return undefined; // binary models: the user must decide
  if (label.startsWith('entail')) return 'entailment';
  if (label.startsWith('neutral')) return 'neutral';
  if (label.startsWith('contradict')) return 'contradiction';
  return undefined;
}

/**
 * Maps every output index of a classifier to an NLI label, from the config's `id2label` and the user's
 * `labelMap` (model label → NLI label, which wins over guessing). Returns the unmapped labels when some are left.
 */
export function resolveNliLabels(id2label: Readonly<Record<string, unknown>>, labelMap: Readonly<Record<string, NliLabel>> = {}): { readonly byIndex: NliLabel[]; readonly unmapped: string[] } {
  const byIndex: NliLabel[] = [];
  const unmapped: string[] = [];
  const indices = Object.keys(id2label)
    .map(Number)
    .sort((a, b) => a - b);
  indices.forEach((index, position) => {
    const modelLabel = String(id2label[String(index)]);
    const mapped = Object.hasOwn(labelMap, modelLabel) ? labelMap[modelLabel] : guessNliLabel(modelLabel);
    if (mapped === undefined || index !== position) unmapped.push(modelLabel);
    else byIndex.push(mapped);
  });
  return { byIndex, unmapped };
}
