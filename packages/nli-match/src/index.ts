// Matching (paper section 3.3)
export type { AggregationOutcome, MatchAggregation } from './match/aggregation.js';
export { aggregateLabelMatrix } from './match/aggregation.js';
export type { ClassifyNliPairsOptions } from './match/classify-nli-pairs.js';
export { classifyNliPairs, splitPremiseIntoWindows } from './match/classify-nli-pairs.js';
export type {
  EntailingPair,
  GenerationMatch,
  MatchGenerationRequest,
  MatchGenerationsRequest,
  MatchGenerationsResult,
  MatchItem,
  RemovedSentence,
} from './match/match-generation-to-evidence.js';
export { matchGenerationToEvidence, matchGenerationsToEvidence, segmentGeneration } from './match/match-generation-to-evidence.js';
export { isWrongLanguage } from './match/generation-checks.js';

// Leakage study (paper sections 3-4)
export type {
  ClaimRun,
  ConditionSummary,
  EvidenceScorer,
  MatchCounts,
  LeakageDataset,
  LeakageStudyOptions,
  LeakageStudyProgress,
  LeakageStudyResult,
  MeanWithError,
  SignificanceTest,
} from './study/leakage-study-types.js';
export { runLeakageStudy } from './study/run-leakage-study.js';
export type { SciFactAbstractRow, SciFactClaimRow, SciFactLeakageDatasetOptions } from './study/scifact-leakage-dataset.js';
export { buildSciFactLeakageDataset, sciFactSentenceId } from './study/scifact-leakage-dataset.js';
export type { FormatLeakageReportOptions } from './study/format-leakage-report.js';
export { formatLeakageReport } from './study/format-leakage-report.js';
export { NLI_MATCH_PROMPTS, VERDICT_STEP, renderVerdictEvidence } from './study/verdict-prompt.js';
