// @factkit/claim-query public surface: explicit named exports only. What a user calls to detect hallucinations, run
// the paper's prompts with their own model, or build JointCQ training data; the types those signatures name; the
// problem-code union. Steps and helpers stay in their modules.

// Prompts (paper Tables 13-26)
export type { ClaimCriterion, ClaimQueryPromptSet, Criterion, PromptLanguage, QueryCriterion } from './prompts/prompts.js';
export { CLAIM_QUERY_PROMPTS } from './prompts/prompts.js';
export { createPaperPromptTemplate } from './prompts/paper-template.js';

// Reply parsers (Tables 21/22 and 23/24)
export type { ClaimQueryParse, ParseClaimQueryOptions, ParsedClaimQueryPair } from './generate/parse-claim-query-reply.js';
export { parseClaimQueryReply } from './generate/parse-claim-query-reply.js';
export type { VerifierOption, VerifierReply } from './verify/parse-verifier-reply.js';
export { parseVerifierReply } from './verify/parse-verifier-reply.js';

// Generators: JointCQ, the two-step baseline, the LLM-free drafter and the evaluation baselines
export type { ClaimQueryGenerator, GeneratedClaims, GeneratedPair, QaItem } from './detect/generator.js';
export type { JointCqGeneratorOptions } from './generate/create-jointcq-generator.js';
export { createJointCqGenerator } from './generate/create-jointcq-generator.js';
export type { ClaimExample, QueryExample } from './two-step/select-examples.js';
export type { TwoStepGeneratorOptions } from './two-step/create-two-step-generator.js';
export { createTwoStepGenerator } from './two-step/create-two-step-generator.js';
export type { DraftedPair, DraftOptions, DraftRequest, DraftResult } from './drafter/draft-claims-and-queries.js';
export { draftClaimsAndQueries } from './drafter/draft-claims-and-queries.js';
export { createDrafterGenerator, createWholeResponseGenerator, withClaimsAsQueries } from './detect/baseline-generators.js';

// Verifiers (Tables 23/24) and the offline NLI verifier with its aggregations
export type { ClaimVerifier, NliAggregation, NliVerifierOptions, VerifyItem, VerifyRequest } from './verify/create-nli-verifier.js';
export { createNliVerifier, DEFAULT_NLI_AGGREGATION, DEFAULT_SOFT_THRESHOLD, NLI_AGGREGATIONS } from './verify/create-nli-verifier.js';
export type { LlmVerifierOptions } from './verify/create-llm-verifier.js';
export { createLlmVerifier } from './verify/create-llm-verifier.js';

// Detection pipeline (§2.2, Appendix B) and its results
export type { CheckedClaim, CheckedSentence, ClaimVerdictRecord, SegmentLabel, SnippetJudgement } from './types.js';
export type { ClaimCounts, DetectHallucinationsOptions, DetectionResult, ResponseLabel } from './detect/detect-hallucinations.js';
export { detectHallucinations } from './detect/detect-hallucinations.js';
export type { Abstention } from './detect/detect-abstention.js';
export type { CheckMode } from './detect/reference-passages.js';
export { itemPassages } from './detect/reference-passages.js';
export type { DetectionSummary } from './detect/summarize-detections.js';
export { formatFactualPrecision, summarizeDetections } from './detect/summarize-detections.js';
export { failureReason, formatDetectionText } from './detect/format-detection-text.js';

// Metrics (Appendix C)
export type { UnverifiableConvention } from './align/label-segments.js';
export type { BinaryScores, HallucinationMetrics, ScoredSegment } from './metrics/hallucination-metrics.js';
export { computeHallucinationMetrics } from './metrics/hallucination-metrics.js';
export type { DetectionEvaluation, DetectionGold } from './metrics/evaluate-detections.js';
export { evaluateDetections } from './metrics/evaluate-detections.js';

// Training data (§3.2-3.4)
export type { BuildTrainingDataOptions, TrainingDataResult, TrainingFunnel } from './training/build-training-data.js';
export { buildTrainingData } from './training/build-training-data.js';
export type { TrainingSample } from './training/training-data.js';
export { formatClaimQueryResponse, toChatJsonl } from './training/training-data.js';

// Response-level LLM judge baseline (Appendix C.2, Tables 25/26)
export type { ResponseJudgement } from './verify/judge-responses.js';
export { judgeResponses } from './verify/judge-responses.js';

// Every problem code the package emits
export type { ClaimQueryProblemCode } from './problem-codes.js';
