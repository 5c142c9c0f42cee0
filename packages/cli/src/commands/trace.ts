import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@factkit/core';
import { buildFastTrackIndex, createClassTfidfLabeller, createFastTrack, createLlmKeywordLabeller, createLlmSupportJudge, createNliSupportJudge, type TraceResult } from '@factkit/fasttrack';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { loadJsonlCorpus } from '../check/run-check.js';
import { ENDPOINT_OPTIONS, createEndpointModel, resolveBaseUrl } from '../endpoint.js';
import { EXIT_CODES } from '../exit-codes.js';
import { readInputFile } from '../read-input-file.js';
import { createProgress } from '../progress.js';
import type { CliIo } from '../run-cli.js';

export const TRACE_USAGE = `usage: factkit trace --corpus docs.jsonl (--query "statement" | --queries statements.txt) [--k 10] [--leaf-size 100]
                     [--seed 0] [--out results.json] [--json] [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  Fact tracing with FastTrack (@factkit/fasttrack): embeds the corpus (USE-lite), clusters it recursively (k-means,
  k = --k, leaves of at most --leaf-size documents), labels every leaf with keywords, then for each statement matches
  leaves by fuzzy keyword match and judges their documents. Offline: class-based TF-IDF labels and the lexical NLI
  judge (baselines); with an endpoint: the paper's keyword prompt and batched support judge (cached).
  --corpus lines: {"_id"|"id", "text", "title"?}; --queries: one statement per line.`;

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
  if (values.query !== undefined) statements = [values.query];
  else statements = (await readInputFile(values.queries as string, { command: 'trace', flag: '--queries' })).split('\n').map((line) => line.trim()).filter((line) => line !== '');
  if (statements.some((statement) => statement.trim() === '') || statements.length === 0) throw new InvalidArgumentError({ where: 'factkit trace', argument: '--query', message: 'must not be empty' });

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
    onProgress: (event) => progress.update(event.done, event.total),
  });
  progress.end();
  const fasttrack = createFastTrack({ index, embedder, judge: model ? createLlmSupportJudge({ model }) : createNliSupportJudge({ model: createLexicalNliModel() }) });
  const results: TraceResult[] = [];
  for (const statement of statements) results.push(await fasttrack.trace(statement, io.abortSignal ? { abortSignal: io.abortSignal } : {}));
  const unjudged = results.reduce((total, result) => total + result.problems.filter((problem) => problem.code === 'unjudged').length, 0);
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
  if (values.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    for (const result of results) {
      io.stdout(`${result.query}\n  supported by ${result.supporting.length} of ${result.cost.candidatesJudged} judged candidates (brute force would judge ${result.cost.bruteForce.candidates})\n`);
      for (const document of result.supporting.slice(0, 10)) io.stdout(`  - [${document.documentId}] ${document.text.slice(0, 160)}\n`);
    }
  }
  if (unjudged > 0 || readProblems.length > 0) {
    io.stderr(`factkit trace: incomplete: ${unjudged} candidate(s) the judge could not decide, ${readProblems.length} unreadable corpus line(s); they are left out\n`);
    return EXIT_CODES.partialFailure;
  }
  return EXIT_CODES.ok;
}
