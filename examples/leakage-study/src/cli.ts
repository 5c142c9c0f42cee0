import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createUsageMeter,
  InvalidArgumentError,
  withCache,
  withEmbeddingCache,
  withEmbeddingRetry,
  withRetry,
  type Embedder,
  type LanguageModel,
  type NliModel,
  type QueryExpander,
  type Retriever,
} from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createHydeExpander, createMultiQueryExpander, createQuery2docExpander, EXPANSION_PROMPTS } from '@factkit/expansion';
import { createGloveEmbedder, loadGloveVectors, tokenizeForGlove } from '@factkit/glove';
import { createFeatureNliModel, createLexicalNliModel, createLlmNliJudge } from '@factkit/nli-models';
import { createOpenAICompatible } from '@factkit/openai';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { loadWordNetSynonyms } from '@factkit/metrics/node';
import type { EvidenceScorer } from '@factkit/nli-match';
import { createAveritecEvidenceScorer, createPerClaimWiring, loadAveritec, loadAveritecKnowledgeStore } from './averitec.js';
import { dataset as dataRootDataset, type DatasetName, missingDatasetMessage } from '@factkit/test-utils/data';
import { loadFeverLite, loadSciFact, verdictLabelsFor, type StudyDataset } from './datasets.js';
import { formatModelGrid, formatStudyPlot, formatStudyReport, incompleteReasons, type MethodResult } from './report-markdown.js';
import { runStudies, type StudyMethod } from './study.js';
import { buildDenseRetriever, createBm25Wiring, createBm25WiringSync, createSubQueryFusionRetriever } from './wiring.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Exit codes of the command: 0 = every number whole; 2 = bad input; 3 = failures beyond --max-failures; 130 = interrupted. */
export const EXIT_CODES = { ok: 0, error: 1, badInput: 2, incomplete: 3, interrupted: 130 } as const;

/** What one run of the command produced. */
export interface CliOutcome {
  readonly reportPath: string;
  readonly plotPath: string;
  readonly resultsPath: string;
  /** The multi-LLM grid (Tables 2–4 and 3 across models), written when --models names more than one. */
  readonly gridPath?: string;
  /** Failed items over every method and model (expansions, unknown matches, retrievals, verdicts, claim runs, documents not embedded). */
  readonly failures: number;
  /** 0 when every number is whole or the failures are within --max-failures; 3 otherwise. */
  readonly exitCode: number;
  /** One line: what was written, or what failed. */
  readonly summary: string;
}

export type MethodName = 'rm3' | 'query2doc' | 'hyde' | 'multi-query';

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Progress and messages (stderr in the real CLI). */
  readonly log: (text: string) => void;
  readonly abortSignal?: AbortSignal;
}

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
  return value === undefined ? fallback : value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

function parsePositiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError({ where: 'leakage-study', argument: `--${name}`, message: `must be a positive integer (got ${value})` });
  return number;
}

/** Versions of the factkit packages the study ran on (for results.json). */
function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of ['@factkit/core', '@factkit/expansion', '@factkit/metrics', '@factkit/nli-match', '@factkit/openai', '@factkit/retrieval', '@factkit/use-lite']) {
    try {
      versions[name] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      versions[name] = 'unknown';
    }
  }
  return versions;
}

