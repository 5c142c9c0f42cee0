import { CorruptDataError, InvalidArgumentError } from '../errors/factkit-error.js';
import type { ItemProblem } from '../query.js';

/** Codes of the problems `parseJsonLines` reports, one per dropped line. */
export type JsonLineProblemCode = 'bad-json' | 'bad-row';

/** A line `parseJsonLines` dropped: `message` is `<source>:<line>: <reason>`. */
export interface JsonLineProblem extends ItemProblem {
  readonly code: JsonLineProblemCode;
  /** 1-based line number. */
  readonly line: number;
  /** Why the line was dropped, without the location (e.g. `not valid JSON`). */
  readonly reason: string;
}

/** What a row reader makes of one parsed line: the item, or why the line is dropped. */
export type JsonLineRead<T> = { readonly value: T } | { readonly reason: string };

export interface ParseJsonLinesOptions<T> {
  /** Names the input in problems and errors (a file path). @default 'input' */
  readonly source?: string;
  /** Turns one parsed JSON value into an item, or says why the line is dropped. @default every value is kept */
  readonly read?: (value: unknown, line: number) => JsonLineRead<T>;
  /** Turns a line that does not start with `{` or `[` into an item (e.g. plain-text statements); without it such a line is parsed as JSON. */
  readonly readPlainLine?: (text: string, line: number) => JsonLineRead<T>;
}

export interface ParsedJsonLines<T> {
  /** Kept items with their 1-based line numbers, in file order. */
  readonly items: readonly { readonly line: number; readonly value: T }[];
  /** One problem per dropped line (malformed JSON or refused by `read`), in file order. */
  readonly problems: readonly JsonLineProblem[];
  /** Non-blank lines seen (kept + dropped). */
  readonly lines: number;
}

const BOM = '\uFEFF';

/** Removes one leading UTF-8 byte-order mark (U+FEFF), which editors on Windows write and JSON.parse refuses. */
export function stripByteOrderMark(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * Decodes the bytes of a text file as UTF-8 without a byte-order mark, refusing binary input.
 * @throws CorruptDataError naming `source` when the bytes hold a NUL byte or are not valid UTF-8 (a binary file).
 */
export function decodeTextFile(bytes: Uint8Array, source = 'input'): string {
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError({ where: 'decodeTextFile', argument: 'bytes', message: 'must be a Uint8Array' });
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new CorruptDataError({ source, message: `is not a text file (NUL byte at offset ${nul})` });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new CorruptDataError({ source, message: 'is not a text file (not valid UTF-8)', cause });
  }
  return stripByteOrderMark(text);
}

/**
 * Parses JSON Lines text: a leading byte-order mark is stripped, blank lines are skipped, and every line that is not
 * valid JSON or that `read` refuses is dropped with a problem naming `<source>:<line>` and the reason. Never throws
 * for bad lines: the caller decides what dropped lines mean (the factkit CLI exits 3 when any line was dropped, and
 * 2 when nothing readable remains).
 * @throws InvalidArgumentError when `text` is not a string.
 * @example parseJsonLines('{"id":1}\nnot json\n', { source: 'a.jsonl' }) // items [{line: 1, …}], problems [{line: 2, code: 'bad-json', …}]
 */
export function parseJsonLines<T = unknown>(text: string, options: ParseJsonLinesOptions<T> = {}): ParsedJsonLines<T> {
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'parseJsonLines', argument: 'text', message: `must be a string (got ${text === null ? 'null' : typeof text})` });
  const { source = 'input', read, readPlainLine } = options;
  const items: { line: number; value: T }[] = [];
  const problems: JsonLineProblem[] = [];
  let lines = 0;
  const drop = (line: number, code: JsonLineProblemCode, reason: string) => problems.push({ index: line - 1, line, code, reason, message: `${source}:${line}: ${reason}` });
  const keep = (line: number, outcome: JsonLineRead<T>) => {
    if ('reason' in outcome) drop(line, 'bad-row', outcome.reason);
    else items.push({ line, value: outcome.value });
  };
  stripByteOrderMark(text)
    .split('\n')
    .forEach((raw, position) => {
      const line = position + 1;
      const trimmed = raw.trim();
      if (trimmed === '') return;
      lines++;
      if (readPlainLine && !trimmed.startsWith('{') && !trimmed.startsWith('[')) {
        keep(line, readPlainLine(trimmed, line));
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        drop(line, 'bad-json', 'not valid JSON');
        return;
      }
      keep(line, read ? read(value, line) : { value: value as T });
    });
  return { items, problems, lines };
}
