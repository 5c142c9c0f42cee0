import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createFileCache,
  createUsageMeter,
  InvalidArgumentError,
  withCache,
  withEmbeddingCache,
  type Embedder,
  type LanguageModel,
  type NliModel,
} from '@factkit/core';
import { createHydeExpander, createMultiQueryExpander, createQuery2docExpander, HYDE_PROMPTS } from '@factkit/expansion';
import { createGloveEmbedder } from '@factkit/glove';
import { createFeatureNliModel, createLexicalNliModel, createLlmNliJudge } from '@factkit/nli-models';
import { createOpenAICompatibleEmbedder, createOpenAICompatibleModel } from '@factkit/openai';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { DEFAULT_DATASETS_DIRECTORY, loadFeverLite, loadSciFact, type StudyDataset } from './datasets.js';
import { formatStudyPlot, formatStudyReport } from './report-markdown.js';
import { runStudies, type StudyMethod } from './study.js';
import { buildDenseRetriever, createBm25Wiring, createSubQueryFusionRetriever } from './wiring.js';

const here = dirname(fileURLToPath(import.meta.url));

export type MethodName = 'rm3' | 'query2doc' | 'hyde' | 'multi-query';

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Progress and messages (stderr in the real CLI). */
  readonly log: (text: string) => void;
  readonly abortSignal?: AbortSignal;
}

const USAGE = `Usage: pnpm --filter leakage-study start -- [options]
  --dataset scifact|fever-lite   (default scifact)
  --split <name>                 scifact: all|train|test (default all); fever-lite: validation|test (default validation)
  --limit <n>                    first n claims with gold evidence (default: all)
  --methods rm3,query2doc,hyde,multi-query
                                 (multi-query: 3 LLM rewrites + the claim, BM25 each, fused with RRF; default rm3 offline; rm3,query2doc,hyde when OPENAI_BASE_URL or OPENAI_API_KEY is set)
  --repeats <r>                  generations per claim for LLM methods (default 8, as in the paper)
  --ks 5,10                      cut-offs (default 5,10)
  --nli feature|lexical|llm      NLI model (default feature = offline GloVe feature classifier; llm = paper Figure A3 prompt)
  --model <name>                 chat model (default FACTKIT_MODEL or gpt-4o-mini)
  --embedder use-lite|<name>     HyDE encoder: offline USE-lite (default) or an OpenAI-compatible embedding model
  --embedding-dimensions <d>     vector size of that embedding model (default 1536)
  --out <dir>                    output folder (default examples/leakage-study/out/<dataset>)
  --cache <dir>                  LLM/embedding call cache (default .factkit-cache/leakage-study)
  --datasets <dir>               folder with scifact/ and fever-lite/ (default: the repository's datasets/)
  --concurrency <n>              claims at once (default 4)
  --verdicts                     also predict verdicts with the chat model (paper Figure A2) and report macro-F1@k`;

function parseList(value: string | undefined, fallback: string[]): string[] {
  return value === undefined ? fallback : value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

function parsePositiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError({ where: 'leakage-study', argument: `--${name}`, message: `must be a positive integer (got ${value})` });
  return number;
}

