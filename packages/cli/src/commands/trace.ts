import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError } from '@factkit/core';
import {
  buildFastTrackIndex,
  createClassTfidfLabeller,
  createFastTrack,
  createLlmKeywordLabeller,
  createLlmSupportJudge,
  createNliSupportJudge,
  runTraceStudy,
  traceProblemKind,
  type TraceRanker,
  type TraceStatement,
} from '@factkit/fasttrack';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createBm25Retriever } from '@factkit/retrieval';
import { createCliUseLiteEmbedder, splitOversizedDocuments } from '../embedders.js';
import { ENDPOINT_OPTIONS, connectLanguageModel, resolveEndpoint } from '../endpoint.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { EXIT_CODES } from '../exit-codes.js';
import { type JsonlInput, asRow, assertOutputsAreNotInputs, readJsonlCorpus, readJsonlInput, reportDroppedLines } from '../read-input.js';
import { createProgress } from '../progress.js';
import { buildTraceReport } from '../report/trace-report.js';
import { writeStudyReportFiles } from '../report/study-report.js';
import type { CliIo } from '../cli-io.js';

/** Statements of --queries: plain lines, or JSON lines {"query"|"statement"|"text", "supporting"?: gold ids}; a bad line is dropped and named. */
function readStatements(path: string): Promise<JsonlInput<TraceStatement>> {
  return readJsonlInput<TraceStatement>(
    path,
    { command: 'trace', flag: '--queries' },
    {
      readPlainLine: (text) => ({ value: { text } }),
      read: (value) => {
        const row = asRow(value);
        const statement = row['query'] ?? row['statement'] ?? row['text'];
        if (typeof statement !== 'string' || statement.trim() === '') return { reason: 'needs a "query" string' };
        const supporting = row['supporting'];
        if (supporting === undefined) return { value: { text: statement } };
        if (!Array.isArray(supporting) || supporting.length === 0 || supporting.some((id) => typeof id !== 'string' && typeof id !== 'number')) return { reason: '"supporting" must be a non-empty array of document ids' };
        return { value: { text: statement, gold: supporting.map(String) } };
      },
    },
  );
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

const TRACE_OPTIONS = {
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
} as const;

/** `factkit trace`: which documents of a corpus support each statement. Returns the exit code. */
async function runTrace(values: CommandValues<typeof TRACE_OPTIONS>, io: CliIo): Promise<number> {
  if (!values.corpus || (values.query === undefined) === (values.queries === undefined)) {
    io.stderr(`factkit trace: give --corpus and one of --query or --queries\n${TRACE_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const integer = (name: string, text: string, minimum: number) => integerFlag('trace', name, text, minimum);
  const k = integer('k', values.k, 2);
  const maxLeafSize = integer('leaf-size', values['leaf-size'], 1);
  const seed = integer('seed', values.seed, 0);
  await assertOutputsAreNotInputs(
    'trace',
    (['out', 'md', 'svg', 'html'] as const).map((name) => ({ flag: `--${name}`, path: values[name] })),
    [
      { flag: '--corpus', path: values.corpus },
      { flag: '--queries', path: values.queries },
    ],
  );
  let statements: TraceStatement[];
  let statementProblems: JsonlInput<TraceStatement>['problems'] = [];
  if (values.query !== undefined) statements = [{ text: values.query }];
  else ({ items: statements, problems: statementProblems } = await readStatements(values.queries as string));
  if (statements.some((statement) => statement.text.trim() === '') || statements.length === 0) throw new InvalidArgumentError({ where: 'factkit trace', argument: '--query', message: 'must not be empty' });
  const baselineNames = (values.baselines ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of baselineNames) if (name !== 'bm25' && name !== 'brute-force') throw new InvalidArgumentError({ where: 'factkit trace', argument: '--baselines', message: `must list bm25 and/or brute-force (got "${name}")` });

  const { items: corpus, problems: corpusProblems } = await readJsonlCorpus(values.corpus, { command: 'trace', flag: '--corpus' });
  const embedder = createCliUseLiteEmbedder((line) => io.stderr(`${line}\n`));
  const { documents, problems: oversized } = splitOversizedDocuments(corpus, embedder);
  const readProblems = [...corpusProblems, ...oversized, ...statementProblems];
  reportDroppedLines(io, readProblems);
  const endpoint = resolveEndpoint('trace', values, io.env ?? {});
  const model = endpoint ? connectLanguageModel(endpoint, 'trace') : undefined;
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
  const wantsReport = Boolean(values.md || values.svg || values.html);
  const baselines = values.baselines === undefined ? (model ? ['bm25'] : ['bm25', 'brute-force']) : baselineNames;
  const rankers: TraceRanker[] = wantsReport && baselines.includes('bm25') ? [{ name: 'BM25', retriever: createBm25Retriever(documents) }] : [];
  const studyProgress = createProgress(io, 'trace');
  const study = await runTraceStudy({
    statements,
    tracers: [{ name: `FastTrack (${model ? 'paper prompts' : 'offline baselines'})`, fastTrack: fasttrack }],
    upperBound: false,
    ...(wantsReport && baselines.includes('brute-force') ? { bruteForce: { judge, documents } } : {}),
    rankers,
    maxK: Math.min(100, documents.length),
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: ({ stage, completed, total }) => studyProgress.update(completed, total, stage),
  });
  studyProgress.end();
  const traced = study.methods[0]!.perStatement;
  const summary = {
    corpus: documents.length,
    leaves: index.tree.leaves.length,
    judge: model ? `llm(${model.id})` : 'lexical-nli (offline baseline)',
    labeller: model ? 'llm keywords (paper Fig. 3)' : 'class-based TF-IDF (offline baseline)',
    results: traced.map((run, position) => ({
      query: statements[position]!.text,
      supporting: run.result?.supporting.map((document) => ({ documentId: document.documentId, text: document.text, clusterPaths: document.clusterPaths })) ?? [],
      clusters: run.result?.clusters ?? [],
      ...(run.result ? { cost: run.result.cost } : {}),
      // Undecided: a judge verdict or a leaf's keyword call failed; left out of P/R/F1 and the exit is 3.
      incomplete: run.incomplete,
      problems: run.problems,
    })),
    problems: [...readProblems, ...indexProblems],
  };
  if (values.out) await writeFile(values.out, `${JSON.stringify(summary, null, 2)}\n`);
  if (wantsReport) await writeStudyReportFiles({ markdown: values.md, svg: values.svg, html: values.html }, buildTraceReport({ corpus: values.corpus, documents, statements, study }));
  if (values.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    for (const [position, { result, problems }] of traced.entries()) {
      if (!result) {
        io.stdout(`${statements[position]!.text}\n  not traced: ${problems.map((problem) => problem.message).join('; ')}\n`);
        continue;
      }
      io.stdout(`${result.query}\n  supported by ${result.supporting.length} of ${result.cost.candidatesJudged} judged candidates (brute force would judge ${result.cost.bruteForce.candidates})\n`);
      if (traced[position]!.incomplete)
        io.stdout(
          `  undecided (left out of the scores): ${problems
            .filter((problem) => traceProblemKind(problem) !== 'note')
            .map((problem) => problem.message)
            .slice(0, 3)
            .join('; ')}\n`,
        );
      for (const document of result.supporting.slice(0, 10)) io.stdout(`  - [${document.documentId}] ${document.text.slice(0, 160)}\n`);
    }
  }
  if (study.incomplete.length > 0 || readProblems.length > 0) {
    io.stderr(`factkit trace: incomplete: ${[...study.incomplete, ...(readProblems.length > 0 ? [`${readProblems.length} dropped input line(s), left out`] : [])].join('; ')}\n`);
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}

export const traceCommand = defineCommand({
  name: 'trace',
  summary: 'fact tracing: which documents of a corpus support a statement (@factkit/fasttrack)',
  usage: TRACE_USAGE,
  options: TRACE_OPTIONS,
  run: runTrace,
});
