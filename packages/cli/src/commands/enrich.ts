import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type AnnotatedChunk, type LayoutStudyQuery, type LayoutStudyResult, annotateChunksWithModel, chunkDocuments, createOfflineAnnotator, createSentenceChunker, createTokenChunker, runLayoutStudy } from '@factkit/chunk-knowledge';
import { InvalidArgumentError } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { ENDPOINT_OPTIONS, connectLanguageModel, resolveEndpoint } from '../endpoint.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import { type JsonlInput, asRow, assertOutputsAreNotInputs, readJsonlCorpus, readJsonlInput, reportDroppedLines } from '../read-input.js';
import { buildEnrichReport } from '../report/enrich-report.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../cli-io.js';

/** --queries lines: {"query", "documentId"} (also "question" for "query"); a line without both is dropped and named. */
function readLayoutQueries(path: string): Promise<JsonlInput<LayoutStudyQuery>> {
  return readJsonlInput<LayoutStudyQuery>(
    path,
    { command: 'enrich', flag: '--queries' },
    {
      read: (value) => {
        const row = asRow(value);
        const query = row['query'] ?? row['question'];
        const documentId = row['documentId'];
        if (typeof query !== 'string' || query.trim() === '' || (typeof documentId !== 'string' && typeof documentId !== 'number')) return { reason: 'needs "query" and "documentId"' };
        return { value: { text: query, documentIds: [String(documentId)] } };
      },
    },
  );
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

const ENRICH_OPTIONS = {
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
} as const;

/** `factkit enrich`: chunks and annotates documents. Returns the exit code. */
async function runEnrich(values: CommandValues<typeof ENRICH_OPTIONS>, io: CliIo): Promise<number> {
  if (!values.input || !values.out) {
    io.stderr(`factkit enrich: give --input and --out\n${ENRICH_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const integer = (name: string, text: string, minimum: number) => integerFlag('enrich', name, text, minimum);
  const maxTokens = integer('max-tokens', values['max-tokens'], 1);
  const questionCount = integer('questions', values.questions, 0);
  if (values.chunker !== 'sentence' && values.chunker !== 'token') throw new InvalidArgumentError({ where: 'factkit enrich', argument: '--chunker', message: `must be sentence or token (got "${values.chunker}")` });
  const wantsReport = Boolean(values.md || values.svg || values.html);
  if (wantsReport && !values.queries) throw new InvalidArgumentError({ where: 'factkit enrich', argument: '--queries', message: 'is needed for a report (--md/--svg/--html): Top@k needs queries with the document that answers them' });
  await assertOutputsAreNotInputs(
    'enrich',
    (['out', 'md', 'svg', 'html'] as const).map((name) => ({ flag: `--${name}`, path: values[name] })),
    [
      { flag: '--input', path: values.input },
      { flag: '--queries', path: values.queries },
    ],
  );
  const queryInput = values.queries ? await readLayoutQueries(values.queries) : { items: [], problems: [] };
  const queries = queryInput.items;
  const corpusInput = await readJsonlCorpus(values.input, { command: 'enrich', flag: '--input' });
  const documents = corpusInput.items;
  const readProblems = [...corpusInput.problems, ...queryInput.problems];
  const chunker = values.chunker === 'token' ? createTokenChunker({ maxTokens }) : createSentenceChunker({ maxTokens });
  const { chunks, problems: chunkProblems } = chunkDocuments(documents, { chunker, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
  const endpoint = resolveEndpoint('enrich', values, io.env ?? {});
  const progress = createProgress(io, 'enrich');
  let annotated: AnnotatedChunk[];
  let failed: { chunkId: string; reason: string }[] = [];
  let method: string;
  if (endpoint) {
    const model = connectLanguageModel(endpoint, 'enrich');
    progress.update(0, chunks.length);
    const result = await annotateChunksWithModel(chunks, { model, questionCount, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
    annotated = result.outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    failed = result.outcomes.flatMap((outcome, index) => (outcome.status === 'failed' ? [{ chunkId: chunks[index]!.id, reason: outcome.problems[0]?.message ?? 'no usable reply' }] : []));
    method = `model ${endpoint.model}`;
  } else {
    const annotator = createOfflineAnnotator({ questionCount });
    annotated = chunks.map((chunk, k) => {
      if (k % 500 === 0) progress.update(k, chunks.length);
      return annotator.annotate(chunk);
    });
    method = annotator.id;
  }
  progress.end();
  const lines = annotated.map((item) =>
    JSON.stringify({ id: item.chunk.id, documentId: item.chunk.documentId, start: item.chunk.start, end: item.chunk.end, text: item.chunk.text, title: item.title, questions: item.questions, method: item.method, problems: item.problems }),
  );
  await mkdir(dirname(resolve(values.out)), { recursive: true });
  await writeFile(values.out, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  const problems = [...readProblems, ...chunkProblems];
  let study: LayoutStudyResult | undefined;
  let queriesLeftOut = 0;
  if (queries.length > 0) {
    const known = new Set(documents.map((document) => document.id));
    for (const query of queries) if (!known.has(query.documentIds[0]!)) io.stderr(`warning: query "${query.text.slice(0, 60)}" names unknown document "${query.documentIds[0]}" (counted as a miss)\n`);
    // A chunk whose model call failed has no title or questions: a query on its document would be scored against a
    // passage the model never wrote. Those queries are left out of every Top@k (and counted), never scored as misses.
    const documentOfChunk = new Map(chunks.map((chunk) => [chunk.id, chunk.documentId]));
    const failedDocuments = new Set(failed.map((failure) => documentOfChunk.get(failure.chunkId)));
    const scoredQueries = queries.filter((query) => !failedDocuments.has(query.documentIds[0]));
    queriesLeftOut = queries.length - scoredQueries.length;
    // Passages without E5's <s> markers (BM25 would index them as words).
    study = await runLayoutStudy({ items: annotated, queries: scoredQueries, render: { open: '', close: '' }, createRetriever: (passages) => createBm25Retriever(passages), ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
    await writeStudyReportFiles(
      { markdown: values.md, svg: values.svg, html: values.html },
      buildEnrichReport({ input: values.input, method, retrieverName: 'BM25 (Lucene defaults k1=0.9, b=0.4)', chunks: annotated, queries: scoredQueries, study, failedChunks: failed.length, queriesLeftOut }),
    );
  }
  reportDroppedLines(io, problems);
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
    ...(study ? { topK: Object.fromEntries(study.rows.map((row) => [row.name, row.topK ?? null])) } : {}),
  };
  io.stdout(values.json ? `${JSON.stringify(summary)}\n` : `${summary.documents} documents → ${summary.chunks} chunks; ${summary.annotated} annotated (${method}), ${summary.failed} failed → ${values.out}\n`);
  return failed.length > 0 || readProblems.length > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}

export const enrichCommand = defineCommand({
  name: 'enrich',
  summary: 'chunk documents and give each chunk a title and candidate questions (@factkit/chunk-knowledge)',
  usage: ENRICH_USAGE,
  options: ENRICH_OPTIONS,
  run: runEnrich,
});
