// @factkit/cli: the `factkit` command line, and the jobs it runs as functions. Explicit named exports only.
export type { CliIo } from './run-cli.js';
export { USAGE, runCli } from './run-cli.js';
export type { ExitCode } from './exit-codes.js';
export { EXIT_CODES } from './exit-codes.js';
export { EVAL_USAGE, runEvalCommand } from './commands/eval.js';
export { INDEX_USAGE, SEARCH_USAGE, runIndexCommand, runSearchCommand } from './commands/index-search.js';
export { CHECK_USAGE, readQaJsonl, runCheckCommand } from './commands/check.js';
export type { CheckAnswersOptions, CheckAnswersResult, CheckEndpoint } from './check/run-check.js';
export { DEFAULT_CHECK_CORPUS, checkAnswers, loadJsonlCorpus } from './check/run-check.js';
export { formatDetectionText } from './check/format-detection-text.js';
export type { CheckReportOptions } from './report/check-report.js';
export { renderCheckReport } from './report/check-report.js';
export { REPORT_CSS, renderHtmlPage } from './report/html-page.js';
export { escapeHtml } from './report/escape-html.js';
export { createProgress, formatDuration } from './progress.js';
export type { EvaluateBm25OnBeirOptions, EvaluateBm25OnBeirResult } from './evaluate-bm25-on-beir.js';
export { evaluateBm25OnBeir } from './evaluate-bm25-on-beir.js';
