import type { ItemProblem, StepProblemCode } from '@factkit/core';

/**
 * Every problem code `@factkit/claim-query` emits: in detection results, their claims and verdicts, generator and
 * parser output, training-data rejections and evaluations. Every problem type of the package is parameterised by it, so
 * a `switch (problem.code)` is checked by the compiler. Codes are for people and reports; to tell why a result has no
 * label, use `failureReason(result)` rather than comparing codes.
 */
export type ClaimQueryProblemCode =
  // Detection (`detectHallucinations`)
  | 'empty-answer'
  | 'context-ignored'
  | 'refusal'
  | 'search-failed'
  | 'verifier-failed'
  | 'alignment-failed'
  | 'no-alignment'
  // Generation: JointCQ chunking and the reply parsers (Tables 13–16, 21/22)
  | 'answer-chunked'
  | 'empty-reply'
  | 'missing-section'
  | 'missing-end'
  | 'extra-text'
  | 'repeated-block'
  | 'joined-line'
  | 'count-mismatch'
  | 'missing-query'
  | 'orphan-query'
  | 'mixed-language'
  | 'contradictory-no-claims'
  | 'no-claims-parsed'
  // The LLM-free drafter and training-data synthesis
  | 'no-claims'
  | 'no-factual-content'
  | 'question-sentence'
  // Verification: the LLM verifier's vote and core's label parser (Tables 23/24, criteria, judge), the NLI verifier
  | 'tied-votes'
  | 'ambiguous-label'
  | 'no-label'
  | 'conflicting-evidence'
  | 'nli-unreadable'
  | 'empty-query'
  // Evaluation (`evaluateDetections`)
  | 'no-gold'
  | 'sentence-count-mismatch'
  // Core's prompted step, which every model step runs through: `call-failed`, `invalid-input`, `missing-reply`, `parse-failed`
  | StepProblemCode;

/**
 * The problems of a core prompted step (`runPromptedStep`) run with one of this package's parsers: core's step codes
 * plus the parser's, all members of {@link ClaimQueryProblemCode} (pinned by test/problem-codes.test.ts). Core types
 * them as plain strings; this narrows them once, where they enter the package's results.
 */
export function ownProblems(problems: readonly ItemProblem[]): readonly ItemProblem<ClaimQueryProblemCode>[] {
  return problems as readonly ItemProblem<ClaimQueryProblemCode>[];
}
