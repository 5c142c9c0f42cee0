import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError } from '@factkit/core';
import type { ItemProblem, Qrels, Query } from '@factkit/core';
import { evaluateRun, formatReport, formatTrecRun } from '@factkit/metrics';
import { readQrelsFile } from '@factkit/metrics/node';
import { BM25_VARIANTS, type Bm25Variant } from '@factkit/retrieval';
import { loadBeirDataset } from '@factkit/retrieval/node';
import { openSavedIndex, searchTopics } from '../batch-search.js';
import { ENDPOINT_OPTIONS, resolveEndpoint } from '../endpoint.js';
import { readTopicsFile } from '../topics.js';
import type { CliIo } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { type CommandValues, defineCommand, numberFlag as commandNumberFlag } from '../command.js';
import { evaluateBm25OnBeir } from '../evaluate-bm25-on-beir.js';
import { assertOutputsAreNotInputs, beirFiles } from '../read-input.js';

const numberFlag = (name: string, text: string) => commandNumberFlag('eval', name, text);

export const EVAL_USAGE = `usage: factkit eval --beir <folder> [--split test] [--k1 0.9] [--b 0.4] [--variant lucene|robertson|bm25+|bm25l]
                    [--rm3] [--fb-docs 10] [--fb-terms 10] [--original-query-weight 0.5]
                    [--hits 1000] [--metrics ndcg_cut_10,recall_100,recall_1000,map] [--run out.trec] [--json]
       factkit eval --index <saved index> (--beir <folder> [--split test] | --topics <queries.jsonl|tsv> --qrels <file>)
                    [--rm3 …] [--hits 1000] [--metrics …] [--run out.trec] [--tag T] [--threads N] [--json]
  Without --index: builds BM25 over the folder's corpus and scores its judged queries. With --index: any index saved
  by factkit index (BM25, dense or hybrid; --rm3 for BM25) searched for the judged queries, as factkit search --topics
  does, and scored. --qrels may be TREC 4-column, BEIR TSV or pytrec_eval JSON (detected).`;

/** Where a user gets a BEIR folder: factkit ships none and downloads nothing. */
const BEIR_NEEDED = 'needs a BEIR-format folder such as BEIR SciFact (https://github.com/beir-cellar/beir, https://github.com/allenai/scifact); factkit downloads nothing';

const EVAL_OPTIONS = {
  beir: { type: 'string' },
  split: { type: 'string', default: 'test' },
  k1: { type: 'string', default: '0.9' },
  b: { type: 'string', default: '0.4' },
  variant: { type: 'string', default: 'lucene' },
  rm3: { type: 'boolean', default: false },
  'fb-docs': { type: 'string', default: '10' },
  'fb-terms': { type: 'string', default: '10' },
  'original-query-weight': { type: 'string', default: '0.5' },
  hits: { type: 'string', default: '1000' },
  metrics: { type: 'string', default: 'ndcg_cut_10,recall_100,recall_1000,map' },
  run: { type: 'string' },
  index: { type: 'string' },
  topics: { type: 'string' },
  qrels: { type: 'string' },
  tag: { type: 'string' },
  threads: { type: 'string' },
  json: { type: 'boolean', default: false },
  ...ENDPOINT_OPTIONS,
} as const;

