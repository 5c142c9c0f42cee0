// @factkit/fasttrack public surface: the paper's pipeline (index, cluster tree, matcher, tracer, study), the prompt
// map, their option/result types and the problem-code union. Kernels and helpers stay in their modules.

// Problems
export type { FastTrackProblemCode } from './problem-codes.js';

// Offline stage: the index and its cluster tree
export type { VectorMatrix } from './clustering/vector-matrix.js';
export type { KMeansEngine } from './clustering/compute-kmeans.js';
export type { BuildClusterTreeOptions, ClusterNode, ClusterTree } from './clustering/cluster-tree.js';
export { buildClusterTree } from './clustering/cluster-tree.js';
export type { FastTrackAddDocumentsOptions, AddDocumentsResult, BuildFastTrackIndexOptions, BuildFastTrackIndexResult, FastTrackIndex, IndexStage, LeafLabel } from './index/fasttrack-index.js';
export { addDocumentsToIndex, buildFastTrackIndex } from './index/fasttrack-index.js';
export { deserializeFastTrackIndex, serializeFastTrackIndex } from './index/serialize-index.js';

// Prompts (paper Appendix G)
export { FASTTRACK_PROMPTS } from './prompts.js';

// Keyword labels
export type { ClusterLabel, KeywordLabeller, LabelCluster, LabelRequest } from './labels/keyword-labeller.js';
export type { ClassTfidfLabellerOptions } from './labels/class-tfidf-labeller.js';
export { createClassTfidfLabeller } from './labels/class-tfidf-labeller.js';
export type { LlmKeywordLabellerOptions } from './labels/llm-keyword-labeller.js';
export { createLlmKeywordLabeller } from './labels/llm-keyword-labeller.js';

// Support judgement
export type { JudgeCall, SupportCandidate, SupportJudge, SupportJudgement, SupportJudgeRequest, SupportJudgeResult } from './judge/support-judge.js';
export type { LlmSupportJudgeOptions } from './judge/llm-support-judge.js';
export { createLlmSupportJudge } from './judge/llm-support-judge.js';
export type { NliSupportJudgeOptions } from './judge/nli-support-judge.js';
export { createNliSupportJudge } from './judge/nli-support-judge.js';

// Online stage
export type { ClusterMatch, ClusterMatcher, ClusterMatcherOptions, FuzzyScorerName, MatchedLeaf } from './online/cluster-matcher.js';
export { createClusterMatcher } from './online/cluster-matcher.js';
export type { FastTrack, FastTrackOptions, SupportingDocument, TraceCost, TraceProblemKind, TraceResult } from './online/fasttrack.js';
export { createFastTrack, traceProblemKind } from './online/fasttrack.js';

// Study (paper Table 1)
export type { TraceMethodRun, TraceMethodScores, TraceRanker, TraceStatement, TraceStatementRun, TraceStudyOptions, TraceStudyResult } from './study/run-trace-study.js';
export { runTraceStudy } from './study/run-trace-study.js';
