// Matching (paper section 3.3)
export type { MatchAggregation } from './match/aggregation.js';
export type {
  EntailingPair,
  GenerationMatch,
  MatchGenerationRequest,
  MatchGenerationsRequest,
  MatchGenerationsResult,
  MatchItem,
  RemovedSentence,
} from './match/match-generation-to-evidence.js';
export { matchGenerationToEvidence, matchGenerationsToEvidence } from './match/match-generation-to-evidence.js';

// Leakage study (paper sections 3-4)
export type {
  ClaimRun,
  ConditionSummary,
  EvidenceScorer,
  MatchCounts,
  LeakageDataset,
  LeakageStudyOptions,
  LeakageStudyResult,
  MeanWithError,
  SignificanceTest,
} from './study/leakage-study-types.js';
export { runLeakageStudy } from './study/run-leakage-study.js';
export type { SciFactLeakageDatasetOptions } from './study/scifact-leakage-dataset.js';
export { buildSciFactLeakageDataset, sciFactSentenceId } from './study/scifact-leakage-dataset.js';
export type { FormatLeakageReportOptions } from './study/format-leakage-report.js';
export { formatLeakageReport } from './study/format-leakage-report.js';
export { NLI_MATCH_PROMPTS } from './study/verdict-prompt.js';

// Problems
export type { NliMatchProblemCode } from './problem-codes.js';
export { isEmptyGeneration } from './problem-codes.js';
