import type { JsonLineProblem, Query } from '@factkit/core';
import { asRow, readJsonlInput, type InputFlag } from './read-input.js';

const isId = (value: unknown): value is string | number => (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value));

/**
 * Reads a topics file for batch search, one query a line, in either layout (mixed files are fine): JSONL
 * `{"_id"|"id"|"qid", "text"|"query"|"title"}` (BEIR `queries.jsonl`) or TSV `qid<TAB>text` (Pyserini's / MS MARCO's
 * topic files). Plain or gzip, through the CLI's one JSONL reader: a malformed line, a line without id and text, or a
 * repeated id is dropped and named (the command then exits 3).
 * @throws InvalidArgumentError naming the flag (exit 2) for a missing, empty or unreadable file.
 */
export async function readTopicsFile(path: string, input: InputFlag): Promise<{ queries: Query[]; problems: JsonLineProblem[] }> {
  const firstLine = new Map<string, number>();
  const accept = (id: string, text: string, line: number) => {
    const earlier = firstLine.get(id);
    if (earlier !== undefined) return { reason: `repeats query id "${id}" (first on line ${earlier})` };
    firstLine.set(id, line);
    return { value: { id, text } };
  };
  const { items, problems } = await readJsonlInput<Query>(path, input, {
    read: (value, line) => {
      const row = asRow(value);
      const id = row['_id'] ?? row['id'] ?? row['qid'];
      const text = row['text'] ?? row['query'] ?? row['title'];
      if (!isId(id) || typeof text !== 'string') return { reason: 'needs "_id" (or "id", "qid") and "text" (or "query", "title")' };
      return accept(String(id), text, line);
    },
    readPlainLine: (text, line) => {
      const tab = text.indexOf('\t');
      if (tab <= 0) return { reason: 'is neither a JSON object nor "qid<TAB>text"' };
      return accept(text.slice(0, tab).trim(), text.slice(tab + 1).trim(), line);
    },
  });
  return { queries: items, problems };
}
