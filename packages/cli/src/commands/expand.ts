import type { Query, QueryExpander } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createHydeExpander, createMultiQueryExpander, createQuery2docExpander, expandQueries } from '@factkit/expansion';
import { createCliUseLiteEmbedder } from '../embedders.js';
import { ENDPOINT_OPTIONS, connectLanguageModel, resolveEndpoint } from '../endpoint.js';
import { type CommandValues, defineCommand, integerFlag } from '../command.js';
import { asRow, readJsonlInput, reportDroppedLines } from '../read-input.js';
import { createRm3Expander } from '@factkit/retrieval';
import { loadBm25Index } from '@factkit/retrieval/node';
import { EXIT_CODES } from '../exit-codes.js';
import { detectIndexKind } from '../batch-search.js';
import { createProgress } from '../progress.js';
import type { CliIo } from '../cli-io.js';

export const EXPAND_USAGE = `usage: factkit expand (--query <text> | --input queries.jsonl) --method rm3|query2doc|hyde|multi-query
                      [--index index.bm25] [--samples 1] [--json]
                      [--base-url URL --model ID [--api-key KEY] [--cache-dir DIR]]
  Expands queries with @factkit/expansion (Query2doc, HyDE with the embedded USE-lite encoder, multi-query: need an
  OpenAI-compatible endpoint) or RM3 (classical, offline: needs --index from factkit index). --input lines:
  {"_id"|"id", "text"}. Prints the expanded query, the generations and weighted terms; --json for everything.`;

const METHODS = ['rm3', 'query2doc', 'hyde', 'multi-query'] as const;

const EXPAND_OPTIONS = {
  query: { type: 'string' },
  input: { type: 'string' },
  method: { type: 'string' },
  index: { type: 'string' },
  samples: { type: 'string', default: '1' },
  json: { type: 'boolean', default: false },
  ...ENDPOINT_OPTIONS,
} as const;

/** `factkit expand`: expands queries and prints the expansions. Returns the exit code. */
async function runExpand(values: CommandValues<typeof EXPAND_OPTIONS>, io: CliIo): Promise<number> {
  if ((values.query === undefined) === (values.input === undefined) || !values.method) {
    io.stderr(`factkit expand: give --method and either --query or --input\n${EXPAND_USAGE}\n`);
    return EXIT_CODES.badInput;
  }
  const method = values.method as (typeof METHODS)[number];
  if (!METHODS.includes(method)) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--method', message: `must be one of ${METHODS.join(', ')} (got "${values.method}")` });
  const samples = integerFlag('expand', 'samples', values.samples);
  let queries: Query[];
  let dropped = 0;
  if (values.input) {
    const firstLine = new Map<string, number>();
    const input = await readJsonlInput<Query>(
      values.input,
      { command: 'expand', flag: '--input' },
      {
        read: (value, line) => {
          const row = asRow(value);
          if (typeof row['text'] !== 'string') return { reason: 'needs a string "text"' };
          const id = String(row['_id'] ?? row['id'] ?? `line-${line}`);
          if (firstLine.has(id)) return { reason: `repeats query id "${id}" (first on line ${firstLine.get(id)})` };
          firstLine.set(id, line);
          return { value: { id, text: row['text'] } };
        },
      },
    );
    queries = input.items;
    dropped = reportDroppedLines(io, input.problems);
  } else queries = [{ id: 'query', text: values.query! }];
  let expander: QueryExpander;
  if (method === 'rm3') {
    if (!values.index) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--index', message: 'is needed for rm3 (a saved BM25 index from factkit index)' });
    const kind = await detectIndexKind(values.index, 'factkit expand');
    if (kind !== 'bm25') throw new InvalidArgumentError({ where: 'factkit expand', argument: '--index', message: `is a ${kind} index ("${values.index}"); rm3 needs a BM25 index (factkit index --kind bm25)` });
    expander = createRm3Expander({ index: await loadBm25Index(values.index) });
  } else {
    const endpoint = resolveEndpoint('expand', values, io.env ?? {});
    if (!endpoint?.model) throw new InvalidArgumentError({ where: 'factkit expand', argument: '--base-url', message: `and --model (or OPENAI_BASE_URL and FACTKIT_MODEL) are needed for ${method}; rm3 runs offline` });
    const model = connectLanguageModel(endpoint, 'expand');
    expander = method === 'query2doc' ? createQuery2docExpander({ model }) : method === 'hyde' ? createHydeExpander({ model, embedder: createCliUseLiteEmbedder((line) => io.stderr(`${line}\n`)) }) : createMultiQueryExpander({ model });
  }
  const progress = createProgress(io, 'expand');
  const { outcomes } = await expandQueries(expander, queries, { samples, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}), onProgress: ({ completed, total }) => progress.update(completed, total) });
  progress.end();
  const problems = outcomes.flatMap((outcome) => (outcome.status === 'failed' ? outcome.problems : []));
  const rows = outcomes
    .flatMap((outcome) => (outcome.status === 'ok' ? [{ queryIndex: outcome.queryIndex, sample: outcome.sample, expanded: outcome.value }] : []))
    .map(({ queryIndex, sample, expanded }) => ({
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
      if (row.weightedTerms)
        io.stdout(
          `  terms: ${row.weightedTerms
            .slice(0, 15)
            .map((t) => `${t.term}:${t.weight.toFixed(3)}`)
            .join(' ')}\n`,
        );
      if (row.subQueries) for (const sub of row.subQueries) io.stdout(`  sub-query: ${sub}\n`);
    }
  }
  for (const problem of problems.slice(0, 20)) io.stderr(`warning: ${problem.message}\n`);
  return problems.length > 0 || dropped > 0 ? EXIT_CODES.partialFailure : EXIT_CODES.ok;
}

export const expandCommand = defineCommand({
  name: 'expand',
  summary: 'query expansion: RM3 offline; Query2doc, HyDE, multi-query on an endpoint',
  usage: EXPAND_USAGE,
  options: EXPAND_OPTIONS,
  run: runExpand,
});
