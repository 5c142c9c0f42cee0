import type { LabelProblemCode, ListItemsProblemCode, StepProblemCode } from '@factkit/core';

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
  // Verification: the LLM verifier's vote (Tables 23/24), the NLI verifier, the reference/context passage ranker
  | 'tied-votes'
  | 'conflicting-evidence'
  | 'nli-unreadable'
  | 'empty-query'
  // Evaluation (`evaluateDetections`)
  | 'no-gold'
  | 'sentence-count-mismatch'
  // Core's label parser (verifier, criteria and judge replies): `empty-reply`, `no-label`, `ambiguous-label`
  | LabelProblemCode
  // Core's list parser (claim-synthesis replies): `empty-reply`
  | ListItemsProblemCode
  // Core's prompted step, which every model step runs through: `call-failed`, `invalid-input`, `missing-reply`, `parse-failed`
  | StepProblemCode;