async function hashFiles(paths: readonly string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const path of paths) hashes[path] = createHash('sha256').update(await readFile(path)).digest('hex');
  return hashes;
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_');

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

  // Every model call goes through one persistent cache: a rerun after an interruption repeats no call.
  const cache = createFileCache({ directory: cacheDirectory });
  let useLite: Embedder | undefined;
  const getUseLite = () => (useLite ??= createUseLiteEmbedder());
  // One GloVe embedder (its vectors load once) for the feature NLI model of every model's run.
  let glove: Embedder | undefined;
  const getGlove = () => (glove ??= createGloveEmbedder());
  // Connection settings once; model ids per use. Retries are core's withRetry (the provider makes one call per request).
  const provider = usesLlm
    ? createOpenAICompatible({
        ...(io.env['OPENAI_BASE_URL'] ? { baseURL: io.env['OPENAI_BASE_URL'] } : {}),
        ...(io.env['OPENAI_API_KEY'] ? { apiKey: io.env['OPENAI_API_KEY'] } : {}),
      })
    : undefined;
  const contextIncomplete: string[] = [];
  const contextNotes: string[] = [];
  let claimsWithoutStore = 0;
  let bm25: { retriever: Retriever | undefined; rm3: QueryExpander | undefined };
  let evidenceScorer: EvidenceScorer | undefined;
  if (datasetName === 'averitec') {
    const storeDirectory = values['knowledge-store'];
    if (storeDirectory === undefined) {
      bm25 = { retriever: undefined, rm3: undefined };
      contextNotes.push('No --knowledge-store: the METEOR, BERTScore and F1 columns need AVeriTeC\'s per-claim knowledge store; only matching (Table 3) ran.');
    } else {
      const { stores, missing } = await loadAveritecKnowledgeStore(storeDirectory, dataset.claims.map((claim) => claim.id));
      claimsWithoutStore = missing.length;
      if (missing.length > 0) contextIncomplete.push(`${missing.length} of ${dataset.claims.length} claims have no knowledge-store file (e.g. ${missing.slice(0, 3).join(', ')}): they retrieve nothing`);
      const wiring = createPerClaimWiring(stores, (documents) => createBm25WiringSync(documents));
      bm25 = wiring;
      const synonyms = await loadWordNetSynonyms();
      let embedTokens: ((text: string) => { tokens: string[]; embeddings: Float32Array[] }) | undefined;
      if (values.bertscore === 'glove') {
        io.log('leakage-study: loading GloVe vectors for BERTScore…\n');
        const glove = await loadGloveVectors();
        embedTokens = (text) => {
          const { tokens, rows } = tokenizeForGlove(text, glove);
          return { tokens, embeddings: rows.map((row) => glove.matrix.subarray(row * glove.dimensions, (row + 1) * glove.dimensions)) };
        };
        contextNotes.push('BERTScore: Hungarian-matched F1 over GloVe 100-d token vectors (offline stand-in for the paper\'s BERT model).');
      } else if (values.bertscore !== 'none') {
        throw new InvalidArgumentError({ where, argument: '--bertscore', message: `must be glove or none (got ${String(values.bertscore)})` });
      }
      evidenceScorer = createAveritecEvidenceScorer({ synonyms: synonyms.lookup, ...(embedTokens ? { embedTokens } : {}) });
      contextNotes.push(`METEOR: the AVeriTeC scorer's Hungarian METEOR (NLTK tokens, WordNet ${synonyms.version ?? ''} synonyms) on the top-k retrieved sentences vs the QA evidence.`);
    }
  } else {
    bm25 = await createBm25Wiring(dataset.corpus);
  }
  const verdictLabels = verdictLabelsFor(dataset.name);
  let documentsNotEmbedded = 0;
  let dense: { embedder: Embedder; retriever: Retriever } | undefined;
  const getDense = async (): Promise<{ embedder: Embedder; retriever: Retriever }> => {
    if (dense) return dense;
    const embedderName = values.embedder ?? 'use-lite';
    const base =
      embedderName === 'use-lite'
        ? getUseLite()
        : withEmbeddingRetry((provider as NonNullable<typeof provider>).embedder(embedderName, { dimensions: parsePositiveInteger(values['embedding-dimensions'], 'embedding-dimensions', 1536) }), { maxRetries: 2 });
    const embedder = withEmbeddingCache(base, cache);
    io.log(`leakage-study: embedding ${dataset.corpus.length} documents with ${embedder.id} for HyDE (cached)…\n`);
    const built = await buildDenseRetriever(dataset.corpus, embedder, io.abortSignal);
    documentsNotEmbedded = built.problems.length;
    if (built.problems.length > 0) {
      const byCode = new Map<string, number>();
      for (const problem of built.problems) byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
      const reasons = [...byCode.entries()].map(([code, count]) => `${code} × ${count}`).join(', ');
      contextIncomplete.push(`${built.problems.length} of ${dataset.corpus.length} documents could not be embedded (${reasons}; first: ${built.problems[0]?.message ?? ''}): the dense and HyDE rows search an incomplete store`);
    }
    dense = { embedder, retriever: built.retriever };
    return dense;
  };

  const command = ['pnpm --filter leakage-study start', ...(args.length > 0 ? ['--', ...args] : [])].join(' ');
  const corpusNote =
    dataset.name === 'AVeriTeC'
      ? '> AVeriTeC dev (400 of the 500 claims are in the data root): gold evidence = the human-written QA evidence; retrieval from each claim\'s own knowledge store, scored with Hungarian METEOR / BERTScore on the top-k sentences as in the paper.'
      : dataset.name === 'FEVER-lite'
      ? '> FEVER-lite: the knowledge store is the pool of gold-evidence sentences of the split, not the 5.4M-page Wikipedia of the paper, so these numbers are not comparable with the paper\'s FEVER columns.'
      : dataset.unit === 'sentence'
        ? '> SciFact, sentence level as in the paper: the knowledge store is the 45,952 sentences of the 5,183 abstracts (SciFact\'s own split), gold = rationale sentences. The paper reports 693 claims; the public files have 655 with gold evidence.'
        : '> SciFact, abstract level (not the paper\'s unit): whole abstracts judged by the BEIR qrels; not comparable with the paper\'s sentence-level rows.';
  const llmModels = usesLlm ? modelNames : [undefined];
  const perModel: { modelName: string | undefined; results: MethodResult[]; reportPath: string; plotPath: string; resultsPath: string; usage: ReturnType<ReturnType<typeof createUsageMeter>['report']> }[] = [];
  const versions = packageVersions();
  const datasetHashes = await hashFiles(dataset.files);

  for (const [modelIndex, modelName] of llmModels.entries()) {
    io.abortSignal?.throwIfAborted();
    const meter = createUsageMeter();
    // The meter wraps the cached model, so it counts cache hits too (cachedCalls).
    const model: LanguageModel | undefined =
      modelName === undefined || !provider ? undefined : meter.track(withCache(withRetry(provider.languageModel(modelName), { maxRetries: 2 }), cache));
    let nli: NliModel;
    if (values.nli === 'feature') nli = createFeatureNliModel({ embedder: getGlove() });
    else if (values.nli === 'lexical') nli = createLexicalNliModel();
    else if (values.nli === 'llm' && model) nli = createLlmNliJudge({ model });
    else throw new InvalidArgumentError({ where, argument: '--nli', message: `must be feature, lexical or llm (got ${values.nli})` });

    const studyMethods: StudyMethod[] = [];
    for (const method of methods) {
      // The LLM-free baseline expansion (RM3) does not depend on the model: it runs with the first model only.
      if (method === 'rm3' && modelIndex === 0 && bm25.retriever && bm25.rm3) {
        studyMethods.push({ name: 'BM25+RM3', baselineName: 'BM25', retriever: bm25.retriever, expander: bm25.rm3, repeats: 1 });
      } else if (method === 'query2doc' && model) {
        studyMethods.push({ name: 'Query2doc', baselineName: 'BM25', retriever: bm25.retriever, expander: createQuery2docExpander({ model }), repeats });
      } else if (method === 'multi-query' && model) {
        const retriever = bm25.retriever ? createSubQueryFusionRetriever(bm25.retriever) : undefined;
        studyMethods.push({ name: 'Multi-query (RRF)', baselineName: 'BM25', retriever, expander: createMultiQueryExpander({ model }), repeats });
      } else if (method === 'hyde' && model && datasetName === 'averitec') {
        // AVeriTeC's knowledge stores are per claim; HyDE's dense index is built over one corpus, so it runs as matching only.
        studyMethods.push({ name: 'HyDE', baselineName: 'Dense', retriever: undefined, expander: createHydeExpander({ model, embedder: withEmbeddingCache(getUseLite(), cache), prompt: EXPANSION_PROMPTS.hyde.averitec }), repeats });
      } else if (method === 'hyde' && model) {
        const { embedder, retriever } = await getDense();
        const prompt = datasetName === 'scifact' ? EXPANSION_PROMPTS.hyde.scifact : EXPANSION_PROMPTS.hyde.fever;
        studyMethods.push({ name: 'HyDE', baselineName: `Dense (${embedder.id})`, retriever, expander: createHydeExpander({ model, embedder, prompt }), repeats });
      }
    }

    let lastLine = 0;
    const label = modelName === undefined ? '' : `${modelName}: `;
    const results = await runStudies({
      dataset,
      methods: studyMethods,
      nli,
      ks,
      concurrency,
      ...(evidenceScorer ? { evidenceScorer } : {}),
      ...(values.verdicts && model ? { verdictModel: model, verdictLabels } : {}),
      ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
      onProgress: (method, progress) => {
        const now = Date.now();
        if (progress.completed !== progress.total && now - lastLine < 500) return;
        lastLine = now;
        const stage = progress.stage === 'baseline' ? 'baseline' : `repeat ${(progress.repeat ?? 0) + 1}`;
        io.log(`leakage-study: ${label}${method} ${stage}: ${progress.completed}/${progress.total} claims\n`);
      },
    });

    const usage = meter.report();
    const notes = model
      ? [`LLM: \`${model.id}\`; calls ${usage.calls} (${usage.cachedCalls} from cache), tokens ${usage.totalTokens}`, `Cache: ${cacheDirectory}`]
      : ['No LLM used (offline run).'];
    notes.push(...contextNotes);
    notes.push(
      `Provenance (full in results.json: every prompt, seed and NLI label matrix): packages ${Object.entries(versions).map(([name, version]) => `${name.slice('@factkit/'.length)} ${version}`).join(', ')}; data ${Object.entries(datasetHashes).map(([path, hash]) => `${path.split('/').slice(-2).join('/')} sha256:${hash.slice(0, 12)}`).join(', ')}`,
    );
    if (values.verdicts && model) notes.push(`Verdict labels offered (paper footnote 1, Fig. A2 [LABEL]): ${verdictLabels.join(', ')}`);
    const context = { datasetName: dataset.name, claims: dataset.claims.length, corpusSize: dataset.corpus.length, command, notes, corpusNote, incomplete: contextIncomplete };
    const report = formatStudyReport(results, context);
    const plot = formatStudyPlot(results, { datasetName: dataset.name });
    const directory = llmModels.length > 1 && modelName !== undefined ? join(outDirectory, slug(modelName)) : outDirectory;
    await mkdir(directory, { recursive: true });
    const reportPath = join(directory, 'report.md');
    const plotPath = join(directory, 'leakage-study.svg');
    const resultsPath = join(directory, 'results.json');
    await writeFile(reportPath, report);
    await writeFile(plotPath, plot);
    const provenance = {
      command,
      createdAt: new Date().toISOString(),
      packages: versions,
      datasetFiles: datasetHashes,
      dataset: { name: dataset.name, unit: dataset.unit, claims: dataset.claims.length, documents: dataset.corpus.length },
      model: model ? { id: model.id, provider: model.provider ?? null } : null,
      nli: nli.id,
      sampling: { repeats, seeds: 'generation r of a claim is sampled with seed r (0-based)', temperature: 0.7, topP: 1, maxTokens: 512 },
      verdictLabels: values.verdicts && model ? verdictLabels : null,
      usage,
      incomplete: incompleteReasons(results, context),
    };
    await writeFile(
      resultsPath,
      `${JSON.stringify(
        {
          provenance,
          methods: results.map(({ method, baselineName, matching, result }) => ({
            method,
            baselineName,
            matching,
            ...result,
            baselineRuns: result.baselineRuns?.map((run) => ({ claimId: run.claimId, retrieved: run.retrieved, metrics: run.metrics, verdicts: run.verdicts ?? null, problems: run.problems })),
            runs: result.runs.map((run) => ({
              claimId: run.claimId,
              sample: run.sample,
              generations: run.generations,
              provenance: run.provenance ?? null,
              retrieved: run.retrieved,
              metrics: run.metrics,
              verdicts: run.verdicts ?? null,
              matched: run.match?.matched ?? null,
              sentences: run.match?.sentences ?? [],
              nliLabels: run.match?.labels ?? [],
              entailingPairs: run.match?.entailingPairs ?? [],
              removedSentences: run.match?.removedSentences ?? [],
              problems: run.problems,
            })),
          })),
        },
        null,
        1,
      )}\n`,
    );
    io.log(`leakage-study: wrote ${reportPath}, ${plotPath}, ${resultsPath}\n`);
    perModel.push({ modelName, results, reportPath, plotPath, resultsPath, usage });
  }

  let gridPath: string | undefined;
  if (perModel.length > 1) {
    gridPath = join(outDirectory, 'grid.md');
    await writeFile(gridPath, formatModelGrid(perModel.map((entry) => ({ model: entry.modelName ?? 'offline', methods: entry.results })), { datasetName: dataset.name, command, corpusNote }));
    io.log(`leakage-study: wrote ${gridPath}\n`);
  }

  const reasons = [...contextIncomplete, ...perModel.flatMap((entry) => entry.results.flatMap((result) => result.result.incomplete.map((reason) => `${entry.modelName ? `${entry.modelName} ` : ''}${result.method}: ${reason}`)))];
  const failures =
    perModel.reduce(
      (total, entry) =>
        total +
        entry.results.reduce((sum, { result }) => {
          const { counts } = result;
          const claimFailures = [...result.runs, ...(result.baselineRuns ?? [])].filter((run) => run.failedStage === 'claim').length;
          return sum + counts.expansionFailed + counts.unknown + counts.retrievalFailed + counts.verdictFailed + claimFailures;
        }, 0),
      0,
    ) +
    documentsNotEmbedded +
    claimsWithoutStore;
  const first = perModel[0] as (typeof perModel)[number];
  const exitCode = failures > maxFailures ? EXIT_CODES.incomplete : EXIT_CODES.ok;
  const summary =
    failures === 0
      ? `leakage-study: complete; report in ${first.reportPath}`
      : `leakage-study: ${failures} failed item(s)${failures > maxFailures ? ` (more than --max-failures ${maxFailures})` : ''}: ${reasons.join('; ')}; the report marks them (${first.reportPath})`;
  return { reportPath: first.reportPath, plotPath: first.plotPath, resultsPath: first.resultsPath, ...(gridPath ? { gridPath } : {}), failures, exitCode, summary };
}