/** `factkit eval`: BM25 (+ optional RM3) on a BEIR folder, scored with @factkit/metrics. Returns the exit code. */
async function runEval(values: CommandValues<typeof EVAL_OPTIONS>, io: CliIo): Promise<number> {
  if (values.index !== undefined) return runEvalIndex(values, io);
  if (!values.beir) {
    io.stderr(`${EVAL_USAGE}\nfactkit eval: ${BEIR_NEEDED} — pass --beir <folder>\n`);
    return EXIT_CODES.badInput;
  }
  if (!existsSync(values.beir)) throw new InvalidArgumentError({ where: 'factkit eval', argument: '--beir', message: `names no folder (${values.beir}): ${BEIR_NEEDED}` });
  if (!BM25_VARIANTS.includes(values.variant as Bm25Variant)) throw new InvalidArgumentError({ where: 'factkit eval', argument: '--variant', message: `must be one of ${BM25_VARIANTS.join(', ')} (got "${values.variant}")` });
  await assertOutputsAreNotInputs('eval', [{ flag: '--run', path: values.run }], beirFiles(values.beir, values.split));
  const started = Date.now();
  const result = await evaluateBm25OnBeir(values.beir, {
    split: values.split,
    k1: numberFlag('k1', values.k1),
    b: numberFlag('b', values.b),
    variant: values.variant as Bm25Variant,
    hits: numberFlag('hits', values.hits),
    metrics: values.metrics
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    rm3: values.rm3 ? { fbDocs: numberFlag('fb-docs', values['fb-docs']), fbTerms: numberFlag('fb-terms', values['fb-terms']), originalQueryWeight: numberFlag('original-query-weight', values['original-query-weight']) } : false,
    onProgress: ({ stage, completed, total }) => io.progress(stage === 'index' ? `index: ${completed}` : `${stage}: ${completed}/${total}`),
  });
  io.progress(undefined);
  for (const problem of result.problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  if (result.problems.length > 20) io.stderr(`warning: … and ${result.problems.length - 20} more problems\n`);
  if (values.run) await writeFile(values.run, formatTrecRun(result.run, { runId: values.rm3 ? 'factkit-bm25-rm3' : 'factkit-bm25' }));
  if (values.json) {
    io.stdout(`${JSON.stringify({ folder: values.beir, split: values.split, queries: result.queryCount, aggregate: result.evaluation.aggregate }, null, 2)}\n`);
  } else {
    const { k1, b, variant } = result.index.parameters;
    io.stdout(`BM25${values.rm3 ? '+RM3' : ''} (${variant}, k1=${k1}, b=${b}) on ${values.beir} [${values.split}], ${result.queryCount} queries, ${result.index.documentCount} documents, ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`);
    io.stdout(formatReport(result.evaluation));
  }
  return EXIT_CODES.ok;
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** `factkit eval --index`: a saved index of any kind searched for the judged queries (BEIR folder, or topics + qrels) and scored. */
async function runEvalIndex(values: CommandValues<typeof EVAL_OPTIONS>, io: CliIo): Promise<number> {
  const fromTopics = values.topics !== undefined || values.qrels !== undefined;
  if (values.beir ? fromTopics : !(values.topics && values.qrels)) {
    io.stderr(`factkit eval: with --index give either --beir <folder> or --topics and --qrels\n${EVAL_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const started = Date.now();
  const hits = numberFlag('hits', values.hits);
  if (!Number.isInteger(hits) || hits < 1) throw new InvalidArgumentError({ where: 'factkit eval', argument: '--hits', message: `must be a positive integer (got "${values.hits}")` });
  const threads = values.threads === undefined ? undefined : numberFlag('threads', values.threads);
  const rm3 = values.rm3 ? { fbDocs: numberFlag('fb-docs', values['fb-docs']), fbTerms: numberFlag('fb-terms', values['fb-terms']), originalQueryWeight: numberFlag('original-query-weight', values['original-query-weight']) } : undefined;
  let qrels: Qrels;
  let queries: Query[];
  const problems: { message: string }[] = [];
  if (values.beir) {
    if (!existsSync(values.beir)) throw new InvalidArgumentError({ where: 'factkit eval', argument: '--beir', message: `names no folder (${values.beir}): ${BEIR_NEEDED}` });
    const dataset = await loadBeirDataset(values.beir, { split: values.split, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
    ({ qrels, queries } = dataset);
    problems.push(...dataset.problems);
  } else {
    qrels = await readQrelsFile(values.qrels!);
    const topics = await readTopicsFile(values.topics!, { command: 'eval', flag: '--topics' });
    problems.push(...topics.problems);
    // Only judged queries are searched (the others could not be scored).
    queries = topics.queries.filter((query) => Object.hasOwn(qrels, query.id as string));
    for (const id of Object.keys(qrels)) if (!topics.queries.some((query) => query.id === id)) problems.push({ message: `qrels query "${id}" has no text in ${values.topics}; skipped` });
  }
  const index = await openSavedIndex(values.index!, { where: 'factkit eval', endpoint: resolveEndpoint('eval', values, io.env ?? {}), notice: (line) => io.stderr(`${line}\n`) });
  let searched: { run: Record<string, Record<string, number>>; problems: ItemProblem[]; failed: number };
  try {
    searched = await searchTopics(index, queries, { topK: hits, rm3, threads, where: 'factkit eval', io });
  } finally {
    index.close();
  }
  problems.push(...searched.problems);
  for (const problem of problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  if (problems.length > 20) io.stderr(`warning: … and ${problems.length - 20} more problems\n`);
  const evaluation = evaluateRun(qrels, searched.run, { metrics: splitList(values.metrics) });
  const tag = values.tag ?? `factkit-${index.kind}${rm3 ? '-rm3' : ''}`;
  if (values.run) await writeFile(values.run, formatTrecRun(searched.run, { runId: tag, maxRank: hits }));
  const where = values.beir ? `${values.beir} [${values.split}]` : `${values.topics} / ${values.qrels}`;
  if (values.json) io.stdout(`${JSON.stringify({ index: values.index, kind: index.kind, rm3: Boolean(rm3), data: where, queries: queries.length, failed: searched.failed, aggregate: evaluation.aggregate }, null, 2)}\n`);
  else {
    io.stdout(
      `${index.retriever.id}${rm3 ? ' + RM3' : ''} (${index.kind} index ${values.index}) on ${where}, ${queries.length} queries${searched.failed ? ` (${searched.failed} failed)` : ''}, ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`,
    );
    io.stdout(formatReport(evaluation));
  }
  return searched.failed > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}

export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'BM25 (± RM3) or any saved index on a BEIR folder, scored like trec_eval; or any number of runs compared',
  usage: EVAL_USAGE,
  options: EVAL_OPTIONS,
  run: runEval,
});
