// Clustering (offline stage 1)
export type { VectorMatrix } from './clustering/vector-matrix.js';
export { packVectors, selectRows } from './clustering/vector-matrix.js';
export type { KMeansPlusPlusOptions } from './clustering/kmeans-plus-plus.js';
export { initializeKMeansPlusPlus } from './clustering/kmeans-plus-plus.js';
export type { KMeansEngine, KMeansOptions, KMeansResult } from './clustering/compute-kmeans.js';
export { computeInertia, computeKMeans } from './clustering/compute-kmeans.js';
export type { AddToTreeResult, BuildClusterTreeOptions, ClusterNode, ClusterTree, ClusterTreeProgress } from './clustering/cluster-tree.js';
export { addToClusterTree, buildClusterTree, splitSeed } from './clustering/cluster-tree.js';

// Prompts (paper Appendix G)
export { FASTTRACK_PROMPTS, renderCandidateTexts, renderClusterTexts } from './prompts.js';

// Keyword labels
export type { ClusterLabel, KeywordLabeller, LabelCluster, LabelRequest } from './labels/keyword-labeller.js';
export type { ParsedKeywords } from './labels/parse-keywords.js';
export { parseKeywords } from './labels/parse-keywords.js';
export type { ClassTfidfLabellerOptions } from './labels/class-tfidf-labeller.js';
export { createClassTfidfLabeller, tokenizeForClassTfidf } from './labels/class-tfidf-labeller.js';
export type { LlmKeywordLabellerOptions } from './labels/llm-keyword-labeller.js';
export { createLlmKeywordLabeller } from './labels/llm-keyword-labeller.js';

// Index (offline stage)
export type { FastTrackAddDocumentsOptions, AddDocumentsResult, BuildFastTrackIndexOptions, BuildFastTrackIndexResult, FastTrackIndex, FastTrackIndexProgress, IndexStage, LeafLabel } from './index/fasttrack-index.js';
export { addDocumentsToIndex, buildFastTrackIndex, leafClusters } from './index/fasttrack-index.js';
export { FASTTRACK_INDEX_FORMAT_VERSION, deserializeFastTrackIndex, serializeFastTrackIndex } from './index/serialize-index.js';

// Support judgement
export type { JudgeCall, SupportCandidate, SupportJudge, SupportJudgement, SupportJudgeRequest, SupportJudgeResult } from './judge/support-judge.js';
export { isSupporting, supportJudgement } from './judge/support-judge.js';
export type { ParsedSupportScores } from './judge/parse-support-scores.js';
export { parseSupportScores } from './judge/parse-support-scores.js';
export type { LlmSupportJudgeOptions } from './judge/llm-support-judge.js';
export { createLlmSupportJudge } from './judge/llm-support-judge.js';
export type { NliSupportJudgeOptions } from './judge/nli-support-judge.js';
export { createNliSupportJudge } from './judge/nli-support-judge.js';

// Online stage
export type { ClusterMatch, ClusterMatcher, ClusterMatcherOptions, FuzzyScorerName, MatchedLeaf } from './online/cluster-matcher.js';
export { FUZZY_SCORER_NAMES, createClusterMatcher, processForFuzzyMatch } from './online/cluster-matcher.js';
export type { FastTrack, FastTrackOptions, SupportingDocument, TraceCost, TraceProblemKind, TraceResult } from './online/fasttrack.js';
export { createFastTrack, traceProblemKind } from './online/fasttrack.js';

// Study (paper Table 1)
export type { TraceMeanWithError, TraceMethodRun, TraceMethodScores, TraceRanker, TraceStatement, TraceStatementRun, TraceStudyOptions, TraceStudyResult } from './study/run-trace-study.js';
export { runTraceStudy, scoreTraceMethod } from './study/run-trace-study.js';
