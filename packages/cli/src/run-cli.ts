import { FactkitError } from '@factkit/core';
import { EVAL_USAGE, runEvalCommand } from './commands/eval.js';

/** Where a command writes. The bin passes process streams; tests and embedders can capture. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** A one-line progress status (overwritten in place on a terminal); `undefined` ends it. */
  readonly progress: (status: string | undefined) => void;
}

export const USAGE = `usage: factkit <command> [options]

commands:
  eval    BM25 (± RM3) on a BEIR folder, scored like trec_eval

${EVAL_USAGE}`;

/**
 * Runs the `factkit` command line with `args` (without `node` and the script) and returns the exit code: 0 done,
 * 1 failed (one-line error on stderr, `factkit: <message>`), 2 usage error.
 * @example process.exitCode = await runCli(['eval', '--beir', 'datasets/scifact'], io)
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'eval':
        return await runEvalCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        (command === undefined ? io.stderr : io.stdout)(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        io.stderr(`factkit: unknown command "${command}"\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    io.progress(undefined);
    io.stderr(`factkit: ${FactkitError.isInstance(error) ? error.message : error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
