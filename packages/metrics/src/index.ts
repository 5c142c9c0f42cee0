// @factkit/metrics: what a user calls (the measures the README documents, the parsers/formatters of the files they
// read and write) and the types in those signatures. Building blocks (tokenisers used inside a measure, measure-name
// tables, the Hungarian kernel, per-format parsers) stay in their modules; the package's tests import them there.

// Ranking (trec_eval-compatible)
export type { EvaluateRunOptions, EvaluateRunResult } from './ir/evaluate-run.js';
export { evaluateRun } from './ir/evaluate-run.js';
export type { CutoffMetricOptions } from './ir/ranking-metrics.js';
export { computeNdcgAtK, computeRecallAtK } from './ir/ranking-metrics.js';
export type { BestMeanF1, SetScores } from './ir/set-scores.js';
export { computeBestMeanF1OverTopK, computeSetScores } from './ir/set-scores.js';
export type { FormatTrecRunOptions } from './ir/trec-format.js';
export { formatTrecRun } from './ir/trec-format.js';
export type { ParseQrelsOptions, QrelsFormat } from './ir/qrels-formats.js';
export { formatQrels, parseQrels, parseRun } from './ir/qrels-formats.js';
export type { CompareRunsOptions, CompareRunsResult, NamedEvaluation, PairComparison, PairedTestName, SystemScore } from './ir/compare-runs.js';
export { PAIRED_TESTS, compareRuns } from './ir/compare-runs.js';
export type { FormatReportOptions } from './ir/format-report.js';
export { formatReport } from './ir/format-report.js';

// Classification
export type { ClassificationReport, ClassificationReportOptions, ClassScores } from './classification/classification-report.js';
export { computeClassificationReport } from './classification/classification-report.js';

// Statistics
export type { Alternative } from './stats/alternative.js';
export type { MeanStandardError, MeanStandardErrorOptions } from './stats/mean-standard-error.js';
export { computeMeanStandardError } from './stats/mean-standard-error.js';
export type { BootstrapTestOptions, BootstrapTestResult } from './stats/bootstrap.js';
export { bootstrapTest } from './stats/bootstrap.js';
export type { MannWhitneyUOptions, MannWhitneyUResult } from './stats/mann-whitney-u.js';
export { mannWhitneyU } from './stats/mann-whitney-u.js';
export type { PairedTestOptions, PairedTTestResult } from './stats/paired-t-test.js';
export { pairedTTest } from './stats/paired-t-test.js';
export type { PairedRandomizationTestOptions, PairedRandomizationTestResult } from './stats/paired-randomization-test.js';
export { pairedRandomizationTest } from './stats/paired-randomization-test.js';
export { adjustPValuesHolm } from './stats/holm-bonferroni.js';

// Text overlap
export type { RougeMultiResult, RougeOptions, RougeResult, RougeScore, RougeType } from './text/rouge.js';
export { computeRouge, computeRougeMulti } from './text/rouge.js';
export type { MeteorMatch, MeteorOptions, MeteorResult, SynonymLookup } from './text/meteor.js';
export { computeMeteor, computeMeteorMulti } from './text/meteor.js';
export type { TokenizeWordsNltkOptions } from './text/nltk-word-tokenize.js';
export { tokenizeWordsNltk } from './text/nltk-word-tokenize.js';
export { stemPorterNltk } from './text/porter-stemmer.js';
export type { WordNetFiles, WordNetSynonyms } from './text/wordnet-synonyms.js';
export { createWordNetSynonyms } from './text/wordnet-synonyms.js';
export type { BertScore, BertScoreMatrixOptions, BertScoreOptions, BertScoreResult, IdfWeights, TokenEmbeddingFunction, TokenEmbeddings } from './text/bert-score.js';
export { computeBertScore, computeBertScoreMatrix, computeIdfWeights } from './text/bert-score.js';

// AVeriTeC evidence scoring (Hungarian matching)
export type {
  AveritecEvaluation,
  AveritecEvaluationOptions,
  AveritecEvidence,
  AveritecEvidenceScore,
  AveritecEvidenceScoreOptions,
  AveritecItem,
  AveritecQuestion,
  HungarianMatchScore,
  MetricsProblemCode,
} from './matching/averitec.js';
export { buildAveritecReferences, computeAveritecEvidenceScore, computeHungarianMatchScore, evaluateAveritec } from './matching/averitec.js';
