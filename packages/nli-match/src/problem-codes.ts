import type { ItemProblem } from '@factkit/core';

/**
 * Every problem code `@factkit/nli-match` emits.
 * - Matching (`matchGenerationToEvidence`, `matchGenerationsToEvidence`, and each run of the study): `empty-claim`,
 *   `blank-evidence-item`, `empty-generation`, `refusal`, `wrong-language`, `only-claim-reproductions`,
 *   `empty-evidence`, `nli-unreadable`, `match-unknown`, `match-failed`.
 * - SciFact rows (`buildSciFactLeakageDataset`): `invalid-abstract`, `invalid-claim`, `invalid-rationale`.
 * - The leakage study (`runLeakageStudy`): `invalid-claim`, `duplicate-claim`, `no-qrels`, `unknown-qrels-document`,
 *   `no-gold-label`, `unknown-gold-label`, `claim-failed`, `expansion-failed`, `expander-problem` (a problem the
 *   expander reported; its own code is in the message), `retrieval-failed`, `verdict-failed`, `verdict-unreadable`,
 *   `verdict-nli-unreadable`.
 *
 * Codes are for people and reports. Code that must decide something reads a typed field (`ClaimRun.failedStage`,
 * `GenerationMatch.matched` / `noEvidence`) or asks this package (`isEmptyGeneration`).
 */
export type NliMatchProblemCode =
  | 'empty-claim'
  | 'blank-evidence-item'
  | 'empty-generation'
  | 'refusal'
  | 'wrong-language'
  | 'only-claim-reproductions'
  | 'empty-evidence'
  | 'nli-unreadable'
  | 'match-unknown'
  | 'match-failed'
  | 'invalid-abstract'
  | 'invalid-claim'
  | 'invalid-rationale'
  | 'duplicate-claim'
  | 'no-qrels'
  | 'unknown-qrels-document'
  | 'no-gold-label'
  | 'unknown-gold-label'
  | 'claim-failed'
  | 'expansion-failed'
  | 'expander-problem'
  | 'retrieval-failed'
  | 'verdict-failed'
  | 'verdict-unreadable'
  | 'verdict-nli-unreadable';

/**
 * True for the problem saying a run had an empty generation, so there was nothing to match (the run is unmatched).
 * For an LLM expander that is a finding about the model; for an LLM-free expander (RM3 generates no text) it is
 * expected on every run, and reports leave it out.
 * @example const shown = result.problems.filter((problem) => !(llmFree && isEmptyGeneration(problem)));
 */
export function isEmptyGeneration(problem: Pick<ItemProblem, 'code'>): boolean {
  return problem.code === 'empty-generation';
}
