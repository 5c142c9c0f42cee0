// The full command line (`pnpm --filter leakage-study start -- --help`): every option of the study, parsed and
// checked here, then run by run.ts. The per-task scripts (scifact.ts, fever.ts, averitec.ts, model-grid.ts) are the
// short way in.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@factkit/core';
import { dataset as dataRootDataset, type DatasetName, missingDatasetMessage } from '@factkit/test-utils/data';
import { loadAveritec } from './averitec-data.js';
import { loadFeverLite, loadSciFact, type StudyDataset } from './datasets.js';
import { EXIT_CODES, needsLanguageModel, runStudy, type MethodName, type StudyIo, type StudyOutcome } from './run.js';

export { EXIT_CODES, type MethodName };
export type CliIo = StudyIo;
export type CliOutcome = StudyOutcome;

const USAGE = `Usage: pnpm --filter leakage-study start -- [options]
  --dataset scifact|fever-lite|averitec  (default scifact)
  --knowledge-store <dir>        averitec: the per-claim knowledge store (<claim_id>.json files of {url, url2text});
                                 without it only matching runs (Table 3) and the METEOR/BERTScore/F1 columns are left out
  --bertscore glove|none         averitec: token embeddings for Hungarian BERTScore (default glove, offline)
  --unit sentence|abstract       scifact knowledge store: abstract sentences as in the paper (default) or whole abstracts
  --split <name>                 scifact: all|train|test (default all); fever-lite: validation|test (default validation)
  --limit <n>                    first n claims with gold evidence (default: all)
  --methods rm3,query2doc,hyde,multi-query
                                 (multi-query: 3 LLM rewrites + the claim, BM25 each, fused with RRF; default rm3 offline; rm3,query2doc,hyde when OPENAI_BASE_URL or OPENAI_API_KEY is set)
  --repeats <r>                  generations per claim for LLM methods (default 8, as in the paper)
  --ks 5,10                      cut-offs (default 5,10)
  --nli feature|lexical|llm      NLI model (default feature = offline GloVe feature classifier; llm = paper Figure A3 prompt)
  --model <name>                 chat model (default FACTKIT_MODEL or gpt-4o-mini)
  --models <a,b,c>               several chat models on the same endpoint: one report each plus the multi-LLM grid
  --max-failures <n>             failed items tolerated before the command exits 3 (default 0: any failure)
  --embedder use-lite|<name>     HyDE encoder: offline USE-lite (default) or an OpenAI-compatible embedding model
  --embedding-dimensions <d>     vector size of that embedding model (default 1536)
  --out <dir>                    output folder (default ./leakage-study-output/<dataset> under the directory you run the command from)
  --cache <dir>                  LLM/embedding call cache (default .factkit-cache/leakage-study)
  --data <root>                  data root with scifact/, fever-lite/, averitec/ (default: $FACTKIT_DATA, or
                                 ../shared/data beside the checkout; nothing is downloaded)
  --concurrency <n>              claims at once (default 4)
  --verdicts                     also predict verdicts with the chat model (paper Figure A2) and report macro-F1@k`;

function parseList(value: string | undefined, fallback: string[]): string[] {
  return value === undefined
    ? fallback
    : value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
}

function parsePositiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError({ where: 'leakage-study', argument: `--${name}`, message: `must be a positive integer (got ${value})` });
  return number;
}

