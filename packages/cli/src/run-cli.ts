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
import { applyConfig, findConfigFile, loadConfigFile } from './config/config-file.js';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';

/** Where a command writes. The bin passes process streams; tests and embedders can capture. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** A one-line progress status (overwritten in place on a terminal); `undefined` ends it. */
  readonly progress: (status: string | undefined) => void;
  /** Aborted on Ctrl-C: long jobs stop, finished model calls stay in the call cache. */
  readonly abortSignal?: AbortSignal;
  /** Environment (OPENAI_BASE_URL, OPENAI_API_KEY, FACTKIT_MODEL, and variables a config file's `"$env:NAME"` names). @default {} */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the search for factkit.config.json / .factkitrc.json starts and `--config` is resolved from. @default process.cwd() */
  readonly cwd?: string;
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

global options: --config <file> (default: factkit.config.json or .factkitrc.json in this folder or a parent),
                --no-config. Precedence: flags > environment (OPENAI_BASE_URL, OPENAI_API_KEY, FACTKIT_MODEL) > config > defaults.

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

const COMMANDS = new Set(['check', 'eval', 'index', 'search', 'expand', 'enrich', 'audit', 'trace', 'models']);

function isEvalRunsMode(args: readonly string[]): boolean {
  return args.some((argument) => argument === '--qrels' || argument.startsWith('--qrels=') || argument === '--runs' || argument.startsWith('--runs='));
}

/** Takes `--config <file>` / `--config=<file>` / `--no-config` from anywhere in the arguments; the first other word is the command. */
function splitGlobalFlags(args: readonly string[]): { command: string | undefined; rest: string[]; configPath: string | undefined; noConfig: boolean } {
  const remaining: string[] = [];
  let configPath: string | undefined;
  let noConfig = false;
  for (let position = 0; position < args.length; position++) {
    const argument = args[position] as string;
    if (argument === '--') {
      remaining.push(...args.slice(position));
      break;
    }
    if (argument === '--config') {
      const value = args[position + 1];
      if (value === undefined || value.startsWith('--')) throw new InvalidArgumentError({ where: 'factkit', argument: '--config', message: 'needs a file path' });
      configPath = value;
      position++;
    } else if (argument.startsWith('--config=')) configPath = argument.slice('--config='.length);
    else if (argument === '--no-config') noConfig = true;
    else remaining.push(argument);
  }
  const [command, ...rest] = remaining;
  return { command, rest, configPath, noConfig };
}

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
export async function runCli(args: readonly string[], cliIo: CliIo): Promise<number> {
  let io = cliIo;
  const secrets: string[] = [];
  try {
    const { command, rest: given, configPath, noConfig } = splitGlobalFlags(args);
    let rest = given;
    if (command !== undefined && COMMANDS.has(command)) {
      const cwd = io.cwd ?? process.cwd();
      const path = configPath !== undefined ? resolve(cwd, configPath) : noConfig ? undefined : await findConfigFile(cwd);
      if (path !== undefined) {
        const mode = command === 'eval' && isEvalRunsMode(rest) ? 'eval-runs' : command;
        const applied = applyConfig(await loadConfigFile(path), mode, rest, io.env ?? {});
        rest = applied.args;
        secrets.push(...applied.secrets);
        if (secrets.length > 0) {
          // The key from the config file never reaches the terminal, whatever a command prints.
          const redact = (text: string) => redactSecrets(text, secrets);
          io = { ...io, stdout: (text) => cliIo.stdout(redact(text)), stderr: (text) => cliIo.stderr(redact(text)) };
        }
        for (const warning of applied.warnings) io.stderr(`factkit: warning: ${warning}\n`);
        if (applied.outDir) await mkdir(applied.outDir, { recursive: true });
      }
    }
    switch (command) {
      case 'check':
        return await runCheckCommand(rest, io);
      case 'eval':
        // Two modes: --beir (BM25 ± RM3 on a BEIR folder) or --qrels/--runs (score run files, paired significance).
        return isEvalRunsMode(rest) ? await runEvalRunsCommand(rest, io) : await runEvalCommand(rest, io);
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
    io.stderr(`factkit: ${redactSecrets(message, [io.env?.['OPENAI_API_KEY'], ...secrets]).split('\n')[0]}\n`);
    return isBadInput(error) ? EXIT_CODES.badInput : EXIT_CODES.failure;
  }
}
