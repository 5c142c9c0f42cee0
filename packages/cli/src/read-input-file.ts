import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from '@factkit/core';

/**
 * Reads a text file a subcommand was given; a missing or unreadable file is bad input (exit 2), reported as an
 * InvalidArgumentError naming the flag, e.g. `factkit check: option "--input" cannot read "x.jsonl": ENOENT`.
 */
export async function readInputFile(path: string, where: { readonly command: string; readonly flag: string }): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError({ where: `factkit ${where.command}`, argument: where.flag, message: `cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
  }
}
