import type { StepProblemCode } from '@factkit/core';

/**
 * Every problem code `@factkit/fasttrack` emits, in labels, judgements, traces, index builds and studies. The
 * problem and outcome types of the package are typed with it, so a `switch (problem.code)` is checked by the
 * compiler. To ask what a problem of a trace means for its scores, call `traceProblemKind` instead of comparing codes.
 */
export type FastTrackProblemCode =
  // buildFastTrackIndex / addDocumentsToIndex: documents that are indexed but can match nothing / repeat another.
  | 'empty-text'
  | 'duplicate-text'
  // Keyword labels (the Fig. 3 reply parser and the c-TF-IDF baseline).
  | 'empty-reply'
  | 'missing-section'
  | 'no-keywords'
  | 'keyword-count'
  // Support judgement (the Figs. 4/5 reply parser, the NLI judge, an undecided candidate).
  | 'count-mismatch'
  | 'non-numeric-score'
  | 'out-of-range-score'
  | 'no-label'
  | 'unjudged'
  // Online stage.
  | 'no-cluster-matched'
  | 'unlabelled-leaves'
  | 'empty-query'
  // runTraceStudy: a tracer, judge or ranking baseline that threw for a statement.
  | 'trace-failed'
  | 'judge-failed'
  | 'retrieval-failed'
  // The LLM calls (core's runPromptedStep): failed call, missing reply, parser failure, bad input.
  | StepProblemCode;
