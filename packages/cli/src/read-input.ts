import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Document, InvalidArgumentError, type JsonLineProblem, type JsonLineRead, decodeTextFile, parseJsonLines } from '@factkit/core';
import type { CliIo } from './cli-io.js';

/** The command and flag an input file came from, so every message names the right one (`factkit trace: argument "--corpus" …`). */
export interface InputFlag {
  readonly command: string;
  readonly flag: string;
}

/** Items read from a JSONL input and the lines dropped on the way (each names `file:line` and why). */
export interface JsonlInput<T> {
  readonly items: T[];
  readonly problems: JsonLineProblem[];
}

function badInput(input: InputFlag, message: string, cause?: unknown): InvalidArgumentError {
  return new InvalidArgumentError({ where: `factkit ${input.command}`, argument: input.flag, message, ...(cause === undefined ? {} : { cause }) });
}

/**
 * The largest input file read whole (a JSONL file, a `--folder` text file, `--labels`, TREC files), after gzip: 500 MiB,
 * just under the longest string Node can hold. Larger corpora go through `--beir`, which streams. Documented in
 * docs/cli.md.
 */
export const MAX_INPUT_BYTES = 500 * 1024 * 1024;

const tooLarge = (path: string, what: string) => `"${path}" ${what} the ${MAX_INPUT_BYTES / 1024 / 1024} MiB limit of an input file read whole (stream a large corpus with --beir)`;

/**
 * Reads a text file a subcommand was given (gzip detected by its magic bytes) as UTF-8 without a byte-order mark.
 * @throws InvalidArgumentError naming the flag (exit 2) for a missing or unreadable file, a file above
 * {@link MAX_INPUT_BYTES} (checked before reading), and binary input (a NUL byte, or bytes that are not UTF-8).
 */
export async function readTextInput(path: string, input: InputFlag): Promise<string> {
  let bytes: Uint8Array;
  try {
    if ((await stat(path)).size > MAX_INPUT_BYTES) throw badInput(input, tooLarge(path, 'is larger than'));
    bytes = await readFile(path);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw error;
    throw badInput(input, `cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? String(error)}`, error);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_INPUT_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw badInput(input, tooLarge(path, 'decompresses to more than'), error);
      throw badInput(input, `"${path}" is a damaged gzip file`, error);
    }
  }
  try {
    return decodeTextFile(bytes, path);
  } catch (error) {
    const message = (error as Error).message;
    throw badInput(input, `"${path}" ${message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message}`, error);
  }
}

/**
 * The one JSONL reader of the CLI, with one problems policy: the byte-order mark is stripped, binary input is
 * refused, every malformed line (bad JSON, or refused by `read`) is dropped and returned as a problem naming
 * `file:line` and the reason. The command exits 3 when any line was dropped (see `reportDroppedLines`).
 * @throws InvalidArgumentError naming the flag (exit 2) for a missing, unreadable, binary or empty file, and when no
 * line is readable.
 */
export async function readJsonlInput<T>(
  path: string,
  input: InputFlag,
  options: { readonly read: (value: unknown, line: number) => JsonLineRead<T>; readonly readPlainLine?: (text: string, line: number) => JsonLineRead<T> },
): Promise<JsonlInput<T>> {
  const text = await readTextInput(path, input);
  const parsed = parseJsonLines(text, { source: path, ...options });
  if (parsed.lines === 0) throw badInput(input, `"${path}" is empty`);
  if (parsed.items.length === 0) {
    const first = parsed.problems
      .slice(0, 3)
      .map((problem) => problem.message)
      .join('; ');
    throw badInput(input, `"${path}" has no readable line (${parsed.problems.length} malformed: ${first}${parsed.problems.length > 3 ? '; …' : ''})`);
  }
  return { items: parsed.items.map((item) => item.value), problems: [...parsed.problems] };
}

/** Prints up to 20 dropped lines as warnings (`warning: file:line: reason`) and how many more; returns how many were dropped. */
export function reportDroppedLines(io: CliIo, problems: readonly { readonly message: string }[]): number {
  for (const problem of problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  if (problems.length > 20) io.stderr(`warning: … and ${problems.length - 20} more dropped line(s)\n`);
  return problems.length;
}

/** A parsed JSON line as a record of fields (`{}` for anything but an object), for row readers. */
export function asRow(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const isId = (value: unknown): value is string | number => (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value));

/**
 * Reads a JSONL corpus (`{"_id"|"id", "text"|"contents", "title"?, "source"|"url"?}` per line) into documents with
 * `metadata.source` (the line's source or url, else its id). A line without an id or text, or repeating an earlier
 * id, is dropped and named.
 */
export async function readJsonlCorpus(path: string, input: InputFlag): Promise<JsonlInput<Document>> {
  const firstLine = new Map<string, number>();
  return readJsonlInput<Document>(path, input, {
    read: (value, line) => {
      const row = asRow(value);
      const id = row['_id'] ?? row['id'];
      const text = row['text'] ?? row['contents'];
      if (!isId(id) || typeof text !== 'string') return { reason: 'needs "id" (or "_id") and "text"' };
      const key = String(id);
      const earlier = firstLine.get(key);
      if (earlier !== undefined) return { reason: `repeats document id "${key}" (first on line ${earlier})` };
      firstLine.set(key, line);
      // The row's "source" (a collection name) and "url" become the typed Document.source the evidence origin carries.
      const url = typeof row['url'] === 'string' && row['url'] ? row['url'] : undefined;
      const source = { name: typeof row['source'] === 'string' && row['source'] ? row['source'] : basename(path), ...(url === undefined ? {} : { url }) };
      return { value: { id: key, text, ...(typeof row['title'] === 'string' && row['title'] ? { title: row['title'] } : {}), source } };
    },
  });
}

/** A file a command writes (`--out`, `--md`, …) and the flag naming it; `undefined` paths are skipped. */
export interface OutputFlag {
  readonly flag: string;
  readonly path: string | undefined;
}

/**
 * Refuses an output path that is one of the command's inputs, by path or as the same file (a hard or symbolic link):
 * writing it would replace the user's data with the output. Run before anything is written.
 * @throws InvalidArgumentError naming the output flag (exit 2).
 */
export async function assertOutputsAreNotInputs(command: string, outputs: readonly OutputFlag[], inputs: readonly OutputFlag[]): Promise<void> {
  const identity = async (path: string) => {
    const info = await stat(path).catch(() => undefined);
    return info ? `${info.dev}:${info.ino}` : undefined;
  };
  const known = await Promise.all(inputs.filter((input) => input.path !== undefined).map(async (input) => ({ ...input, resolved: resolve(input.path as string), id: await identity(input.path as string) })));
  for (const output of outputs) {
    if (output.path === undefined) continue;
    const resolved = resolve(output.path);
    const id = await identity(output.path);
    const same = known.find((input) => input.resolved === resolved || (id !== undefined && input.id === id));
    if (same) throw new InvalidArgumentError({ where: `factkit ${command}`, argument: output.flag, message: `is the input file of ${same.flag} ("${output.path}"): writing it would replace your data; choose another output path` });
  }
}

/** The files of a BEIR folder a command reads (corpus, queries, the split's qrels; plain and gzip), as inputs of `--beir`. */
export function beirFiles(folder: string, split: string): OutputFlag[] {
  return ['corpus.jsonl', 'queries.jsonl', `qrels/${split}.tsv`, 'corpus_sentences.jsonl'].flatMap((name) => [name, `${name}.gz`]).map((name) => ({ flag: '--beir', path: join(folder, name) }));
}
