import { type ParseArgsConfig, parseArgs } from 'node:util';
import { InvalidArgumentError } from '@factkit/core';
import type { CliIo } from './cli-io.js';

/** A node:util parseArgs option table. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** The parsed flags of a command whose option table is `O`. */
export type CommandValues<O extends CommandOptions> = ReturnType<typeof parseArgs<{ options: O; args: string[] }>>['values'];

/**
 * One `factkit` subcommand: the command table in run-cli.ts is a list of these, and the top-level usage, the
 * dispatch, `factkit <command> --help` and the flags a config file may set for the command all come from it.
 */
export interface CliCommand {
  /** The word after `factkit` (`check`), or an internal mode name (`eval-runs`). */
  readonly name: string;
  /** One line for `factkit --help`. */
  readonly summary: string;
  /** The command's usage text (`factkit <command> --help`). */
  readonly usage: string;
  /** Its flags (node:util parseArgs). `--help` / `-h` is added to every command. */
  readonly options: CommandOptions;
  /** Parses `args` (without the command word), prints usage on `--help`, else runs; returns the exit code. */
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>;
}

/**
 * Lets `--top-k -1` reach the command's own check ("must be a positive integer (got "-1")") instead of node's
 * "argument is ambiguous": a value flag followed by a negative number becomes `--flag=-1`.
 */
function joinNegativeValues(args: readonly string[], options: CommandOptions): string[] {
  const out: string[] = [];
  for (let position = 0; position < args.length; position++) {
    const argument = args[position] as string;
    const next = args[position + 1];
    const name = argument.startsWith('--') ? argument.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${argument}=${next}`);
      position++;
    } else out.push(argument);
  }
  return out;
}

/**
 * Defines a subcommand from its option table and a `run` over the parsed, typed flags.
 * @example export const evalCommand = defineCommand({ name: 'eval', summary: '…', usage: EVAL_USAGE, options: EVAL_OPTIONS, run: runEval })
 */
export function defineCommand<O extends CommandOptions>(spec: {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: O;
  readonly run: (values: CommandValues<O>, io: CliIo) => Promise<number>;
}): CliCommand {
  const { options } = spec;
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    options,
    async run(args, io) {
      const { values } = parseArgs({
        args: joinNegativeValues(
          args.filter((argument) => argument !== '--'),
          options,
        ),
        options: { ...options, help: { type: 'boolean', short: 'h', default: false } },
      });
      if ((values as { help?: boolean }).help) {
        io.stdout(`${spec.usage}\n`);
        return 0;
      }
      return spec.run(values as CommandValues<O>, io);
    },
  };
}

/**
 * An integer flag of at least `minimum`.
 * @throws InvalidArgumentError naming `factkit <command>` and `--<name>` otherwise.
 */
export function integerFlag(command: string, name: string, text: string, minimum = 1): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < minimum) {
    throw new InvalidArgumentError({ where: `factkit ${command}`, argument: `--${name}`, message: `must be ${minimum === 1 ? 'a positive integer' : `an integer >= ${minimum}`} (got "${text}")` });
  }
  return value;
}

/**
 * A finite number flag.
 * @throws InvalidArgumentError naming `factkit <command>` and `--<name>` otherwise.
 */
export function numberFlag(command: string, name: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new InvalidArgumentError({ where: `factkit ${command}`, argument: `--${name}`, message: `must be a number (got "${text}")` });
  return value;
}
