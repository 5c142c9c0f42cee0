import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Document, Qrels, Query } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { readTextFile } from '@factkit/core/node';
import { readJsonLines } from './json-lines.js';
import type { RetrievalProblem } from '../problem-codes.js';

export interface BeirReadOptions {
  readonly abortSignal?: AbortSignal;
}

function toDocument(value: unknown, source: string): Document {
  if (typeof value !== 'object' || value === null) throw new CorruptDataError({ source, message: 'is not a JSON object' });
  const record = value as Record<string, unknown>;
  const id = record._id ?? record.id ?? record.docid;
  if (typeof id !== 'string' && typeof id !== 'number') throw new CorruptDataError({ source, message: 'has no "_id" (or "id")' });
  const text = record.text ?? record.contents ?? '';
  if (typeof text !== 'string') throw new CorruptDataError({ source, message: `document "${String(id)}" has a non-string "text"` });
  const title = record.title;
  const metadata = record.metadata;
  return {
    id: String(id),
    text,
    ...(typeof title === 'string' && title.length > 0 ? { title } : {}),
    ...(typeof metadata === 'object' && metadata !== null && Object.keys(metadata).length > 0 ? { metadata: metadata as Record<string, unknown> } : {}),
  };
}

/**
 * Streams a BEIR `corpus.jsonl(.gz)` (`{"_id", "title", "text", "metadata"}`; `id`/`contents` also accepted) as documents.
 * @throws CorruptDataError naming file and line for invalid JSON, a missing id, or a gzip that ends early.
 */
export async function* streamBeirCorpus(path: string, options: BeirReadOptions = {}): AsyncGenerator<Document> {
  for await (const { line, value } of readJsonLines(path, options)) yield toDocument(value, `${path}:${line}`);
}

/** Reads a whole BEIR corpus into memory. */
export async function loadBeirCorpus(path: string, options: BeirReadOptions = {}): Promise<Document[]> {
  const documents: Document[] = [];
  for await (const document of streamBeirCorpus(path, options)) documents.push(document);
  return documents;
}

/** Reads BEIR `queries.jsonl(.gz)` (`{"_id", "text"}`). */
export async function loadBeirQueries(path: string, options: BeirReadOptions = {}): Promise<Query[]> {
  const queries: Query[] = [];
  for await (const { line, value } of readJsonLines(path, options)) {
    const record = value as Record<string, unknown> | null;
    const id = record?._id ?? record?.id;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof record?.text !== 'string') throw new CorruptDataError({ source: `${path}:${line}`, message: 'is not a BEIR query ({"_id", "text"})' });
    queries.push({ id: String(id), text: record.text });
  }
  return queries;
}

/**
 * Parses BEIR qrels TSV (`query-id<TAB>corpus-id<TAB>score`, optional header line).
 * @throws CorruptDataError naming the line for a wrong column count or a non-integer score.
 */
export function parseBeirQrels(text: string, options: { source?: string } = {}): Qrels {
  const { source = 'qrels' } = options;
  const qrels: Record<string, Record<string, number>> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line.length === 0) return;
    const columns = line.split('\t');
    if (index === 0 && columns[0] === 'query-id') return;
    if (columns.length !== 3) throw new CorruptDataError({ source: `${source}:${index + 1}`, message: `has ${columns.length} columns; expected query-id, corpus-id, score` });
    const [queryId, documentId, scoreText] = columns as [string, string, string];
    const score = Number(scoreText);
    if (!/^[+-]?\d+$/.test(scoreText.trim()) || !Number.isSafeInteger(score)) throw new CorruptDataError({ source: `${source}:${index + 1}`, message: `score "${scoreText}" is not an integer` });
    (qrels[queryId] ??= {})[documentId] = score;
  });
  return qrels;
}

/** Reads a BEIR qrels file (plain or gzip). */
export async function loadBeirQrels(path: string): Promise<Qrels> {
  return parseBeirQrels(await readTextFile(path), { source: path });
}

export interface BeirDataset {
  /** Path of the corpus file (stream it with {@link streamBeirCorpus}; it is not loaded here). */
  readonly corpusPath: string;
  /** Queries that have judgements in the split, in qrels order. */
  readonly queries: Query[];
  readonly qrels: Qrels;
  /** Judged queries without text (skipped) and other non-fatal problems. */
  readonly problems: RetrievalProblem[];
}

async function firstExisting(folder: string, names: readonly string[]): Promise<string> {
  for (const name of names) {
    const path = join(folder, name);
    try {
      await access(path);
      return path;
    } catch {
      // try the next name
    }
  }
  throw new InvalidArgumentError({ where: 'loadBeirDataset', argument: 'folder', message: `has none of ${names.join(', ')} (${folder})` });
}

/**
 * Opens a BEIR folder (`corpus.jsonl[.gz]`, `queries.jsonl[.gz]`, `qrels/<split>.tsv`).
 * @throws InvalidArgumentError when a file is missing; CorruptDataError when one is malformed.
 */
export async function loadBeirDataset(folder: string, options: BeirReadOptions & { split?: string } = {}): Promise<BeirDataset> {
  const { split = 'test' } = options;
  const corpusPath = await firstExisting(folder, ['corpus.jsonl', 'corpus.jsonl.gz']);
  const queriesPath = await firstExisting(folder, ['queries.jsonl', 'queries.jsonl.gz']);
  const qrelsPath = await firstExisting(join(folder, 'qrels'), [`${split}.tsv`, `${split}.tsv.gz`]);
  const qrels = await loadBeirQrels(qrelsPath);
  const allQueries = new Map((await loadBeirQueries(queriesPath, options)).map((query) => [query.id as string, query]));
  const problems: RetrievalProblem[] = [];
  const queries: Query[] = [];
  for (const queryId of Object.keys(qrels)) {
    const query = allQueries.get(queryId);
    if (query) queries.push(query);
    else problems.push({ id: queryId, code: 'unknown-query', message: `qrels query "${queryId}" has no text in ${queriesPath}; skipped` });
  }
  return { corpusPath, queries, qrels, problems };
}

/**
 * Qrels entries naming documents the corpus does not contain, as problems. trec_eval still counts them as
 * relevant (so recall can never reach 1 for that query); `factkit eval` (@factkit/cli) prints them as warnings.
 */
export function findUnknownQrelsDocuments(qrels: Qrels, hasDocument: (id: string) => boolean): RetrievalProblem[] {
  const problems: RetrievalProblem[] = [];
  for (const [queryId, judgements] of Object.entries(qrels)) {
    for (const documentId of Object.keys(judgements)) {
      if (!hasDocument(documentId)) problems.push({ id: queryId, code: 'unknown-document', message: `qrels of query "${queryId}" name document "${documentId}", which is not in the corpus` });
    }
  }
  return problems;
}
