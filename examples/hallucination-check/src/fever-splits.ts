// The FEVER-lite splits of the hallucination studies, rebuilt from the data root at run time (never copied):
// - test: the responses the issue-20 figures were measured on — `composeFeverResponses` over the FEVER-lite claims of
//   the feature NLI model's held-out pairs (`heldOutPairs`, source 'fever'), 300 asked, seed 13 (fever-eval --nli feature);
// - validation (the split settings are tuned on): claims of FEVER-lite (validation + test files) that are in no NLI pair
//   at all, train or held-out (so neither the feature model's training nor the test responses), and whose gold evidence
//   shares no sentence with a test claim's; composed the same way, seed VALIDATION_SEED.
// Both search the same corpus: the gold evidence of every FEVER-lite claim, pooled and de-duplicated.
import type { Document } from '@factkit/core';
import { buildNliPairs, normalizeClaim, requireNliPairDataRoot } from '@factkit/test-utils/nli-pairs';
import { composeFeverResponses, poolEvidence, type ComposedResponse, type FeverClaim } from './fever-compose.js';
import { readJsonl } from './shared.js';

export const TEST_SEED = 13;
export const TEST_RESPONSES = 300;
export const VALIDATION_SEED = 20261127;
export const VALIDATION_RESPONSES = 400;

export interface FeverSplit {
  readonly name: 'validation' | 'test';
  readonly responses: ComposedResponse[];
  readonly skipped: number;
  /** Claims the responses were drawn from. */
  readonly claimPool: number;
}

export interface FeverSplits {
  readonly validation: FeverSplit;
  readonly test: FeverSplit;
  readonly corpus: Document[];
  /** FEVER-lite claims in NLI training pairs / held-out pairs (normalised claim texts). */
  readonly trainingClaims: number;
  readonly heldOutClaims: number;
}

/** Builds both splits and the corpus from the data root (needs the NLI pair datasets to know the training claims). */
export function buildFeverSplits(options: { validationResponses?: number; validationSeed?: number } = {}): FeverSplits {
  const { validationResponses = VALIDATION_RESPONSES, validationSeed = VALIDATION_SEED } = options;
  const all = [...readJsonl<FeverClaim>('fever-lite', 'validation.jsonl'), ...readJsonl<FeverClaim>('fever-lite', 'test.jsonl')];
  const feverPairs = buildNliPairs(requireNliPairDataRoot()).filter((pair) => pair.source.startsWith('fever:'));
  const inPairs = new Set(feverPairs.map((pair) => normalizeClaim(pair.hypothesis)));
  const heldOutTexts = new Set(feverPairs.filter((pair) => pair.split === 'test').map((pair) => pair.hypothesis));
  const trainingClaims = new Set(feverPairs.filter((pair) => pair.split === 'train').map((pair) => normalizeClaim(pair.hypothesis))).size;

  // Test: exactly fever-eval's held-out selection (claim text equal to a held-out pair's hypothesis).
  const testPool = all.filter((claim) => heldOutTexts.has(claim.claim));
  const test = composeFeverResponses(testPool, { count: TEST_RESPONSES, seed: TEST_SEED });
  const testEvidence = new Set(testPool.flatMap((claim) => claim.evidence));

  const validationPool = all.filter((claim) => !inPairs.has(normalizeClaim(claim.claim)) && !claim.evidence.some((sentence) => testEvidence.has(sentence)));
  const validation = composeFeverResponses(validationPool, { count: validationResponses, seed: validationSeed });
  return {
    validation: { name: 'validation', ...validation, claimPool: validationPool.length },
    test: { name: 'test', ...test, claimPool: testPool.length },
    corpus: poolEvidence(all),
    trainingClaims,
    heldOutClaims: heldOutTexts.size,
  };
}
