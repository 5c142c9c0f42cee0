import { readdir, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CorruptDataError, type Document, type Embedder, InvalidArgumentError, type ItemProblem, type Query, type RetrieveResult } from '@factkit/core';
import { formatTrecRun } from '@factkit/metrics';
import {
  type Analyzer,
  type Bm25Index,
  type DenseIndexSnapshot,
  type FusionMethod,
  type FusionOptions,
  buildDenseIndex,
  createBm25Index,
  createChineseAnalyzer,
  createEnglishAnalyzer,
  createRm3Expander,
  fuseScores,
} from '@factkit/retrieval';
import { buildBm25IndexFromJsonl, saveBm25Index, saveDenseIndex, saveHybridIndex, streamBeirCorpus } from '@factkit/retrieval/node';
import { INDEX_KINDS, type IndexKind, openSavedIndex, searchTopics } from '../batch-search.js';
import { EMBEDDER_SPECS, createCliEmbedder, splitOversizedDocuments } from '../embedders.js';
import { ENDPOINT_OPTIONS, resolveEndpoint } from '../endpoint.js';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import type { CliIo } from '../cli-io.js';
import { type CommandValues, defineCommand, integerFlag, numberFlag as commandNumberFlag } from '../command.js';
import { assertOutputsAreNotInputs, beirFiles, readJsonlCorpus, readTextInput, reportDroppedLines } from '../read-input.js';
import { RERANK_OPTIONS, RERANK_USAGE, withCliReranker } from '../rerank.js';
import { readTopicsFile } from '../topics.js';

export const INDEX_USAGE = `usage: factkit index (--jsonl corpus.jsonl[.gz] | --beir <folder> | --folder <dir>) --out <path> [--kind bm25|dense|hybrid]
                     [--k1 0.9] [--b 0.4] [--analyzer english|chinese] [--embedder ${EMBEDDER_SPECS.replaceAll(' ', '')}] [--dimensions N] [--batch-size 32]
                     [--fusion rrf|min-max|z-score|comb-sum|comb-mnz] [--rrf-k 60] [--candidate-depth 100] [--json]
                     [--base-url URL [--api-key KEY]]
  Builds an index (@factkit/retrieval) and saves it. --kind bm25 (default): a Lucene/Anserini-compatible BM25 index file
  (saveBm25Index). --kind dense: every document embedded (offline default USE-lite, 512-d; glove = averaged GloVe 100-d,
  needs @factkit/glove installed; transformers:<dir> = a local transformers.js feature-extraction model folder, e.g.
  one \`factkit models --dir\` verified; endpoint:<model> = an OpenAI-compatible /embeddings endpoint, give --dimensions) into a
  checksummed flat index file (saveDenseIndex). --kind hybrid: a folder with both and a manifest of the fusion settings
  (saveHybridIndex). --jsonl/--beir: {"_id"|"id", "title"?, "text"|"contents"} lines; --folder: every .txt/.md file
  below it (id = relative path). --analyzer (BM25 and hybrid): english = Lucene's EnglishAnalyzer as Anserini runs it
  (default), chinese = Lucene's CJKAnalyzer (CJK bigrams); the index records it, so search analyses queries the same
  way. Embedding shows progress with ETA on a terminal.`;

export const SEARCH_USAGE = `usage: factkit search --index <path> (--query <text> | --topics <queries.jsonl|tsv> --run <out.trec> [--tag T])
                      [--top-k 10 | 1000 with --topics] [--rm3 [--fb-docs 10] [--fb-terms 10] [--original-query-weight 0.5]]
                      [--threads N] [--json] [--base-url URL [--api-key KEY]] [--rerank llm|cross-encoder:<dir> [--rerank-depth 100]]
  Searches an index saved by factkit index. The kind (BM25 file, dense file or hybrid folder) is read from the index
  itself; dense and hybrid queries are embedded by the embedder the index was built with (endpoint embedders need
  --base-url or OPENAI_BASE_URL). --query prints the ranked documents of one query. --topics runs every query of a
  topics file (JSONL {"_id"|"id"|"qid", "text"|"query"} as BEIR's queries.jsonl, or TSV qid<TAB>text as Pyserini's
  topic files) and writes a TREC run (qid Q0 docno rank score tag) for factkit eval --runs, like Pyserini's batch
  search: a BM25 index is searched on a worker pool (--threads, default: the machine's cores), with progress on a
  terminal; --tag names the run (default factkit-<kind>[-rm3]). --rm3 expands each query with RM3 (BM25 indexes;
  Anserini's defaults). A query that fails is named and left out (exit 3).
  ${RERANK_USAGE} (with --query).`;

