// @factkit/claim-query public surface: explicit named exports only.

// Prompts (paper Tables 13-26)
export type { ClaimCriterion, Criterion, ClaimQueryPromptSet, PromptLanguage, QueryCriterion } from './prompts/prompts.js';
export {
  CLAIM_CRITERIA,
  CLAIM_QUERY_PROMPTS,
  NO_CLAIMS_TEXT,
  NO_QUERY_TEXT,
  PROMPT_LANGUAGES,
  QUERY_CRITERIA,
  RESPONSE_MARKERS,
} from './prompts/prompts.js';
export { createPaperPromptTemplate, renderPaperPrompt } from './prompts/paper-template.js';
export { detectPromptLanguage } from './prompts/language.js';

// Joint generation (Tables 21/22)
export type { ClaimQueryParse, ParsedClaimQueryPair } from './generate/parse-claim-query-reply.js';
export { parseClaimQueryReply } from './generate/parse-claim-query-reply.js';

// Chain types
export type { CheckedClaim, CheckedSentence, ClaimVerdictRecord, SegmentLabel, SnippetJudgement } from './types.js';

// Verification (Tables 23/24) and the offline NLI verifier
export type { AggregatedVerdict, ClaimVerifier, JudgedSnippet, NliAggregation, NliVerifierOptions, VerifyItem, VerifyRequest } from './verify/create-nli-verifier.js';
export { aggregateNliLabels, aggregateSnippets, createNliVerifier, decideNliLabels, decideSnippets, DEFAULT_NLI_AGGREGATION, DEFAULT_SOFT_THRESHOLD, explainNliVerdict, NLI_AGGREGATIONS } from './verify/create-nli-verifier.js';
export type { ClaimTerms, SnippetRelevance } from './verify/relevance.js';
export { claimTerms, snippetRelevance } from './verify/relevance.js';
export type { FormatReferenceOptions } from './verify/format-reference.js';
export { formatReference } from './verify/format-reference.js';

// Alignment and labels (§4.3)
export type { AlignClaimsOptions, ClaimAlignment } from './align/align-claims-to-sentences.js';
export { alignClaimsToSentences } from './align/align-claims-to-sentences.js';
export type { UnverifiableConvention } from './align/label-segments.js';
export { labelFromClaims, labelFromSentences, toBinaryPrediction } from './align/label-segments.js';

// Metrics (Appendix C)
export type { BinaryScores, HallucinationMetrics, ScoredSegment } from './metrics/hallucination-metrics.js';
export { computeHallucinationMetrics } from './metrics/hallucination-metrics.js';
export type { DetectionEvaluation, DetectionGold } from './metrics/evaluate-detections.js';
export { evaluateDetections } from './metrics/evaluate-detections.js';

// LLM-free drafter (baseline, not JointCQ)
export type { DraftedPair, DraftOptions, DraftRequest, DraftResult } from './drafter/draft-claims-and-queries.js';
export { draftClaimsAndQueries, extractKeyphrases, findQuestionSubject } from './drafter/draft-claims-and-queries.js';
export { sentenceSubject, splitCompoundSentence } from './drafter/split-compound.js';

// Detection pipeline (§2.2, Appendix B)
export type { ClaimQueryGenerator, GeneratedClaims, GeneratedPair, QaItem } from './detect/generator.js';
export { createDrafterGenerator, createWholeResponseGenerator, withClaimsAsQueries } from './detect/baseline-generators.js';
export type { ClaimCounts, DetectHallucinationsOptions, DetectionResult, ResponseLabel } from './detect/detect-hallucinations.js';
export { detectHallucinations, factualPrecisionOf } from './detect/detect-hallucinations.js';
export type { Abstention } from './detect/detect-abstention.js';
export { detectAbstention } from './detect/detect-abstention.js';
export type { CheckMode, PassageWindow } from './detect/reference-passages.js';
export { createOverlapRetriever, itemPassages, splitPassages } from './detect/reference-passages.js';
export type { DetectionSummary } from './detect/summarize-detections.js';
export { formatFactualPrecision, summarizeDetections } from './detect/summarize-detections.js';
export { failureReason, formatDetectionText } from './detect/format-detection-text.js';

// Two-step baseline (§3.2): example selection
export type { ClaimExample, QueryExample, SelectExamplesOptions } from './two-step/select-examples.js';
export { formatClaimExamples, formatQueryExamples, sampleQueryExamples, selectClaimExamples } from './two-step/select-examples.js';

// Training data (§3.4)
export type { StratifyOptions, TrainingSample } from './training/training-data.js';
export { formatClaimQueryResponse, splitTrainTest, stratifyByClaimCount, toChatJsonl, toChatRecord } from './training/training-data.js';

// LLM steps (core runPromptedStep, provenance per call)
export type { JointCqGeneratorOptions } from './generate/create-jointcq-generator.js';
export { createJointCqGenerator } from './generate/create-jointcq-generator.js';
export type { VerifierOption, VerifierReply } from './verify/parse-verifier-reply.js';
export { VERIFIER_LABEL_MAP, parseVerifierReply } from './verify/parse-verifier-reply.js';
export type { LlmVerifierOptions } from './verify/create-llm-verifier.js';
export { createLlmVerifier, majorityLabel } from './verify/create-llm-verifier.js';

// Criteria-guided filtering (§3.3, Tables 17-20)
export type { CheckCriteriaOptions, CriterionCheck, CriterionResult } from './criteria/check-criteria.js';
export { checkCriteria, parseCriterionJudgement } from './criteria/check-criteria.js';

// Two-step baseline generator (§3.2, Tables 13-16)
export type { TwoStepGeneratorOptions } from './two-step/create-two-step-generator.js';
export { createTwoStepGenerator, parseClaimSynthesisReply, parseQuerySynthesisReply } from './two-step/create-two-step-generator.js';

// Training-data pipeline (§3.2-3.4)
export type { BuildTrainingDataOptions, TrainingDataResult, TrainingFunnel } from './training/build-training-data.js';
export { buildTrainingData } from './training/build-training-data.js';

// Response-level LLM judge baseline (Appendix C.2, Tables 25/26)
export type { ResponseJudgement } from './verify/judge-responses.js';
export { judgeResponses } from './verify/judge-responses.js';
