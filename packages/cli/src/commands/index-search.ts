import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@factkit/core';
import { type Bm25Index, createBm25Index, createBm25Retriever } from '@factkit/retrieval';
import { buildBm25IndexFromJsonl, loadBm25Index, saveBm25Index } from '@factkit/retrieval/node';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import type { CliIo } from '../run-cli.js';

export const INDEX_USAGE = `usage: factkit index (--jsonl corpus.jsonl[.gz] | --beir <folder> | --folder <dir>) --out index.bm25 [--k1 0.9] [--b 0.4] [--json]
  Builds a BM25 index (Lucene/Anserini-compatible, @factkit/retrieval) and saves it with saveBm25Index.
  --jsonl/--beir: {"_id"|"id", "title"?, "text"|"contents"} lines; --folder: every .txt/.md file below it (id = relative path).
  Dense and hybrid indexes are not available: @factkit/retrieval has no save function for them yet.`;

export const SEARCH_USAGE = `usage: factkit search --index index.bm25 --query <text> [--top-k 10] [--json]
  Searches a saved BM25 index (from factkit index) and prints the ranked documents.`;

function numberFlag(command: string, name: string, text: string, integer = false): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || (integer && (!Number.isInteger(value) || value < 1))) {
    throw new InvalidArgumentError({ where: `factkit ${command}`, argument: `--${name}`, message: `must be ${integer ? 'a positive integer' : 'a number'} (got "${text}")` });
  }
  return value;
}

async function listTextFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && ['.txt', '.md'].includes(extname(entry.name).toLowerCase())) out.push(path);
    }
  };
  await walk(root);
  return out;
}

/** `factkit index`: builds and saves a BM25 index. Returns the exit code. */
export async function runIndexCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: args.filter((argument) => argument !== '--'),
    options: {
      jsonl: { type: 'string' },
      beir: { type: 'string' },
      folder: { type: 'string' },
      out: { type: 'string' },
      k1: { type: 'string', default: '0.9' },
      b: { type: 'string', default: '0.4' },
      kind: { type: 'string', default: 'bm25' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(`${INDEX_USAGE}\n`);
    return EXIT_CODES.ok;
  }
  const sources = [values.jsonl, values.beir, values.folder].filter((value) => value !== undefined);
  if (sources.length !== 1 || !values.out) {
    io.stderr(`factkit index: give exactly one of --jsonl, --beir, --folder, and --out\n${INDEX_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  if (values.kind !== 'bm25') throw new InvalidArgumentError({ where: 'factkit index', argument: '--kind', message: `only "bm25" can be saved (got "${values.kind}"): @factkit/retrieval has no save function for dense or hybrid indexes` });
  const parameters = { k1: numberFlag('index', 'k1', values.k1), b: numberFlag('index', 'b', values.b) };
  const progress = createProgress(io, 'index');
  const started = Date.now();
  let index: Bm25Index;
  let problems: { message: string }[] = [];
  const signal = io.abortSignal ? { abortSignal: io.abortSignal } : {};
  if (values.folder) {
    const root = values.folder;
    if (!(await stat(root).catch(() => undefined))?.isDirectory()) throw new InvalidArgumentError({ where: 'factkit index', argument: '--folder', message: `is not a folder: "${root}"` });
    const files = await listTextFiles(root);
    index = createBm25Index(parameters);
    for (const [position, file] of files.entries()) {
      io.abortSignal?.throwIfAborted();
      const result = index.addDocument({ id: relative(root, file), text: await readFile(file, 'utf8'), metadata: { source: file } });
      problems.push(...result.problems);
      if (position % 100 === 0) progress.update(position + 1, files.length);
    }
  } else {
    const path = values.jsonl ?? join(values.beir!, 'corpus.jsonl');
    const corpus = values.beir && !(await stat(path).catch(() => undefined)) ? `${path}.gz` : path;
    const built = await buildBm25IndexFromJsonl(corpus, { ...parameters, ...signal, progressEvery: 1000, onProgress: ({ documents }) => progress.update(documents) });
    index = built.index;
    problems = built.problems;
  }
  progress.end();
  await saveBm25Index(index, values.out);
  const { size } = await stat(values.out);
  for (const problem of problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  const summary = { out: values.out, documents: index.documentCount, bytes: size, seconds: (Date.now() - started) / 1000, problems: problems.length };
  io.stdout(values.json ? `${JSON.stringify(summary)}\n` : `indexed ${summary.documents} documents (BM25 k1=${parameters.k1} b=${parameters.b}) into ${values.out} (${size} bytes) in ${summary.seconds.toFixed(1)} s\n`);
  return problems.length > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}

/** `factkit search`: ranked documents of a saved BM25 index for one query. Returns the exit code. */
export async function runSearchCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: args.filter((argument) => argument !== '--'),
    options: {
      index: { type: 'string' },
      query: { type: 'string' },
      'top-k': { type: 'string', default: '10' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(`${SEARCH_USAGE}\n`);
    return EXIT_CODES.ok;
  }
  if (!values.index || values.query === undefined) {
    io.stderr(`factkit search: give --index and --query\n${SEARCH_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const index = await loadBm25Index(values.index);
  const result = await createBm25Retriever(index).retrieve({ query: { text: values.query }, topK: numberFlag('search', 'top-k', values['top-k'], true), ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
  const hits = result.evidence.map((hit, position) => ({ rank: hit.rank ?? position + 1, id: hit.documentId, score: hit.score, ...(hit.title ? { title: hit.title } : {}), text: hit.text }));
  if (values.json) io.stdout(`${JSON.stringify({ query: values.query, hits, problems: result.problems ?? [] }, null, 2)}\n`);
  else {
    for (const hit of hits) io.stdout(`${String(hit.rank).padStart(3)}  ${hit.score.toFixed(4)}  ${hit.id}  ${(hit.title ? `${hit.title}: ` : '') + hit.text.replace(/\s+/g, ' ').slice(0, 120)}\n`);
    if (hits.length === 0) io.stdout('no hits\n');
  }
  for (const problem of result.problems ?? []) io.stderr(`warning: ${problem.message}\n`);
  return EXIT_CODES.ok;
}
