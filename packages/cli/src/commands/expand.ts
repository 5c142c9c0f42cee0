import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Query, QueryExpander } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createHydeExpander, createMultiQueryExpander, createQuery2docExpander, expandQueries } from '@factkit/expansion';
import { ENDPOINT_OPTIONS, createEndpointModel, resolveBaseUrl } from '../endpoint.js';
import { createRm3Expander } from '@factkit/retrieval';
import { loadBm25Index } from '@factkit/retrieval/node';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { EXIT_CODES } from '../exit-codes.js';
import { createProgress } from '../progress.js';
import type { CliIo } from '../run-cli.js';

export const EXPAND_USAGE = `usage: factkit expand (--query <text> | --input queries.jsonl) --method rm3|query2doc|hyde|multi-query
                      [--index index.bm25] [--samples 1] [--json]
                      [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  Expands queries with @factkit/expansion (Query2doc, HyDE with the embedded USE-lite encoder, multi-query: need an
  OpenAI-compatible endpoint) or RM3 (classical, offline: needs --index from factkit index). --input lines:
  {"_id"|"id", "text"}. Prints the expanded query, the generations and weighted terms; --json for everything.`;

const METHODS = ['rm3', 'query2doc', 'hyde', 'multi-query'] as const;

/** `factkit expand`: expands queries and prints the expansions. Returns the exit code. */
export async function runExpandCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: args.filter((argument) => argument !== '--'),
    options: {
      query: { type: 'string' },
      input: { type: 'string' },
      method: { type: 'string' },
      index: { type: 'string' },
      samples: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
      ...ENDPOINT_OPTIONS,
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout(`${EXPAND_USAGE}\n`);
    return EXIT_CODES.ok;
  }
  if ((values.query === undefined) === (values.input === undefined) || !values.method) {
    io.stderr(`factkit expand: give --method and either --query or --input\n${EXPAND_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const method = values.method as (typeof METHODS)[number];
  if (!METHODS.includes(method)) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--method', message: `must be one of ${METHODS.join(', ')} (got "${values.method}")` });
  const samples = Number(values.samples);
  if (!Number.isInteger(samples) || samples < 1) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--samples', message: `must be a positive integer (got "${values.samples}")` });
  let queries: Query[];
  if (values.input) {
    const text = await readFile(values.input, 'utf8');
    queries = text.split('\n').flatMap((line, position) => {
      if (line.trim() === '') return [];
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new InvalidArgumentError({ where: 'factkit expand', argument: '--input', message: `${values.input}:${position + 1}: not valid JSON` });
      }
      if (typeof row['text'] !== 'string') throw new InvalidArgumentError({ where: 'factkit expand', argument: '--input', message: `${values.input}:${position + 1}: needs a string "text"` });
      return [{ id: String(row['_id'] ?? row['id'] ?? `line-${position + 1}`), text: row['text'] }];
    });
  } else queries = [{ id: 'query', text: values.query! }];
  let expander: QueryExpander;
  if (method === 'rm3') {
    if (!values.index) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--index', message: 'is needed for rm3 (a saved BM25 index from factkit index)' });
    expander = createRm3Expander({ index: await loadBm25Index(values.index) });
  } else {
    const env = io.env ?? {};
    const baseURL = resolveBaseUrl(values, env);
    const modelId = values.model ?? (env['FACTKIT_MODEL'] || undefined);
    if (!baseURL || !modelId) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--base-url', message: `and --model (or OPENAI_BASE_URL and FACTKIT_MODEL) are needed for ${method}; rm3 runs offline` });
    const model = createEndpointModel('expand', baseURL, values, env);
    expander = method === 'query2doc' ? createQuery2docExpander({ model }) : method === 'hyde' ? createHydeExpander({ model, embedder: createUseLiteEmbedder() }) : createMultiQueryExpander({ model });
  }
  const progress = createProgress(io, 'expand');
  const { outcomes } = await expandQueries(expander, queries, { samples, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}), onProgress: ({ completed, total }) => progress.update(completed, total) });
  progress.end();
  const problems = outcomes.flatMap((outcome) => (outcome.status === 'failed' ? outcome.problems : []));
  const rows = outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [{ queryIndex: outcome.queryIndex, sample: outcome.sample, expanded: outcome.value }] : [])).map(({ queryIndex, sample, expanded }) => ({
    id: queries[queryIndex]!.id,
    sample,
    original: queries[queryIndex]!.text,
    text: expanded.text,
    generations: expanded.generations,
    ...(expanded.weightedTerms ? { weightedTerms: expanded.weightedTerms } : {}),
    ...(expanded.subQueries ? { subQueries: expanded.subQueries } : {}),
    problems: expanded.problems ?? [],
  }));
  if (values.json) io.stdout(`${JSON.stringify({ method, expander: expander.id, expansions: rows, problems }, null, 2)}\n`);
  else {
    for (const row of rows) {
      io.stdout(`[${row.id}#${row.sample}] ${row.original}\n  expanded: ${row.text.replace(/\s+/g, ' ').slice(0, 300)}\n`);
      for (const generation of row.generations) io.stdout(`  generation: ${generation.replace(/\s+/g, ' ').slice(0, 300)}\n`);
      if (row.weightedTerms) io.stdout(`  terms: ${row.weightedTerms.slice(0, 15).map((t) => `${t.term}:${t.weight.toFixed(3)}`).join(' ')}\n`);
      if (row.subQueries) for (const sub of row.subQueries) io.stdout(`  sub-query: ${sub}\n`);
    }
  }
  for (const problem of problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  return problems.length > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}