/** Runs the study from command-line arguments; returns the paths it wrote and the exit code the command should use. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CliOutcome> {
  // `pnpm start -- --limit 5` passes the `--` through; drop it.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const { values } = parseArgs({
    args,
    options: {
      dataset: { type: 'string', default: 'scifact' },
      split: { type: 'string' },
      limit: { type: 'string' },
      methods: { type: 'string' },
      repeats: { type: 'string' },
      ks: { type: 'string' },
      nli: { type: 'string', default: 'feature' },
      model: { type: 'string' },
      models: { type: 'string' },
      unit: { type: 'string', default: 'sentence' },
      'knowledge-store': { type: 'string' },
      bertscore: { type: 'string', default: 'glove' },
      'max-failures': { type: 'string' },
      embedder: { type: 'string', default: 'use-lite' },
      'embedding-dimensions': { type: 'string' },
      out: { type: 'string' },
      cache: { type: 'string' },
      data: { type: 'string' },
      concurrency: { type: 'string' },
      verdicts: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.log(`${USAGE}\n`);
    return { reportPath: '', plotPath: '', resultsPath: '', failures: 0, exitCode: EXIT_CODES.ok, summary: '' };
  }
  const where = 'leakage-study';
  const hasEndpoint = Boolean(io.env['OPENAI_BASE_URL'] || io.env['OPENAI_API_KEY']);
  const methods = parseList(values.methods, hasEndpoint ? ['rm3', 'query2doc', 'hyde'] : ['rm3']) as MethodName[];
  for (const method of methods) {
    if (!['rm3', 'query2doc', 'hyde', 'multi-query'].includes(method)) {
      throw new InvalidArgumentError({ where, argument: '--methods', message: `has unknown method "${method}" (rm3, query2doc, hyde, multi-query)` });
    }
  }
  const usesLlm = methods.some((method) => method !== 'rm3') || values.nli === 'llm' || values.verdicts === true;
  if (usesLlm && !hasEndpoint) {
    throw new InvalidArgumentError({ where, argument: '--methods', message: 'query2doc, hyde, --nli llm and --verdicts need OPENAI_BASE_URL and/or OPENAI_API_KEY' });
  }
  const ks = parseList(values.ks, ['5', '10']).map((k) => parsePositiveInteger(k, 'ks', 5));
  const repeats = parsePositiveInteger(values.repeats, 'repeats', 8);
  const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : parsePositiveInteger(values.limit, 'limit', 1);
  const concurrency = parsePositiveInteger(values.concurrency, 'concurrency', 4);
  const datasetName = values.dataset ?? 'scifact';
  // The dataset's folder: under --data <root>, else in the data root; without it, one line naming it and where it is published.
  const folderOf = (name: DatasetName) => {
    const folder = values.data === undefined ? dataRootDataset(name) : join(values.data, name);
    if (folder === undefined) throw new InvalidArgumentError({ where, argument: '--data', message: missingDatasetMessage(name, { flag: '--data <root>' }) });
    return folder;
  };
  // `pnpm --filter leakage-study start` runs in the package folder; INIT_CWD is where the user typed the command.
  const outDirectory = values.out ?? resolve(io.env['INIT_CWD'] ?? process.cwd(), 'leakage-study-output', datasetName);
  const maxFailures = values['max-failures'] === undefined ? 0 : Number(values['max-failures']);
  if (!Number.isInteger(maxFailures) || maxFailures < 0) throw new InvalidArgumentError({ where, argument: '--max-failures', message: `must be an integer >= 0 (got ${values['max-failures']})` });
  const modelNames = parseList(values.models, [values.model ?? io.env['FACTKIT_MODEL'] ?? 'gpt-4o-mini']);
  if (values.models !== undefined && values.model !== undefined) throw new InvalidArgumentError({ where, argument: '--models', message: 'cannot be combined with --model; list every model in --models' });
  if (modelNames.length === 0) throw new InvalidArgumentError({ where, argument: '--models', message: 'must name at least one model' });
  const cacheDirectory = values.cache ?? resolve(process.cwd(), '.factkit-cache', 'leakage-study');

  io.log(`leakage-study: loading ${datasetName}…\n`);
  let dataset: StudyDataset;
  if (datasetName === 'scifact') {
    const split = (values.split ?? 'all') as 'all' | 'train' | 'test';
    if (!['all', 'train', 'test'].includes(split)) throw new InvalidArgumentError({ where, argument: '--split', message: `must be all, train or test for scifact (got ${split})` });
    const unit = values.unit as 'sentence' | 'abstract';
    if (unit !== 'sentence' && unit !== 'abstract') throw new InvalidArgumentError({ where, argument: '--unit', message: `must be sentence or abstract (got ${String(values.unit)})` });
    dataset = await loadSciFact({ directory: folderOf('scifact'), split, limit, unit });
  } else if (datasetName === 'fever-lite') {
    const split = (values.split ?? 'validation') as 'validation' | 'test';
    if (!['validation', 'test'].includes(split)) throw new InvalidArgumentError({ where, argument: '--split', message: `must be validation or test for fever-lite (got ${split})` });
    dataset = await loadFeverLite({ directory: folderOf('fever-lite'), split, limit });
  } else if (datasetName === 'averitec') {
    dataset = await loadAveritec({ directory: folderOf('averitec'), limit });
  } else {
    throw new InvalidArgumentError({ where, argument: '--dataset', message: `must be scifact, fever-lite or averitec (got ${datasetName})` });
  }
  if (datasetName === 'averitec' && values['knowledge-store'] === undefined && !usesLlm) {
    throw new InvalidArgumentError({ where, argument: '--knowledge-store', message: 'is needed for an offline AVeriTeC run (RM3 retrieves from it); without it, only LLM matching can run (set OPENAI_BASE_URL)' });
  }
  io.log(`leakage-study: ${dataset.claims.length} claims, ${dataset.corpus.length} documents (${dataset.unit}s); output in ${outDirectory}\n`);

  return runStudy(
    {
      dataset,
      methods,
      modelNames,
      nli: values.nli as 'feature' | 'lexical' | 'llm',
      repeats,
      ks,
      concurrency,
      verdicts: values.verdicts === true,
      maxFailures,
      outDirectory,
      cacheDirectory,
      command: ['pnpm --filter leakage-study start', ...(args.length > 0 ? ['--', ...args] : [])].join(' '),
      ...(values['knowledge-store'] === undefined ? {} : { knowledgeStore: values['knowledge-store'] }),
      bertscore: values.bertscore as 'glove' | 'none',
      embedder: values.embedder ?? 'use-lite',
      ...(values['embedding-dimensions'] === undefined ? {} : { embeddingDimensions: parsePositiveInteger(values['embedding-dimensions'], 'embedding-dimensions', 1536) }),
    },
    io,
  );
}
