import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CorruptDataError, InvalidArgumentError } from '@factkit/core';
import { buildFastTrackIndex, createClassTfidfLabeller, createFastTrack, createLlmKeywordLabeller, createLlmSupportJudge, createNliSupportJudge, isSupporting, type TraceResult } from '@factkit/fasttrack';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createBm25Retriever } from '@factkit/retrieval';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { loadJsonlCorpus } from '../check/run-check.js';
import { ENDPOINT_OPTIONS, createEndpointModel, resolveBaseUrl } from '../endpoint.js';
import { EXIT_CODES } from '../exit-codes.js';
import { readInputFile } from '../read-input-file.js';
import { createProgress } from '../progress.js';
import { type TraceMethodRun, bestTopKRun, buildTraceReport } from '../report/trace-report.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../run-cli.js';

/** Statements of --queries: plain lines, or JSON lines {"query"|"statement"|"text", "supporting"?: ids} (gold ids go to `gold`). */
function parseStatements(text: string, path: string, gold: Map<string, string[]>): string[] {
  const statements: string[] = [];
  text.split('\n').forEach((raw, position) => {
    const line = raw.trim();
    if (line === '') return;
    if (!line.startsWith('{')) {
      statements.push(line);
      return;
    }
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new CorruptDataError({ source: `${path}:${position + 1}`, message: 'is not valid JSON' });
    }
    const statement = row['query'] ?? row['statement'] ?? row['text'];
    if (typeof statement !== 'string' || statement.trim() === '') throw new CorruptDataError({ source: `${path}:${position + 1}`, message: 'needs a "query" string' });
    const supporting = row['supporting'];
    if (supporting !== undefined) {
      if (!Array.isArray(supporting) || supporting.length === 0 || supporting.some((id) => typeof id !== 'string' && typeof id !== 'number')) throw new CorruptDataError({ source: `${path}:${position + 1}`, message: '"supporting" must be a non-empty array of document ids' });
      gold.set(statement, supporting.map(String));
    }
    statements.push(statement);
  });
  return statements;
}

export const TRACE_USAGE = `usage: factkit trace --corpus docs.jsonl (--query "statement" | --queries statements.txt|.jsonl) [--k 10] [--leaf-size 100]
                     [--seed 0] [--out results.json] [--md report.md] [--svg chart.svg] [--html report.html]
                     [--baselines bm25,brute-force] [--json] [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  Fact tracing with FastTrack (@factkit/fasttrack): embeds the corpus (USE-lite), clusters it recursively (k-means,
  k = --k, leaves of at most --leaf-size documents), labels every leaf with keywords, then for each statement matches
  leaves by fuzzy keyword match and judges their documents. Offline: class-based TF-IDF labels and the lexical NLI
  judge (baselines); with an endpoint: the paper's keyword prompt and batched support judge (cached).
  --corpus lines: {"_id"|"id", "text", "title"?}; --queries: one statement per line, or JSON lines
  {"query", "supporting": [gold document ids]}. With gold ids the report (--md/--svg/--html) gives precision, recall and
  F1 per method: FastTrack; brute force (the same judge on every document; default offline only, it costs corpus/b
  model calls per statement on an endpoint); BM25 top-k at the k with the best mean F1 (the paper's ranking baseline).`;

