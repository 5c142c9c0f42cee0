// @factkit/cli: the `factkit` command line (runCli) and the jobs it runs that are useful as functions. Everything else
// (commands, readers, reports) is internal. Explicit named exports only.
export type { CliIo } from './cli-io.js';
export { runCli } from './run-cli.js';
export type { Endpoint } from './endpoint.js';
export type { CheckAnswersOptions, CheckAnswersResult, CheckEndpoint } from './check/run-check.js';
export { checkAnswers } from './check/run-check.js';
export type { EvaluateBm25OnBeirOptions, EvaluateBm25OnBeirResult } from './evaluate-bm25-on-beir.js';
export { evaluateBm25OnBeir } from './evaluate-bm25-on-beir.js';
export type { RunComparison } from './commands/eval-runs.js';
export { compareEvaluations } from './commands/eval-runs.js';
export type { LocalModelReport } from './commands/models.js';
export { inspectLocalModels } from './commands/models.js';
