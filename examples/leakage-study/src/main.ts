// CLI entry: `pnpm --filter leakage-study start -- --help`. Progress goes to stderr; results to the output folder.
// Exit codes: 0 every number whole (or failures within --max-failures); 2 bad input; 3 failures beyond --max-failures;
// 130 interrupted (finished calls are cached: rerun to resume); 1 anything else.
import { InvalidArgumentError } from '@factkit/core';
import { EXIT_CODES, runCli } from './cli.js';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('interrupted (SIGINT); finished calls are cached, rerun to resume')));

try {
  const outcome = await runCli(process.argv.slice(2), { env: process.env, log: (text) => process.stderr.write(text), abortSignal: controller.signal });
  if (outcome.summary) process.stderr.write(`${outcome.summary}\n`);
  process.exitCode = outcome.exitCode;
} catch (error) {
  process.stderr.write(`leakage-study: ${error instanceof Error ? error.message : String(error)}\n`);
  const badInput = InvalidArgumentError.isInstance(error) || String((error as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');
  process.exitCode = controller.signal.aborted ? EXIT_CODES.interrupted : badInput ? EXIT_CODES.badInput : EXIT_CODES.error;
}