/** Runs the study from command-line arguments; returns the paths it wrote. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<{ reportPath: string; plotPath: string; resultsPath: string }> {
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
      embedder: { type: 'string', default: 'use-lite' },
      'embedding-dimensions': { type: 'string' },
      out: { type: 'string' },
      cache: { type: 'string' },
      datasets: { type: 'string' },
      concurrency: { type: 'string' },
      verdicts: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.log(`${USAGE}\n`);
    return { reportPath: '', plotPath: '', resultsPath: '' };
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
  const datasetsDirectory = values.datasets ?? DEFAULT_DATASETS_DIRECTORY;
  const datasetName = values.dataset ?? 'scifact';
  const outDirectory = values.out ?? resolve(here, '..', 'out', datasetName);
  const cacheDirectory = values.cache ?? resolve(process.cwd(), '.factkit-cache', 'leakage-study');

  io.log(`leakage-study: loading ${datasetName}…\n`);
  let dataset: StudyDataset;
  if (datasetName === 'scifact') {
    const split = (values.split ?? 'all') as 'all' | 'train' | 'test';
    if (!['all', 'train', 'test'].includes(split)) throw new InvalidArgumentError({ where, argument: '--split', message: `must be all, train or test for scifact (got ${split})` });
    dataset = await loadSciFact({ directory: join(datasetsDirectory, 'scifact'), split, limit });
  } else if (datasetName === 'fever-lite') {
    const split = (values.split ?? 'validation') as 'validation' | 'test';
    if (!['validation', 'test'].includes(split)) throw new InvalidArgumentError({ where, argument: '--split', message: `must be validation or test for fever-lite (got ${split})` });
    dataset = await loadFeverLite({ directory: join(datasetsDirectory, 'fever-lite'), split, limit });
  } else {
    throw new InvalidArgumentError({ where, argument: '--dataset', message: `must be scifact or fever-lite (got ${datasetName})` });
  }
  io.log(`leakage-study: ${dataset.claims.length} claims, ${dataset.corpus.length} documents\n`);

  // Every model call goes through one persistent cache: a rerun after an interruption repeats no call.
  const cache = createFileCache({ directory: cacheDirectory });
  const meter = createUsageMeter();
  let model: LanguageModel | undefined;
  if (usesLlm) {
    const modelName = values.model ?? io.env['FACTKIT_MODEL'] ?? 'gpt-4o-mini';
    // The meter wraps the cached model, so it counts cache hits too (cachedCalls).
    const connection = {
      model: modelName,
      ...(io.env['OPENAI_BASE_URL'] ? { baseUrl: io.env['OPENAI_BASE_URL'] } : {}),
      ...(io.env['OPENAI_API_KEY'] ? { apiKey: io.env['OPENAI_API_KEY'] } : {}),
    };
    model = meter.track(withCache(createOpenAICompatibleModel(connection), cache));
  }
  let useLite: Embedder | undefined;
  const getUseLite = () => (useLite ??= createUseLiteEmbedder());

  let nli: NliModel;
  if (values.nli === 'feature') nli = createFeatureNliModel({ embedder: createGloveEmbedder() });
  else if (values.nli === 'lexical') nli = createLexicalNliModel();
  else if (values.nli === 'llm' && model) nli = createLlmNliJudge({ model });
  else throw new InvalidArgumentError({ where, argument: '--nli', message: `must be feature, lexical or llm (got ${values.nli})` });

  const bm25 = await createBm25Wiring(dataset.corpus);
  const studyMethods: StudyMethod[] = [];
  for (const method of methods) {
    if (method === 'rm3') {
      studyMethods.push({ name: 'BM25+RM3', baselineName: 'BM25', retriever: bm25.retriever, expander: bm25.rm3, repeats: 1 });
    } else if (method === 'query2doc' && model) {
      studyMethods.push({ name: 'Query2doc', baselineName: 'BM25', retriever: bm25.retriever, expander: createQuery2docExpander({ model }), repeats });
    } else if (method === 'multi-query' && model) {
      const retriever = createSubQueryFusionRetriever(bm25.retriever);
      studyMethods.push({ name: 'Multi-query (RRF)', baselineName: 'BM25', retriever, expander: createMultiQueryExpander({ model }), repeats });
    } else if (method === 'hyde' && model) {
      const embedderName = values.embedder ?? 'use-lite';
      const base =
        embedderName === 'use-lite'
          ? getUseLite()
          : createOpenAICompatibleEmbedder({
              model: embedderName,
              dimensions: parsePositiveInteger(values['embedding-dimensions'], 'embedding-dimensions', 1536),
              ...(io.env['OPENAI_BASE_URL'] ? { baseUrl: io.env['OPENAI_BASE_URL'] } : {}),
              ...(io.env['OPENAI_API_KEY'] ? { apiKey: io.env['OPENAI_API_KEY'] } : {}),
            });
      const embedder = withEmbeddingCache(base, cache);
      io.log(`leakage-study: embedding ${dataset.corpus.length} documents with ${embedder.id} for HyDE (cached)…\n`);
      const dense = await buildDenseRetriever(dataset.corpus, embedder, io.abortSignal);
      const prompt = datasetName === 'scifact' ? HYDE_PROMPTS.scifact : HYDE_PROMPTS.fever;
      studyMethods.push({ name: 'HyDE', baselineName: `Dense (${embedder.id})`, retriever: dense, expander: createHydeExpander({ model, embedder, prompt }), repeats });
    }
  }

  let lastLine = 0;
  const results = await runStudies({
    dataset,
    methods: studyMethods,
    nli,
    ks,
    concurrency,
    ...(values.verdicts && model ? { verdictModel: model } : {}),
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: (method, progress) => {
      const now = Date.now();
      if (progress.completed !== progress.total && now - lastLine < 500) return;
      lastLine = now;
      const stage = progress.stage === 'baseline' ? 'baseline' : `repeat ${(progress.repeat ?? 0) + 1}`;
      io.log(`leakage-study: ${method} ${stage}: ${progress.completed}/${progress.total} claims\n`);
    },
  });

  const usage = meter.report();
  const command = ['pnpm --filter leakage-study start', ...(args.length > 0 ? ['--', ...args] : [])].join(' ');
  const notes = model
    ? [`LLM: \`${model.id}\`; calls ${usage.calls} (${usage.cachedCalls} from cache), tokens ${usage.totalTokens}`, `Cache: ${cacheDirectory}`]
    : ['No LLM used (offline run).'];
  const report = formatStudyReport(results, { datasetName: dataset.name, claims: dataset.claims.length, corpusSize: dataset.corpus.length, command, notes });
  const plot = formatStudyPlot(results, { datasetName: dataset.name });
  await mkdir(outDirectory, { recursive: true });
  const reportPath = join(outDirectory, 'report.md');
  const plotPath = join(outDirectory, 'leakage-study.svg');
  const resultsPath = join(outDirectory, 'results.json');
  await writeFile(reportPath, report);
  await writeFile(plotPath, plot);
  await writeFile(
    resultsPath,
    `${JSON.stringify(
      results.map(({ method, baselineName, matching, result }) => ({
        method,
        baselineName,
        matching,
        ...result,
        baselineRuns: undefined,
        runs: result.runs.map((run) => ({ claimId: run.claimId, sample: run.sample, generations: run.generations, retrieved: run.retrieved, metrics: run.metrics, matched: run.match?.matched ?? null, entailingPairs: run.match?.entailingPairs ?? [], removedSentences: run.match?.removedSentences ?? [], problems: run.problems })),
      })),
      null,
      1,
    )}\n`,
  );
  io.log(`leakage-study: wrote ${reportPath}, ${plotPath}, ${resultsPath}\n`);
  return { reportPath, plotPath, resultsPath };
}
