import type { Qrels, Run } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { compareCodePoints } from '../internal/compare.js';
import { formatTrecQrels, parseQrelsJson, parseRunJson, parseTrecQrels, parseTrecRun } from './trec-format.js';

/**
 * The qrels layouts every factkit command reads:
 * - `trec`: TREC 4-column `qid iter docno rel` (whitespace separated), what trec_eval reads;
 * - `beir`: BEIR TSV `query-id<TAB>corpus-id<TAB>score` with an optional `query-id` header line;
 * - `json`: pytrec_eval's `{ "qid": { "docno": rel } }`.
 */
export type QrelsFormat = 'trec' | 'beir' | 'json';
export const QRELS_FORMATS: readonly QrelsFormat[] = ['trec', 'beir', 'json'];

/** Options of `parseQrels`. */
export interface ParseQrelsOptions {
  /** The layout, or `'auto'` to detect it (`detectQrelsFormat`). @default 'auto' */
  readonly format?: QrelsFormat | 'auto';
  /** Name used in error messages (e.g. a file name). @default 'qrels' */
  readonly source?: string;
}

/**
 * Which qrels layout `text` is in, from its first non-blank character and line: `{` → `json`; a `query-id` header
 * or three tab-separated columns → `beir`; four whitespace-separated fields → `trec`. Blank text is `trec` (empty).
 * @throws CorruptDataError naming the source when the first line fits none of the three.
 */
export function detectQrelsFormat(text: string, source = 'qrels'): QrelsFormat {
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'detectQrelsFormat', argument: 'text', message: 'must be a string' });
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) return 'json';
  const firstLine = body.split(/\r?\n/).find((line) => line.trim() !== '');
  if (firstLine === undefined) return 'trec';
  const line = firstLine.trim();
  if (line.split('\t')[0] === 'query-id' || line.split('\t').length === 3) return 'beir';
  if (line.split(/\s+/).length === 4) return 'trec';
  throw new CorruptDataError({ source, message: `is not qrels in a known layout: its first line "${line.slice(0, 80)}" is neither TREC "qid iter docno rel", BEIR TSV "query-id<TAB>corpus-id<TAB>score" nor JSON` });
}

/**
 * Parses BEIR qrels TSV (`query-id<TAB>corpus-id<TAB>score`, an optional `query-id` header on line 1).
 * @throws CorruptDataError naming the line for a wrong column count, a non-integer score or a repeated pair.
 * @example parseBeirQrelsTsv('query-id\tcorpus-id\tscore\nq1\td1\t1\n') // { q1: { d1: 1 } }
 */
export function parseBeirQrelsTsv(text: string, options: { readonly source?: string } = {}): Qrels {
  const { source = 'qrels' } = options;
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'parseBeirQrelsTsv', argument: 'text', message: 'must be a string' });
  const table = new Map<string, Map<string, number>>();
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line.length === 0) return;
      const columns = line.split('\t');
      if (index === 0 && columns[0] === 'query-id') return;
      if (columns.length !== 3) throw new CorruptDataError({ source: `${source}:${index + 1}`, message: `has ${columns.length} tab-separated columns; expected query-id, corpus-id, score` });
      const [queryId, documentId, scoreText] = columns as [string, string, string];
      if (!/^[+-]?\d+$/.test(scoreText.trim()) || !Number.isSafeInteger(Number(scoreText))) throw new CorruptDataError({ source: `${source}:${index + 1}`, message: `score "${scoreText}" is not an integer` });
      let row = table.get(queryId);
      if (row === undefined) table.set(queryId, (row = new Map()));
      if (row.has(documentId)) throw new CorruptDataError({ source: `${source}:${index + 1}`, message: `document "${documentId}" of query "${queryId}" is judged twice` });
      row.set(documentId, Number(scoreText));
    });
  return Object.fromEntries([...table].map(([queryId, row]) => [queryId, Object.fromEntries(row)]));
}

/**
 * Parses qrels in any of the three layouts (`QrelsFormat`), detected unless `format` is given.
 * @throws CorruptDataError naming the source (and line) for malformed text; InvalidArgumentError for an unknown format.
 * @example parseQrels('q1 0 d1 1\n') // { q1: { d1: 1 } }
 */
export function parseQrels(text: string, options: ParseQrelsOptions = {}): Qrels {
  const { format = 'auto', source = 'qrels' } = options;
  if (format !== 'auto' && !QRELS_FORMATS.includes(format)) throw new InvalidArgumentError({ where: 'parseQrels', argument: 'format', message: `must be auto or one of ${QRELS_FORMATS.join(', ')} (got ${String(format)})` });
  const layout = format === 'auto' ? detectQrelsFormat(text, source) : format;
  if (layout === 'json') return parseQrelsJson(text.replace(/^\uFEFF/, ''), { source });
  if (layout === 'beir') return parseBeirQrelsTsv(text, { source });
  return parseTrecQrels(text.replace(/^\uFEFF/, ''), { source });
}

/** Formats qrels in one of the three layouts (BEIR with its header line; queries and documents in byte order). */
export function formatQrels(qrels: Qrels, format: QrelsFormat): string {
  if (format === 'trec') return formatTrecQrels(qrels);
  const queryIds = Object.keys(qrels).sort(compareCodePoints);
  if (format === 'json') return `${JSON.stringify(Object.fromEntries(queryIds.map((id) => [id, qrels[id]])))}\n`;
  if (format !== 'beir') throw new InvalidArgumentError({ where: 'formatQrels', argument: 'format', message: `must be one of ${QRELS_FORMATS.join(', ')} (got ${String(format)})` });
  const out = ['query-id\tcorpus-id\tscore\n'];
  for (const queryId of queryIds) {
    const judgments = qrels[queryId] ?? {};
    for (const documentId of Object.keys(judgments).sort(compareCodePoints)) out.push(`${queryId}\t${documentId}\t${judgments[documentId]}\n`);
  }
  return out.join('');
}

/**
 * Parses a run as a TREC run file (`qid Q0 docno rank score tag`) or pytrec_eval JSON (`{ qid: { docno: score } }`),
 * detected by the first non-blank character.
 * @throws CorruptDataError naming the source (and line) for malformed text.
 */
export function parseRun(text: string, options: { readonly source?: string } = {}): Run {
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'parseRun', argument: 'text', message: 'must be a string' });
  const body = text.replace(/^\uFEFF/, '');
  return body.trimStart().startsWith('{') ? parseRunJson(body, options) : parseTrecRun(body, options);
}
