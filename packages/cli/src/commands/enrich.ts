import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PASSAGE_LAYOUTS, type AnnotatedChunk, annotateChunksWithModel, chunkDocuments, createOfflineAnnotator, createSentenceChunker, createTokenChunker } from '@factkit/chunk-knowledge';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { ENDPOINT_OPTIONS, createEndpointModel, resolveBaseUrl } from '../endpoint.js';
import { loadJsonlCorpus } from '../check/run-check.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { readInputFile } from '../read-input-file.js';
import { type LayoutAccuracy, type LayoutQuery, buildEnrichReport, measureLayoutAccuracy } from '../report/enrich-report.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../run-cli.js';

/** --queries lines: {"query", "documentId"} (also "question", "_id"/"id" of the document as "documentId"). */
function parseLayoutQueries(text: string, path: string): LayoutQuery[] {
  const queries: LayoutQuery[] = [];
  text.split('\n').forEach((line, position) => {
    if (line.trim() === '') return;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new CorruptDataError({ source: `${path}:${position + 1}`, message: 'is not valid JSON' });
    }
    const query = row['query'] ?? row['question'];
    const documentId = row['documentId'];
    if (typeof query !== 'string' || query.trim() === '' || (typeof documentId !== 'string' && typeof documentId !== 'number')) throw new CorruptDataError({ source: `${path}:${position + 1}`, message: 'needs "query" and "documentId"' });
    queries.push({ query, documentId: String(documentId) });
  });
  return queries;
}

export const ENRICH_USAGE = `usage: factkit enrich --input docs.jsonl --out chunks.jsonl [--chunker sentence|token] [--max-tokens 128] [--questions 3] [--json]
                      [--queries queries.jsonl [--md report.md] [--svg chart.svg] [--html report.html]]
                      [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  Chunk knowledge (@factkit/chunk-knowledge): splits each document into chunks and gives every chunk a title and
  candidate questions. Offline: the lead-sentence + RAKE annotator (a baseline); with an endpoint: the paper's
  one-call-per-chunk model annotation (cached). --input lines: {"_id"|"id", "text", "title"?}. Writes one JSON line per
  chunk: {id, documentId, start, end, text, title, questions, method, problems}. With --queries ({"query", "documentId"}
  lines: a question and the document that answers it) the report gives Top@1/3/5/10 per passage layout (Cases 1-7 of
  the paper; BM25 over the rendered passages) as Markdown (--md), an SVG chart (--svg) and an HTML page (--html).`;

