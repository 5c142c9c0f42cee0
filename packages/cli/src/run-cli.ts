import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CorruptDataError, FactkitError, InvalidArgumentError, redactSecrets } from '@factkit/core';
import type { CliIo } from './cli-io.js';
import type { CliCommand } from './command.js';
import { auditCommand } from './commands/audit.js';
import { checkCommand } from './commands/check.js';
import { enrichCommand } from './commands/enrich.js';
import { evalCommand } from './commands/eval.js';
import { evalRunsCommand } from './commands/eval-runs.js';
import { expandCommand } from './commands/expand.js';
import { indexCommand, searchCommand } from './commands/index-search.js';
import { modelsCommand } from './commands/models.js';
import { traceCommand } from './commands/trace.js';
import { applyConfig, findConfigFile, loadConfigFile } from './config/config-file.js';
import { EXIT_CODES } from './exit-codes.js';

/**
 * The command table: `factkit --help`, the dispatch, `factkit <command> --help` and the config file's command
 * sections all come from it. `eval` has a second mode (`--qrels`/`--runs`: TREC run files), picked by its flags.
 */
const COMMANDS: readonly (CliCommand & { readonly mode?: { readonly when: (args: readonly string[]) => boolean; readonly command: CliCommand } })[] = [
  checkCommand,
  { ...evalCommand, mode: { when: isEvalRunsMode, command: evalRunsCommand } },
  indexCommand,
  searchCommand,
  expandCommand,
  auditCommand,
  enrichCommand,
  traceCommand,
  modelsCommand,
];

/** The installed version of @factkit/cli (`factkit --version`). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** `factkit --help`: the command list from the table, then every command's usage. */
export const USAGE = `usage: factkit <command> [options]

commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(7)} ${command.summary}`).join('\n')}

global options: --config <file> (default: factkit.config.json or .factkitrc.json in this folder or a parent),
                --no-config, --version. Precedence: flags > environment (OPENAI_BASE_URL, OPENAI_API_KEY, FACTKIT_MODEL)
                > config > defaults. \`factkit <command> --help\` prints one command's usage.

exit codes: 0 done, 1 unexpected failure, 2 bad input, 3 partial failure, 130 interrupted

${COMMANDS.flatMap((command) => [command.usage, ...(command.mode ? [command.mode.command.usage] : [])]).join('\n\n')}`;

function isEvalRunsMode(args: readonly string[]): boolean {
  const has = (flag: string) => args.some((argument) => argument === flag || argument.startsWith(`${flag}=`));
  // `eval --index … --qrels` evaluates a saved index (eval.ts); `--runs`, or `--qrels` alone, compares run files.
  return has('--runs') || (has('--qrels') && !has('--index'));
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
  let where = 'factkit';
  try {
    const { command: name, rest: given, configPath, noConfig } = splitGlobalFlags(args);
    const entry = COMMANDS.find((command) => command.name === name);
    if (entry === undefined) {
      if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
        (name === undefined ? io.stderr : io.stdout)(`${USAGE}\n`);
        return name === undefined ? EXIT_CODES.badInput : EXIT_CODES.ok;
      }
      if (name === '--version' || name === '-v' || name === 'version') {
        io.stdout(`${VERSION}\n`);
        return EXIT_CODES.ok;
      }
      io.stderr(`factkit: unknown command "${name}" (try factkit --help)\n`);
      return EXIT_CODES.badInput;
    }
    where = `factkit ${entry.name}`;
    const command = entry.mode?.when(given) ? entry.mode.command : entry;
    if (entry.mode && command === entry && given.some((argument) => argument === '--help' || argument === '-h')) {
      // `factkit eval --help` shows both modes; `factkit eval --qrels … --help` only the runs mode.
      io.stdout(`${entry.usage}\n\n${entry.mode.command.usage}\n`);
      return EXIT_CODES.ok;
    }
    let rest = given;
    const cwd = io.cwd ?? process.cwd();
    const path = configPath !== undefined ? resolve(cwd, configPath) : noConfig ? undefined : await findConfigFile(cwd);
    if (path !== undefined) {
      const applied = applyConfig(await loadConfigFile(path), command.name, rest, io.env ?? {}, Object.keys(command.options));
      rest = applied.args;
      secrets.push(...applied.secrets);
      if (secrets.length > 0) {
        // The key from the config file never reaches the terminal, whatever a command prints.
        const redact = (text: string) => redactSecrets(text, secrets);
        io = { ...io, stdout: (text) => cliIo.stdout(redact(text)), stderr: (text) => cliIo.stderr(redact(text)) };
      }
      for (const warning of applied.warnings) io.stderr(`${where}: warning: ${warning}\n`);
      if (applied.outDir) await mkdir(applied.outDir, { recursive: true });
    }
    return await command.run(rest, io);
  } catch (error) {
    io.progress(undefined);
    if (io.abortSignal?.aborted) {
      io.stderr('factkit: interrupted; finished model calls are kept in the call cache, re-run to resume\n');
      return EXIT_CODES.interrupted;
    }
    const message = FactkitError.isInstance(error) || error instanceof Error ? error.message : String(error);
    io.stderr(`${errorLine(where, redactSecrets(message, [io.env?.['OPENAI_API_KEY'], ...secrets]).split('\n')[0] ?? '')}\n`);
    return isBadInput(error) ? EXIT_CODES.badInput : EXIT_CODES.failure;
  }
}

/**
 * One error line, prefixed once with the command it came from: `factkit check: argument "--top-k" …` as the error
 * says it, and `factkit eval: loadBeirDataset: …` for errors from a library (never `factkit: factkit check: …`).
 */
export function errorLine(where: string, message: string): string {
  return /^factkit(?: [\w-]+)?: /.test(message) ? message : `${where}: ${message}`;
}