/**
 * The analyzers `factkit index --analyzer` offers: retrieval's two built-in analyzers, the ones a saved index can name
 * and be reopened with (`loadBm25Index` recreates them from the id it stores).
 */
export const ANALYZERS: Readonly<Record<string, () => Analyzer>> = {
  english: () => createEnglishAnalyzer(),
  chinese: () => createChineseAnalyzer(),
};

function numberFlag(command: string, name: string, text: string, integer = false): number {
  return integer ? integerFlag(command, name, text) : commandNumberFlag(command, name, text);
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

/**
 * Reads the corpus named by --jsonl / --beir / --folder into memory with the CLI's input policy: --jsonl through the
 * one JSONL reader (malformed and repeated-id lines dropped and named, BOM stripped, binary refused), --folder files
 * as text (a binary file is refused), --beir streamed strictly (a BEIR dataset is corrupt, not partly readable).
 * @throws InvalidArgumentError (exit 2) when nothing readable remains.
 */
async function readCorpus(values: { jsonl?: string | undefined; beir?: string | undefined; folder?: string | undefined }, io: CliIo): Promise<{ documents: Document[]; problems: ItemProblem[] }> {
  if (values.jsonl) {
    const { items, problems } = await readJsonlCorpus(values.jsonl, { command: 'index', flag: '--jsonl' });
    return { documents: items, problems };
  }
  const documents: Document[] = [];
  if (values.folder) {
    const root = values.folder;
    if (!(await stat(root).catch(() => undefined))?.isDirectory()) throw new InvalidArgumentError({ where: 'factkit index', argument: '--folder', message: `is not a folder: "${root}"` });
    for (const file of await listTextFiles(root)) {
      io.abortSignal?.throwIfAborted();
      documents.push({ id: relative(root, file), text: await readTextInput(file, { command: 'index', flag: '--folder' }), source: { name: root, url: pathToFileURL(file).href } });
    }
  } else {
    const path = join(values.beir!, 'corpus.jsonl');
    const corpus = !(await stat(path).catch(() => undefined)) ? `${path}.gz` : path;
    const seen = new Set<string>();
    for await (const document of streamBeirCorpus(corpus, io.abortSignal ? { abortSignal: io.abortSignal } : {})) {
      if (seen.has(document.id)) throw new CorruptDataError({ source: corpus, message: `has duplicate document id "${document.id}"` });
      seen.add(document.id);
      documents.push(document);
    }
  }
  const source = values.folder ? { flag: '--folder', what: `no .txt or .md file below "${values.folder}"` } : { flag: '--beir', what: `corpus of "${values.beir}" has no document` };
  if (documents.length === 0) throw new InvalidArgumentError({ where: 'factkit index', argument: source.flag, message: source.what });
  return { documents, problems: [] };
}

/**
 * Embeds `documents` with retrieval's `buildDenseIndex` (batching, per-document problems), showing progress; a
 * document too long for the embedder is left out as a problem (`text-too-long`).
 */
async function embedCorpus(all: readonly Document[], embedder: Embedder & { maxTextLength?: number }, batchSize: number, io: CliIo): Promise<{ snapshot: DenseIndexSnapshot; problems: ItemProblem[] }> {
  const { documents, positions, problems } = splitOversizedDocuments(all, embedder);
  const progress = createProgress(io, `embedding (${embedder.id})`);
  progress.update(0, documents.length);
  // Each batch first yields to the event loop: an offline embedder computes without awaiting I/O, so without this
  // the whole corpus would embed in one run of microtasks and Ctrl-C (the SIGINT handler) would only be seen at the
  // end. With it the job stops at the next batch boundary and nothing is written.
  const yielding: Embedder = {
    ...embedder,
    async embed(request) {
      await new Promise((resolve) => setImmediate(resolve));
      request.abortSignal?.throwIfAborted();
      return embedder.embed(request);
    },
  };
  const built = await buildDenseIndex(documents, {
    embedder: yielding,
    batchSize,
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: ({ completed, total }) => progress.update(completed, total),
  });
  progress.end();
  const embedProblems = built.problems.map((problem) => (problem.index === undefined ? problem : { ...problem, index: positions[problem.index] as number }));
  return { snapshot: built.snapshot, problems: [...problems, ...embedProblems].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) };
}

function buildBm25(documents: readonly Document[], parameters: { k1: number; b: number; analyzer: Analyzer }, io: CliIo): { index: Bm25Index; problems: ItemProblem[] } {
  const index = createBm25Index(parameters);
  const problems: ItemProblem[] = [];
  const progress = createProgress(io, 'bm25');
  documents.forEach((document, position) => {
    io.abortSignal?.throwIfAborted();
    for (const problem of index.addDocument(document).problems) problems.push({ ...problem, index: position });
    if (position % 1000 === 0) progress.update(position + 1, documents.length);
  });
  progress.end();
  return { index, problems };
}

