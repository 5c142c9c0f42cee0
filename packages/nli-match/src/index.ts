// LLM NLI judge (paper Figure A3)
export { NLI_PROMPT } from './llm/nli-prompt.js';
export type { ParsedNliLabel } from './llm/parse-nli-label.js';
export { parseNliLabel } from './llm/parse-nli-label.js';
export type { LlmNliJudgeOptions } from './llm/llm-nli-judge.js';
export { createLlmNliJudge } from './llm/llm-nli-judge.js';

// LLM-free NLI models
export type { LexicalNliModelOptions } from './lexical/lexical-nli-model.js';
export { createLexicalNliModel } from './lexical/lexical-nli-model.js';
export type { LexicalFeatureName, LexicalFeatures } from './lexical/lexical-features.js';
export { LEXICAL_FEATURE_NAMES, computeLexicalFeatures } from './lexical/lexical-features.js';
export type { FeatureNliWeights } from './feature/feature-nli-weights.js';
export { validateFeatureNliWeights } from './feature/feature-nli-weights.js';
export { buildNliFeatureVector } from './feature/feature-vector.js';
export type { FeatureNliModelOptions } from './feature/feature-nli-model.js';
export { USE_LITE_NLI_WEIGHTS, createFeatureNliModel } from './feature/feature-nli-model.js';

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
export { isRefusal, isWrongLanguage } from './match/generation-checks.js';

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
export type { FormatLeakageReportOptions } from './study/format-leakage-report.js';
export { formatLeakageReport } from './study/format-leakage-report.js';
export { VERDICT_PROMPT, renderVerdictEvidence } from './study/verdict-prompt.js';
export type { ParsedVerdictLabel } from './study/parse-verdict-label.js';
export { parseVerdictLabel } from './study/parse-verdict-label.js';
