// Ranking (trec_eval-compatible)
export type { EvaluateRunOptions, EvaluateRunResult } from './ir/evaluate-run.js';
export { evaluateRun } from './ir/evaluate-run.js';
export type { CutoffMeasureFamily, ParsedMeasure, PlainMeasure } from './ir/metric-names.js';
export { COUNT_MEASURES, CUTOFF_MEASURE_FAMILIES, PLAIN_MEASURES, TREC_DEFAULT_CUTOFFS, TREC_DEFAULT_SUCCESS_CUTOFFS, parseMeasureNames } from './ir/metric-names.js';
export { stemPorterNltk } from './text/porter-stemmer.js';
export { rankDocuments } from './ir/rank-documents.js';
export type { JudgmentCoverage, JudgmentCoverageOptions } from './ir/judgment-coverage.js';
export { summarizeJudgmentCoverage } from './ir/judgment-coverage.js';
export type { BestF1, CutoffMetricOptions, RankingMetricOptions } from './ir/ranking-metrics.js';
export {
  computeAveragePrecision,
  computeBestF1OverTopK,
  computeNdcg,
  computeNdcgAtK,
  computePrecisionAtK,
  computeRecallAtK,
  computeReciprocalRank,
  computeSuccessAtK,
} from './ir/ranking-metrics.js';
export type { BestMeanF1, SetScores } from './ir/set-scores.js';
export { computeBestMeanF1OverTopK, computeSetScores } from './ir/set-scores.js';
export type { FormatTrecRunOptions, ParseTrecOptions } from './ir/trec-format.js';
export { formatTrecQrels, formatTrecRun, parseQrelsJson, parseRunJson, parseTrecQrels, parseTrecRun } from './ir/trec-format.js';
export type { ParseQrelsOptions, QrelsFormat } from './ir/qrels-formats.js';
export { QRELS_FORMATS, detectQrelsFormat, formatQrels, parseBeirQrelsTsv, parseQrels, parseRun } from './ir/qrels-formats.js';
export type { CompareRunsOptions, CompareRunsResult, NamedEvaluation, PairComparison, PairedTestName, SystemScore } from './ir/compare-runs.js';
export { PAIRED_TESTS, compareRuns } from './ir/compare-runs.js';
export type { FormatReportOptions } from './ir/format-report.js';
export { formatJsonReport, formatMarkdownReport, formatTrecEvalReport } from './ir/format-report.js';

// Classification
export type { ClassificationReport, ClassificationReportOptions, ClassScores } from './classification/classification-report.js';
export { computeClassificationReport } from './classification/classification-report.js';

// Statistics
export type { Alternative } from './stats/alternative.js';
export type { MeanStandardError, MeanStandardErrorOptions } from './stats/mean-standard-error.js';
export { computeMeanStandardError } from './stats/mean-standard-error.js';
export type { BootstrapOptions, BootstrapResult, BootstrapTestOptions, BootstrapTestResult } from './stats/bootstrap.js';
export { bootstrapConfidenceInterval, bootstrapTest } from './stats/bootstrap.js';
export type { MannWhitneyUOptions, MannWhitneyUResult } from './stats/mann-whitney-u.js';
export { mannWhitneyU } from './stats/mann-whitney-u.js';
export type { PairedTestOptions, PairedTTestResult } from './stats/paired-t-test.js';
export { pairedTTest } from './stats/paired-t-test.js';
export type { PairedRandomizationTestOptions, PairedRandomizationTestResult } from './stats/paired-randomization-test.js';
export { pairedRandomizationTest } from './stats/paired-randomization-test.js';
export { adjustPValuesHolm } from './stats/holm-bonferroni.js';

// Text overlap
export type { RougeMultiResult, RougeOptions, RougeResult, RougeScore, RougeTokenizeOptions, RougeType } from './text/rouge.js';
export { ROUGE_TYPES, computeRouge, computeRougeMulti, tokenizeForRouge } from './text/rouge.js';
export type { MeteorMatch, MeteorMatchStage, MeteorOptions, MeteorResult, SynonymLookup } from './text/meteor.js';
export { computeMeteor, computeMeteorMulti } from './text/meteor.js';

// Matching
export type { LinearSumAssignmentOptions, LinearSumAssignmentResult } from './matching/linear-sum-assignment.js';
export { linearSumAssignment } from './matching/linear-sum-assignment.js';
export type { TokenizeWordsNltkOptions } from './text/nltk-word-tokenize.js';
export { splitSentencesPunktLike, tokenizeTreebankNltk, tokenizeWordsNltk } from './text/nltk-word-tokenize.js';
export type {
  AveritecEvaluation,
  AveritecEvaluationOptions,
  AveritecEvidence,
  AveritecEvidenceScore,
  AveritecEvidenceScoreOptions,
  AveritecItem,
  AveritecQuestion,
  HungarianMatchScore,
} from './matching/averitec.js';
export { buildAveritecReferences, computeAveritecEvidenceScore, computeHungarianMatchScore, evaluateAveritec } from './matching/averitec.js';
export type { WordNetExceptions, WordNetFiles, WordNetSynonyms } from './text/wordnet-synonyms.js';
export { createWordNetSynonyms, parseWordNetExceptions } from './text/wordnet-synonyms.js';
export type { BertScore, BertScoreMatrixOptions, BertScoreOptions, BertScoreResult, BertScoreWeightOptions, IdfWeights, TokenEmbeddingFunction, TokenEmbeddings } from './text/bert-score.js';
export { computeBertScore, computeBertScoreFromEmbeddings, computeBertScoreMatrix, computeIdfWeights } from './text/bert-score.js';