const INDEX_OPTIONS = {
  jsonl: { type: 'string' },
  beir: { type: 'string' },
  folder: { type: 'string' },
  out: { type: 'string' },
  k1: { type: 'string' },
  b: { type: 'string' },
  analyzer: { type: 'string' },
  kind: { type: 'string' },
  embedder: { type: 'string' },
  dimensions: { type: 'string' },
  'batch-size': { type: 'string' },
  fusion: { type: 'string' },
  'rrf-k': { type: 'string' },
  'candidate-depth': { type: 'string' },
  json: { type: 'boolean', default: false },
  ...ENDPOINT_OPTIONS,
} as const;

/** `factkit index`: builds and saves a BM25, dense or hybrid index. Returns the exit code. */
async function runIndex(values: CommandValues<typeof INDEX_OPTIONS>, io: CliIo): Promise<number> {
  const option = (name: string, fallback: string): string => ((values as Record<string, unknown>)[name] as string | undefined) ?? fallback;
  const out = values.out;
  const sources = [values.jsonl, values.beir, values.folder].filter((value) => value !== undefined);
  if (sources.length !== 1 || !out) {
    io.stderr(`factkit index: give exactly one of --jsonl, --beir, --folder, and --out\n${INDEX_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  await assertOutputsAreNotInputs(
    'index',
    [{ flag: '--out', path: out }],
    [{ flag: '--jsonl', path: values.jsonl }, { flag: '--folder', path: values.folder }, { flag: '--beir', path: values.beir }, ...(values.beir ? beirFiles(values.beir, 'test') : [])],
  );
  if (values.beir !== undefined && !(await stat(values.beir).catch(() => undefined))?.isDirectory()) throw new InvalidArgumentError({ where: 'factkit index', argument: '--beir', message: `is not a folder: "${values.beir}"` });
  const kind = option('kind', 'bm25');
  if (!INDEX_KINDS.includes(kind as IndexKind)) throw new InvalidArgumentError({ where: 'factkit index', argument: '--kind', message: `must be one of ${INDEX_KINDS.join(', ')} (got "${kind}")` });
  // Refused before any work: saving over a directory would fail only after indexing (issue 21 §11).
  if (kind !== 'hybrid' && (await stat(out).catch(() => undefined))?.isDirectory()) throw new InvalidArgumentError({ where: 'factkit index', argument: '--out', message: `is a directory ("${out}"); --kind ${kind} writes one file` });
  const analyzerName = option('analyzer', 'english');
  const makeAnalyzer = Object.hasOwn(ANALYZERS, analyzerName) ? ANALYZERS[analyzerName] : undefined;
  if (!makeAnalyzer) throw new InvalidArgumentError({ where: 'factkit index', argument: '--analyzer', message: `must be one of ${Object.keys(ANALYZERS).join(', ')} (got "${analyzerName}")` });
  if (values.analyzer !== undefined && kind === 'dense') throw new InvalidArgumentError({ where: 'factkit index', argument: '--analyzer', message: 'applies to bm25 and hybrid indexes (a dense index is embedded, not analysed)' });
  const parameters = { k1: numberFlag('index', 'k1', option('k1', '0.9')), b: numberFlag('index', 'b', option('b', '0.4')), analyzer: makeAnalyzer() };
  const started = Date.now();
  const signal = io.abortSignal ? { abortSignal: io.abortSignal } : {};
  let problems: ItemProblem[] = [];
  let documentCount: number;
  let detail: string;
  if (kind === 'bm25') {
    const progress = createProgress(io, 'index');
    let index: Bm25Index;
    if (values.beir) {
      // A BEIR corpus is streamed (memory bounded by the index, not the texts).
      const path = join(values.beir, 'corpus.jsonl');
      const corpus = !(await stat(path).catch(() => undefined)) ? `${path}.gz` : path;
      const built = await buildBm25IndexFromJsonl(corpus, { ...parameters, ...signal, progressEvery: 1000, onProgress: ({ completed }) => progress.update(completed) });
      index = built.index;
      problems = built.problems;
      if (index.documentCount === 0) throw new InvalidArgumentError({ where: 'factkit index', argument: '--beir', message: `corpus of "${values.beir}" has no document` });
    } else {
      const corpus = await readCorpus(values, io);
      ({ index, problems } = buildBm25(corpus.documents, parameters, io));
      problems = [...corpus.problems, ...problems];
    }
    progress.end();
    await saveBm25Index(index, out);
    documentCount = index.documentCount;
    detail = `BM25 k1=${parameters.k1} b=${parameters.b}, ${parameters.analyzer.id}`;
  } else {
    const env = io.env ?? {};
    const spec = option('embedder', 'use-lite');
    const dimensionsText = values.dimensions;
    const batchSize = numberFlag('index', 'batch-size', option('batch-size', '32'), true);
    const embedder = await createCliEmbedder(spec, {
      where: 'factkit index',
      notice: (line) => io.stderr(`${line}\n`),
      endpoint: resolveEndpoint('index', values, env),
      ...(dimensionsText === undefined ? {} : { dimensions: numberFlag('index', 'dimensions', dimensionsText, true) }),
    });
    const fusion: FusionOptions = { method: option('fusion', 'rrf') as FusionMethod, k: numberFlag('index', 'rrf-k', option('rrf-k', '60')) };
    const candidateDepth = numberFlag('index', 'candidate-depth', option('candidate-depth', '100'), true);
    if (kind === 'hybrid') {
      try {
        fuseScores([[], []], fusion);
      } catch (cause) {
        throw new InvalidArgumentError({ where: 'factkit index', argument: '--fusion', message: `is invalid: ${(cause as Error).message}`, cause });
      }
    }
    const corpus = await readCorpus(values, io);
    try {
      const { snapshot, problems: embedProblems } = await embedCorpus(corpus.documents, embedder, batchSize, io);
      problems = [...corpus.problems, ...embedProblems];
      if (kind === 'dense') await saveDenseIndex(snapshot, out);
      else {
        const bm25 = buildBm25(corpus.documents, parameters, io);
        problems.push(...bm25.problems);
        await saveHybridIndex(out, { bm25: bm25.index, dense: snapshot, fusion, candidateDepth });
      }
      documentCount = snapshot.ids.length;
      detail = kind === 'dense' ? `dense ${embedder.id}, ${embedder.dimensions}-d` : `hybrid BM25 + dense ${embedder.id} (${embedder.dimensions}-d), fusion ${fusion.method}`;
    } finally {
      embedder.dispose?.();
    }
  }
  const size = kind === 'hybrid' ? await folderSize(out) : (await stat(out)).size;
  reportDroppedLines(io, problems);
  const summary = { out, kind, documents: documentCount, bytes: size, seconds: (Date.now() - started) / 1000, problems: problems.length };
  io.stdout(values.json ? `${JSON.stringify(summary)}\n` : `indexed ${summary.documents} documents (${detail}) into ${out} (${size} bytes) in ${summary.seconds.toFixed(1)} s\n`);
  return problems.length > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}

async function folderSize(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) if (entry.isFile()) total += (await stat(join(folder, entry.name))).size;
  return total;
}

const SEARCH_OPTIONS = {
  index: { type: 'string' },
  query: { type: 'string' },
  topics: { type: 'string' },
  run: { type: 'string' },
  tag: { type: 'string' },
  'top-k': { type: 'string' },
  threads: { type: 'string' },
  rm3: { type: 'boolean', default: false },
  'fb-docs': { type: 'string', default: '10' },
  'fb-terms': { type: 'string', default: '10' },
  'original-query-weight': { type: 'string', default: '0.5' },
  json: { type: 'boolean', default: false },
  ...RERANK_OPTIONS,
  ...ENDPOINT_OPTIONS,
} as const;

/** `factkit search`: ranked documents of a saved BM25, dense or hybrid index for one query, or a TREC run for a topics file. */
async function runSearch(values: CommandValues<typeof SEARCH_OPTIONS>, io: CliIo): Promise<number> {
  const indexPath = values.index;
  const batch = values.topics !== undefined;
  if (!indexPath || (values.query === undefined) === !batch || (batch && !values.run)) {
    io.stderr(`factkit search: give --index and either --query or --topics with --run\n${SEARCH_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const topK = numberFlag('search', 'top-k', values['top-k'] ?? (batch ? '1000' : '10'), true);
  const threads = values.threads === undefined ? undefined : numberFlag('search', 'threads', values.threads, true);
  const rm3 = values.rm3
    ? {
        fbDocs: numberFlag('search', 'fb-docs', values['fb-docs'], true),
        fbTerms: numberFlag('search', 'fb-terms', values['fb-terms'], true),
        originalQueryWeight: numberFlag('search', 'original-query-weight', values['original-query-weight']),
      }
    : undefined;
  const tag = values.tag;
  if (tag !== undefined && (tag === '' || /\s/.test(tag))) throw new InvalidArgumentError({ where: 'factkit search', argument: '--tag', message: `must be one word without whitespace (got "${tag}")` });
  if (values.rerank !== undefined && !values.query) throw new InvalidArgumentError({ where: 'factkit search', argument: '--rerank', message: 'applies to --query (batch reranking of --topics is not supported yet)' });
  // Topics are read before the index is opened, so a bad topics file fails fast.
  const topics = batch ? await readTopicsFile(values.topics!, { command: 'search', flag: '--topics' }) : undefined;
  const index = await openSavedIndex(indexPath, { where: 'factkit search', endpoint: resolveEndpoint('search', values, io.env ?? {}), notice: (line) => io.stderr(`${line}\n`) });
  if (topics) {
    let searched: Awaited<ReturnType<typeof searchTopics>>;
    try {
      searched = await searchTopics(index, topics.queries, { topK, rm3, threads, where: 'factkit search', io });
    } finally {
      index.close();
    }
    const runTag = tag ?? `factkit-${index.kind}${rm3 ? '-rm3' : ''}`;
    await writeFile(values.run!, formatTrecRun(searched.run, { runId: runTag, maxRank: topK }));
    const dropped = reportDroppedLines(io, topics.problems);
    for (const problem of searched.problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
    if (searched.problems.length > 20) io.stderr(`warning: … and ${searched.problems.length - 20} more problems\n`);
    const summary = {
      index: indexPath,
      kind: index.kind,
      rm3: Boolean(rm3),
      topics: values.topics,
      queries: topics.queries.length,
      run: values.run,
      tag: runTag,
      topK,
      failed: searched.failed,
      problems: searched.problems.length,
      droppedLines: dropped,
    };
    io.stdout(values.json ? `${JSON.stringify(summary)}\n` : `searched ${summary.queries} queries (${index.kind}${rm3 ? ' + RM3' : ''}, top ${topK}) into ${values.run} [${runTag}]${searched.failed ? `; ${searched.failed} failed` : ''}\n`);
    return dropped > 0 || searched.failed > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
  }
  const retriever = await withCliReranker(index.retriever, values, { job: 'search', endpoint: resolveEndpoint('search', values, io.env ?? {}) });
  let result: RetrieveResult;
  try {
    if (rm3 && !index.bm25) throw new InvalidArgumentError({ where: 'factkit search', argument: '--rm3', message: `needs a BM25 index (this one is ${index.kind})` });
    const signal = io.abortSignal ? { abortSignal: io.abortSignal } : {};
    const query: Query = { id: 'query', text: values.query! };
    const searched = rm3 && index.bm25 ? await createRm3Expander({ index: index.bm25, ...rm3 }).expand({ query, ...signal }) : query;
    // A reranking stage, when there is one, takes `result.evidence` from here.
    result = await retriever.retrieve({ query: searched, topK, ...signal });
  } finally {
    index.close();
  }
  const hits = result.evidence.map((hit, position) => ({ rank: hit.rank ?? position + 1, id: hit.documentId, score: hit.score, ...(hit.origin.title ? { title: hit.origin.title } : {}), text: hit.text }));
  if (values.json) io.stdout(`${JSON.stringify({ query: values.query, kind: index.kind, retriever: retriever.id, hits, problems: result.problems ?? [] }, null, 2)}\n`);
  else {
    for (const hit of hits) io.stdout(`${String(hit.rank).padStart(3)}  ${hit.score.toFixed(4)}  ${hit.id}  ${(hit.title ? `${hit.title}: ` : '') + hit.text.replace(/\s+/g, ' ').slice(0, 120)}\n`);
    if (hits.length === 0) io.stdout('no hits\n');
  }
  for (const problem of result.problems ?? []) io.stderr(`warning: ${problem.message}\n`);
  // A reranking window whose model call refused or gave no usable order kept its first-stage order: the ranking is
  // not the one asked for, so the run is incomplete (exit 3), never a silent result.
  if (values.rerank !== undefined && (result.problems?.length ?? 0) > 0) {
    io.stderr('factkit search: incomplete: the reranker could not rank every window (see the warnings); those keep the first-stage order\n');
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}

export const indexCommand = defineCommand({
  name: 'index',
  summary: 'build and save a BM25, dense (USE-lite, GloVe, endpoint) or hybrid index from JSONL, BEIR or a text folder',
  usage: INDEX_USAGE,
  options: INDEX_OPTIONS,
  run: runIndex,
});

export const searchCommand = defineCommand({
  name: 'search',
  summary: 'search a saved BM25, dense or hybrid index',
  usage: SEARCH_USAGE,
  options: SEARCH_OPTIONS,
  run: runSearch,
});