/** `factkit enrich`: chunks and annotates documents. Returns the exit code. */
export async function runEnrichCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: args.filter((argument) => argument !== '--'),
    options: {
      input: { type: 'string' },
      out: { type: 'string' },
      chunker: { type: 'string', default: 'sentence' },
      'max-tokens': { type: 'string', default: '128' },
      questions: { type: 'string', default: '3' },
      queries: { type: 'string' },
      md: { type: 'string' },
      svg: { type: 'string' },
      html: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...ENDPOINT_OPTIONS,
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(`${ENRICH_USAGE}\n`);
    return EXIT_CODES.ok;
  }
  if (!values.input || !values.out) {
    io.stderr(`factkit enrich: give --input and --out\n${ENRICH_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const integer = (name: string, text: string, minimum: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) throw new InvalidArgumentError({ where: 'factkit enrich', argument: `--${name}`, message: `must be an integer >= ${minimum} (got "${text}")` });
    return value;
  };
  const maxTokens = integer('max-tokens', values['max-tokens'], 1);
  const questionCount = integer('questions', values.questions, 0);
  if (values.chunker !== 'sentence' && values.chunker !== 'token') throw new InvalidArgumentError({ where: 'factkit enrich', argument: '--chunker', message: `must be sentence or token (got "${values.chunker}")` });
  const wantsReport = Boolean(values.md || values.svg || values.html);
  if (wantsReport && !values.queries) throw new InvalidArgumentError({ where: 'factkit enrich', argument: '--queries', message: 'is needed for a report (--md/--svg/--html): Top@k needs queries with the document that answers them' });
  const queries = values.queries ? parseLayoutQueries(await readInputFile(values.queries, { command: 'enrich', flag: '--queries' }), values.queries) : [];
  const { documents, problems: readProblems } = await loadJsonlCorpus(values.input);
  const chunker = values.chunker === 'token' ? createTokenChunker({ maxTokens }) : createSentenceChunker({ maxTokens });
  const { chunks, problems: chunkProblems } = chunkDocuments(documents, { chunker, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
  const env = io.env ?? {};
  const baseURL = resolveBaseUrl(values, env);
  const progress = createProgress(io, 'enrich');
  let annotated: AnnotatedChunk[];
  let failed: { chunkId: string; reason: string }[] = [];
  let method: string;
  if (baseURL) {
    const model = createEndpointModel('enrich', baseURL, values, env);
    progress.update(0, chunks.length);
    const result = await annotateChunksWithModel(chunks, { model, questionCount, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
    annotated = result.outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    failed = result.outcomes.flatMap((outcome, index) => (outcome.status === 'failed' ? [{ chunkId: chunks[index]!.id, reason: outcome.problems[0]?.message ?? 'no usable reply' }] : []));
    method = `model ${values.model ?? env['FACTKIT_MODEL']}`;
  } else {
    const annotator = createOfflineAnnotator({ questionCount });
    annotated = chunks.map((chunk, k) => {
      if (k % 500 === 0) progress.update(k, chunks.length);
      return annotator.annotate(chunk);
    });
    method = annotator.id;
  }
  progress.end();
  const lines = annotated.map((item) => JSON.stringify({ id: item.chunk.id, documentId: item.chunk.documentId, start: item.chunk.start, end: item.chunk.end, text: item.chunk.text, title: item.title, questions: item.questions, method: item.method, problems: item.problems }));
  await mkdir(dirname(resolve(values.out)), { recursive: true });
  await writeFile(values.out, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  const problems = [...readProblems, ...chunkProblems];
  let accuracy: LayoutAccuracy[] | undefined;
  let queriesLeftOut = 0;
  if (queries.length > 0) {
    const known = new Set(documents.map((document) => document.id));
    for (const query of queries) if (!known.has(query.documentId)) io.stderr(`warning: query "${query.query.slice(0, 60)}" names unknown document "${query.documentId}" (counted as a miss)\n`);
    // A chunk whose model call failed has no title or questions: a query on its document would be scored against a
    // passage the model never wrote. Those queries are left out of every Top@k (and counted), never scored as misses.
    const documentOfChunk = new Map(chunks.map((chunk) => [chunk.id, chunk.documentId]));
    const failedDocuments = new Set(failed.map((failure) => documentOfChunk.get(failure.chunkId)));
    const scoredQueries = queries.filter((query) => !failedDocuments.has(query.documentId));
    queriesLeftOut = queries.length - scoredQueries.length;
    accuracy = await measureLayoutAccuracy(annotated, scoredQueries, PASSAGE_LAYOUTS, (passages) => createBm25Retriever(passages), io.abortSignal);
    await writeStudyReportFiles(
      { markdown: values.md, svg: values.svg, html: values.html },
      buildEnrichReport({ input: values.input, method, retrieverName: 'BM25 (Lucene defaults k1=0.9, b=0.4)', chunks: annotated, queries: scoredQueries, accuracy, failedChunks: failed.length, queriesLeftOut }),
    );
  }
  for (const problem of problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  for (const failure of failed.slice(0, 20)) io.stderr(`warning: chunk ${failure.chunkId} not annotated: ${failure.reason}\n`);
  const summary = {
    documents: documents.length,
    chunks: chunks.length,
    annotated: annotated.length,
    failed: failed.length,
    problems: problems.length,
    ...(queries.length > 0 ? { queriesLeftOut } : {}),
    method,
    out: values.out,
    ...(accuracy ? { topK: Object.fromEntries(accuracy.map((row) => [row.layout.name, row.topK])) } : {}),
  };
  io.stdout(values.json ? `${JSON.stringify(summary)}\n` : `${summary.documents} documents → ${summary.chunks} chunks; ${summary.annotated} annotated (${method}), ${summary.failed} failed → ${values.out}\n`);
  return failed.length > 0 || readProblems.length > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}
