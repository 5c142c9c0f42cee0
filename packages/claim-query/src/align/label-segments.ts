import type { ClaimLabel } from '@factkit/core';
import type { SegmentLabel } from '../types.js';

/**
 * Label of a sentence (or response) from the claim labels aligned to it, as the authors aggregate
 * (`claim2response_pred`): unverifiable and failed claims are set aside; none left → 'unverifiable'; any hallucinated
 * → 'hallucinated'; else 'not-hallucinated'. H(s) = I[∃ c ∈ C(s): h(c) = 1], H(r) = I[∃ s: H(s) = 1].
 */
export function labelFromClaims(labels: readonly (ClaimLabel | undefined)[]): SegmentLabel {
  const verifiable = labels.filter((label): label is ClaimLabel => label === 'correct' || label === 'hallucinated');
  if (verifiable.length === 0) return 'unverifiable';
  return verifiable.includes('hallucinated') ? 'hallucinated' : 'not-hallucinated';
}

/** Response label from its sentence labels (same rule one level up). */
export function labelFromSentences(labels: readonly SegmentLabel[]): SegmentLabel {
  if (labels.includes('hallucinated')) return 'hallucinated';
  if (labels.includes('not-hallucinated')) return 'not-hallucinated';
  return 'unverifiable';
}

/**
 * How an 'unverifiable' prediction is scored: as not hallucinated (the paper's main tables, after FacTool), as
 * hallucinated, or left out (the paper's "verifiable part", Tables 11/12).
 */
export type UnverifiableConvention = 'not-hallucinated' | 'hallucinated' | 'exclude';

/** The binary prediction under a convention; undefined when the item is excluded. */
export function toBinaryPrediction(label: SegmentLabel, convention: UnverifiableConvention = 'not-hallucinated'): boolean | undefined {
  if (label === 'hallucinated') return true;
  if (label === 'not-hallucinated') return false;
  return convention === 'exclude' ? undefined : convention === 'hallucinated';
}
