import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError } from '@factkit/core';
import { formatMarkdownReport, formatTrecRun } from '@factkit/metrics';
import { BM25_VARIANTS, type Bm25Variant } from '@factkit/retrieval';
import type { CliIo } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { type CommandValues, defineCommand, numberFlag as commandNumberFlag } from '../command.js';
import { evaluateBm25OnBeir } from '../evaluate-bm25-on-beir.js';
import { assertOutputsAreNotInputs, beirFiles } from '../read-input.js';

const numberFlag = (name: string, text: string) => commandNumberFlag('eval', name, text);

export const EVAL_USAGE = `usage: factkit eval --beir <folder> [--split test] [--k1 0.9] [--b 0.4] [--variant lucene|robertson|bm25+|bm25l]
                    [--rm3] [--fb-docs 10] [--fb-terms 10] [--original-query-weight 0.5]
                    [--hits 1000] [--metrics ndcg_cut_10,recall_100,recall_1000,map] [--run out.trec] [--json]`;

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
  json: { type: 'boolean', default: false },
} as const;

/** `factkit eval`: BM25 (+ optional RM3) on a BEIR folder, scored with @factkit/metrics. Returns the exit code. */
async function runEval(values: CommandValues<typeof EVAL_OPTIONS>, io: CliIo): Promise<number> {
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
    onProgress: ({ stage, done, total }) => io.progress(`${stage}: ${done}${total ? `/${total}` : ''}`),
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
    io.stdout(formatMarkdownReport(result.evaluation));
  }
  return EXIT_CODES.ok;
}

export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'BM25 (± RM3) on a BEIR folder, scored like trec_eval; or TREC run files with paired significance',
  usage: EVAL_USAGE,
  options: EVAL_OPTIONS,
  run: runEval,
});
