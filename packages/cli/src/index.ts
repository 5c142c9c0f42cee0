// @factkit/cli: the `factkit` command line, and the jobs it runs as functions. Explicit named exports only.
export type { CliIo } from './run-cli.js';
export { USAGE, runCli } from './run-cli.js';
export { EVAL_USAGE, runEvalCommand } from './commands/eval.js';
export type { EvaluateBm25OnBeirOptions, EvaluateBm25OnBeirResult } from './evaluate-bm25-on-beir.js';
export { evaluateBm25OnBeir } from './evaluate-bm25-on-beir.js';
