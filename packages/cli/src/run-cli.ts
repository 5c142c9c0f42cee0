import { CorruptDataError, FactkitError, InvalidArgumentError, redactSecrets } from '@factkit/core';
import { CHECK_USAGE, runCheckCommand } from './commands/check.js';
import { EVAL_USAGE, runEvalCommand } from './commands/eval.js';
import { EVAL_RUNS_USAGE, runEvalRunsCommand } from './commands/eval-runs.js';
import { INDEX_USAGE, SEARCH_USAGE, runIndexCommand, runSearchCommand } from './commands/index-search.js';
import { MODELS_USAGE, runModelsCommand } from './commands/models.js';
import { AUDIT_USAGE, runAuditCommand } from './commands/audit.js';
import { EXPAND_USAGE, runExpandCommand } from './commands/expand.js';
import { ENRICH_USAGE, runEnrichCommand } from './commands/enrich.js';
import { TRACE_USAGE, runTraceCommand } from './commands/trace.js';
import { EXIT_CODES } from './exit-codes.js';

/** Where a command writes. The bin passes process streams; tests and embedders can capture. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** A one-line progress status (overwritten in place on a terminal); `undefined` ends it. */
  readonly progress: (status: string | undefined) => void;
  /** Aborted on Ctrl-C: long jobs stop, finished model calls stay in the call cache. */
  readonly abortSignal?: AbortSignal;
  /** Environment (OPENAI_BASE_URL, OPENAI_API_KEY, FACTKIT_MODEL). @default {} */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export const USAGE = `usage: factkit <command> [options]

commands:
  check   hallucination detection (JointCQ) of answers against a local corpus, with an HTML report
  eval    BM25 (± RM3) on a BEIR folder, scored like trec_eval; or TREC run files with paired significance
  index   build and save a BM25, dense (USE-lite, GloVe, endpoint) or hybrid index from JSONL, BEIR or a text folder
  search  search a saved BM25, dense or hybrid index
  expand  query expansion: RM3 offline; Query2doc, HyDE, multi-query on an endpoint
  audit   knowledge-leakage study of query expansion on a BEIR folder (@factkit/nli-match)
  enrich  chunk documents and give each chunk a title and candidate questions (@factkit/chunk-knowledge)
  trace   fact tracing: which documents of a corpus support a statement (@factkit/fasttrack)
  models  list and verify local model folders and an OpenAI-compatible endpoint

exit codes: 0 done, 1 unexpected failure, 2 bad input, 3 partial failure, 130 interrupted

${CHECK_USAGE}

${EVAL_USAGE}

${EVAL_RUNS_USAGE}

${INDEX_USAGE}

${SEARCH_USAGE}

${MODELS_USAGE}

${AUDIT_USAGE}

${EXPAND_USAGE}

${ENRICH_USAGE}

${TRACE_USAGE}`;

function isBadInput(error: unknown): boolean {
  if (InvalidArgumentError.isInstance(error) || CorruptDataError.isInstance(error)) return true;
  // node:util parseArgs errors (unknown option, missing value).
  const code = (error as { code?: unknown } | null)?.code;
  // A missing or unreadable input file named on the command line.
  return typeof code === 'string' && (code.startsWith('ERR_PARSE_ARGS') || ['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES'].includes(code));
}

/**
 * Runs the `factkit` command line with `args` (without `node` and the script) and returns the exit code (see
 * EXIT_CODES): 0 done, 1 unexpected failure, 2 bad input, 3 partial failure, 130 interrupted. Errors are one line on
 * stderr (`factkit: <message>`), secrets redacted.
 * @example process.exitCode = await runCli(['check', '--answer', 'Paris is in Italy.'], io)
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'check':
        return await runCheckCommand(rest, io);
      case 'eval':
        // Two modes: --beir (BM25 ± RM3 on a BEIR folder) or --qrels/--runs (score run files, paired significance).
        return rest.some((argument) => argument === '--qrels' || argument.startsWith('--qrels=') || argument === '--runs' || argument.startsWith('--runs=')) ? await runEvalRunsCommand(rest, io) : await runEvalCommand(rest, io);
      case 'index':
        return await runIndexCommand(rest, io);
      case 'search':
        return await runSearchCommand(rest, io);
      case 'expand':
        return await runExpandCommand(rest, io);
      case 'enrich':
        return await runEnrichCommand(rest, io);
      case 'audit':
        return await runAuditCommand(rest, io);
      case 'trace':
        return await runTraceCommand(rest, io);
      case 'models':
        return await runModelsCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        (command === undefined ? io.stderr : io.stdout)(`${USAGE}\n`);
        return command === undefined ? EXIT_CODES.badInput : EXIT_CODES.ok;
      default:
        io.stderr(`factkit: unknown command "${command}" (try factkit --help)\n`);
        return EXIT_CODES.badInput;
    }
  } catch (error) {
    io.progress(undefined);
    if (io.abortSignal?.aborted) {
      io.stderr('factkit: interrupted; finished model calls are kept in the call cache, re-run to resume\n');
      return EXIT_CODES.interrupted;
    }
    const message = FactkitError.isInstance(error) || error instanceof Error ? error.message : String(error);
    io.stderr(`factkit: ${redactSecrets(message, [io.env?.['OPENAI_API_KEY']]).split('\n')[0]}\n`);
    return isBadInput(error) ? EXIT_CODES.badInput : EXIT_CODES.failure;
  }
}