/** `factkit trace`: which documents of a corpus support each statement. Returns the exit code. */
export async function runTraceCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: args.filter((argument) => argument !== '--'),
    options: {
      corpus: { type: 'string' },
      query: { type: 'string' },
      queries: { type: 'string' },
      k: { type: 'string', default: '10' },
      'leaf-size': { type: 'string', default: '100' },
      seed: { type: 'string', default: '0' },
      out: { type: 'string' },
      md: { type: 'string' },
      svg: { type: 'string' },
      html: { type: 'string' },
      baselines: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...ENDPOINT_OPTIONS,
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(`${TRACE_USAGE}\n`);
    return EXIT_CODES.ok;
  }
  if (!values.corpus || (values.query === undefined) === (values.queries === undefined)) {
    io.stderr(`factkit trace: give --corpus and one of --query or --queries\n${TRACE_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const integer = (name: string, text: string, minimum: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) throw new InvalidArgumentError({ where: 'factkit trace', argument: `--${name}`, message: `must be an integer >= ${minimum} (got "${text}")` });
    return value;
  };
  const k = integer('k', values.k, 2);
  const maxLeafSize = integer('leaf-size', values['leaf-size'], 1);
  const seed = integer('seed', values.seed, 0);
  let statements: string[];
  const gold = new Map<string, string[]>();
  if (values.query !== undefined) statements = [values.query];
  else statements = parseStatements(await readInputFile(values.queries as string, { command: 'trace', flag: '--queries' }), values.queries as string, gold);
  if (statements.some((statement) => statement.trim() === '') || statements.length === 0) throw new InvalidArgumentError({ where: 'factkit trace', argument: '--query', message: 'must not be empty' });
  const baselineNames = (values.baselines ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of baselineNames) if (name !== 'bm25' && name !== 'brute-force') throw new InvalidArgumentError({ where: 'factkit trace', argument: '--baselines', message: `must list bm25 and/or brute-force (got "${name}")` });

  const { documents, problems: readProblems } = await loadJsonlCorpus(values.corpus);
  for (const problem of readProblems) io.stderr(`factkit trace: ${problem.message}\n`);
  if (documents.length === 0) throw new InvalidArgumentError({ where: 'factkit trace', argument: '--corpus', message: 'has no readable document' });
  const env = io.env ?? {};
  const baseURL = resolveBaseUrl(values, env);
  const model = baseURL ? createEndpointModel('trace', baseURL, values, env) : undefined;
  const embedder = createUseLiteEmbedder();
  const progress = createProgress(io, 'trace index');
  const { index, problems: indexProblems } = await buildFastTrackIndex(documents, {
    embedder,
    labeller: model ? createLlmKeywordLabeller({ model }) : createClassTfidfLabeller(),
    k,
    maxLeafSize,
    seed,
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: (event) => progress.update(event.completed, event.total),
  });
  progress.end();
  const judge = model ? createLlmSupportJudge({ model }) : createNliSupportJudge({ model: createLexicalNliModel() });
  const fasttrack = createFastTrack({ index, embedder, judge });
  const results: TraceResult[] = [];
  for (const statement of statements) results.push(await fasttrack.trace(statement, io.abortSignal ? { abortSignal: io.abortSignal } : {}));
  const unjudged = results.reduce((total, result) => total + result.unjudged.length, 0);
  const summary = {
    corpus: documents.length,
    leaves: index.tree.leaves.length,
    judge: model ? `llm(${model.id})` : 'lexical-nli (offline baseline)',
    labeller: model ? 'llm keywords (paper Fig. 3)' : 'class-based TF-IDF (offline baseline)',
    results: results.map((result) => ({
      query: result.query,
      supporting: result.supporting.map((document) => ({ documentId: document.documentId, text: document.text, clusterPaths: document.clusterPaths })),
      clusters: result.clusters,
      cost: result.cost,
      problems: result.problems,
    })),
    problems: [...readProblems, ...indexProblems],
  };
  if (values.out) await writeFile(values.out, `${JSON.stringify(summary, null, 2)}\n`);
  let baselineUnjudged = 0;
  if (values.md || values.svg || values.html) {
    const baselines = values.baselines === undefined ? (model ? ['bm25'] : ['bm25', 'brute-force']) : baselineNames;
    const runs: TraceMethodRun[] = [{ method: `FastTrack (${model ? 'paper prompts' : 'offline baselines'})`, perStatement: results.map((result) => ({ supporting: result.supporting.map((document) => document.documentId), judged: result.cost.candidatesJudged, incomplete: result.unjudged.length > 0 })) }];
    if (baselines.includes('brute-force')) {
      const progress = createProgress(io, 'trace brute force');
      const perStatement: TraceMethodRun['perStatement'][number][] = [];
      for (const [position, statement] of statements.entries()) {
        progress.update(position, statements.length);
        const { judgements } = await judge.judge({ query: statement, candidates: documents.map((document) => ({ documentId: document.id, text: document.text })), ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
        const unjudged = judgements.filter((judgement) => judgement.status === 'failed').length;
        baselineUnjudged += unjudged;
        perStatement.push({ supporting: judgements.filter(isSupporting).map((judgement) => judgement.documentId), judged: documents.length, incomplete: unjudged > 0 });
      }
      progress.end();
      runs.push({ method: `brute force (${judge.id}, every document)`, perStatement });
    }
    if (baselines.includes('bm25')) {
      const bm25 = createBm25Retriever(documents);
      const rankings: string[][] = [];
      for (const statement of statements) rankings.push((await bm25.retrieve({ query: { text: statement }, topK: Math.min(100, documents.length) })).evidence.map((hit) => hit.documentId));
      runs.push(bestTopKRun(rankings, statements, gold));
    }
    await writeStudyReportFiles({ markdown: values.md, svg: values.svg, html: values.html }, buildTraceReport({ corpus: values.corpus, documents, statements, gold, runs, results }));
  }
  if (values.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    for (const result of results) {
      io.stdout(`${result.query}\n  supported by ${result.supporting.length} of ${result.cost.candidatesJudged} judged candidates (brute force would judge ${result.cost.bruteForce.candidates})\n`);
      for (const document of result.supporting.slice(0, 10)) io.stdout(`  - [${document.documentId}] ${document.text.slice(0, 160)}\n`);
    }
  }
  if (unjudged > 0 || baselineUnjudged > 0 || readProblems.length > 0) {
    io.stderr(`factkit trace: incomplete: ${unjudged + baselineUnjudged} candidate(s) the judge could not decide, ${readProblems.length} unreadable corpus line(s); they are left out\n`);
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}
