// The study wiring behind every entry point: models and retrievers from typed options, one run of nli-match's
// runLeakageStudy per method (and per chat model), then the report files. The scripts (scifact.ts, fever.ts,
// averitec.ts, model-grid.ts) and the full command line (cli.ts) only choose the options.
import { join } from 'node:path';
import { createUsageMeter, InvalidArgumentError, withCache, withEmbeddingCache, withEmbeddingRetry, withRetry, type Embedder, type LanguageModel, type NliModel, type Progress, type QueryExpander, type Retriever } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createHydeExpander, createMultiQueryExpander, createQuery2docExpander, EXPANSION_PROMPTS } from '@factkit/expansion';
import { createGloveEmbedder, loadGloveVectors, tokenizeForGlove } from '@factkit/glove';
import { loadWordNetSynonyms } from '@factkit/metrics/node';
import type { EvidenceScorer } from '@factkit/nli-match';
import { createFeatureNliModel, createLexicalNliModel, createLlmNliJudge } from '@factkit/nli-models';
import { type OpenAICompatibleProvider, createOpenAICompatible } from '@factkit/openai';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { writeFile } from 'node:fs/promises';
import { createAveritecEvidenceScorer, createPerClaimWiring, loadAveritecKnowledgeStore } from './averitec-data.js';
import { verdictLabelsFor, type StudyDataset } from './datasets.js';
import { countFailures, hashFiles, packageVersions, writeStudyOutput } from './output.js';
import { formatModelGrid, type MethodResult } from './report-markdown.js';
import { runStudies, type StudyMethod } from './study.js';
import { buildDenseRetriever, createBm25Wiring, createBm25WiringSync, createSubQueryFusionRetriever } from './wiring.js';

/** Exit codes of the command: 0 = every number whole; 2 = bad input; 3 = failures beyond maxFailures; 130 = interrupted. */
export const EXIT_CODES = { ok: 0, error: 1, badInput: 2, incomplete: 3, interrupted: 130 } as const;

export type MethodName = 'rm3' | 'query2doc' | 'hyde' | 'multi-query';

/** What one run of the study produced. */
export interface StudyOutcome {
  readonly reportPath: string;
  readonly plotPath: string;
  readonly resultsPath: string;
  /** The multi-LLM grid (Tables 2–4 and 3 across models), written when more than one chat model ran. */
  readonly gridPath?: string;
  /** Failed items over every method and model (expansions, unknown matches, retrievals, verdicts, claim runs, documents not embedded). */
  readonly failures: number;
  /** 0 when every number is whole or the failures are within maxFailures; 3 otherwise. */
  readonly exitCode: number;
  /** One line: what was written, or what failed. */
  readonly summary: string;
}

export interface StudyIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Progress and messages (stderr in the scripts). */
  readonly log: (text: string) => void;
  readonly abortSignal?: AbortSignal;
}

export interface StudyOptions {
  readonly dataset: StudyDataset;
  readonly methods: readonly MethodName[];
  /** Chat models on the endpoint of OPENAI_BASE_URL / OPENAI_API_KEY; ignored when no method, NLI or verdict needs one. */
  readonly modelNames: readonly string[];
  readonly nli: 'feature' | 'lexical' | 'llm';
  readonly repeats: number;
  readonly ks: readonly number[];
  readonly concurrency: number;
  readonly verdicts: boolean;
  readonly maxFailures: number;
  readonly outDirectory: string;
  readonly cacheDirectory: string;
  /** The command line recorded in the report and results.json. */
  readonly command: string;
  /** AVeriTeC: the per-claim knowledge-store folder. */
  readonly knowledgeStore?: string;
  /** AVeriTeC: token vectors for Hungarian BERTScore. @default 'glove' */
  readonly bertscore?: 'glove' | 'none';
  /** HyDE encoder: 'use-lite' (offline) or an embedding model of the endpoint. @default 'use-lite' */
  readonly embedder?: string;
  /** @default 1536 */
  readonly embeddingDimensions?: number;
}

/** True when a method, the NLI model or the verdicts need a chat model. */
export const needsLanguageModel = (options: Pick<StudyOptions, 'methods' | 'nli' | 'verdicts'>): boolean => options.methods.some((method) => method !== 'rm3') || options.nli === 'llm' || options.verdicts;

const slug = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_');

/** The dataset a run wires for (AVeriTeC has per-claim knowledge stores). */
type DatasetKey = 'averitec' | 'fever-lite' | 'scifact';

/** The models, encoders, retrievers and notes every chat model's run shares (each built once, lazily where costly). */
interface StudyResources {
  readonly cache: ReturnType<typeof createFileCache>;
  readonly provider: OpenAICompatibleProvider | undefined;
  readonly getUseLite: () => Embedder;
  readonly getGlove: () => Embedder;
  readonly getDense: () => Promise<{ embedder: Embedder; retriever: Retriever }>;
  readonly wiring: Awaited<ReturnType<typeof averitecWiring>>;
  /** Why some numbers are not whole, found while wiring (missing knowledge stores, documents not embedded). */
  readonly contextIncomplete: string[];
  readonly contextNotes: string[];
  /** Documents the dense store could not embed (known once `getDense` ran). */
  documentsNotEmbedded: number;
}

/** What one chat model's run (or the offline run) wrote. */
interface ModelRun {
  readonly modelName: string | undefined;
  readonly results: MethodResult[];
  readonly reportPath: string;
  readonly plotPath: string;
  readonly resultsPath: string;
  readonly usage: ReturnType<ReturnType<typeof createUsageMeter>['report']>;
}

/** Step 1: the shared cache, encoders, provider and retrievers of the study. */
async function createStudyResources(options: StudyOptions, io: StudyIo, usesLlm: boolean, datasetName: DatasetKey): Promise<StudyResources> {
  const { dataset, cacheDirectory, knowledgeStore } = options;
  const { bertscore = 'glove', embedder: embedderName = 'use-lite', embeddingDimensions = 1536 } = options;
  // Every model call goes through one persistent cache: a rerun after an interruption repeats no call.
  const cache = createFileCache({ directory: cacheDirectory });
  let useLite: Embedder | undefined;
  const getUseLite = () => (useLite ??= createUseLiteEmbedder({ backend: 'auto' }));
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
  const wiring = datasetName === 'averitec' ? await averitecWiring(dataset, knowledgeStore, bertscore, io) : { bm25: await createBm25Wiring(dataset.corpus), claimsWithoutStore: 0, notes: [], incomplete: [] };
  let dense: { embedder: Embedder; retriever: Retriever } | undefined;
  const resources: StudyResources = {
    cache,
    provider,
    getUseLite,
    getGlove,
    wiring,
    contextIncomplete: [...wiring.incomplete],
    contextNotes: [...wiring.notes],
    documentsNotEmbedded: 0,
    getDense: async () => {
      if (dense) return dense;
      const base = embedderName === 'use-lite' ? getUseLite() : withEmbeddingRetry((provider as NonNullable<typeof provider>).embedder(embedderName, { dimensions: embeddingDimensions }), { maxRetries: 2 });
      const embedder = withEmbeddingCache(base, cache);
      io.log(`leakage-study: embedding ${dataset.corpus.length} documents with ${embedder.id} for HyDE (cached)…\n`);
      const built = await buildDenseRetriever(dataset.corpus, embedder, io.abortSignal);
      resources.documentsNotEmbedded = built.problems.length;
      if (built.problems.length > 0) {
        const byCode = new Map<string, number>();
        for (const problem of built.problems) byCode.set(problem.code, (byCode.get(problem.code) ?? 0) + 1);
        const reasons = [...byCode.entries()].map(([code, count]) => `${code} × ${count}`).join(', ');
        resources.contextIncomplete.push(`${built.problems.length} of ${dataset.corpus.length} documents could not be embedded (${reasons}; first: ${built.problems[0]?.message ?? ''}): the dense and HyDE rows search an incomplete store`);
      }
      dense = { embedder, retriever: built.retriever };
      return dense;
    },
  };
  return resources;
}

/** Step 2: every method with one chat model (or none), then its report, plot and results.json. */
async function runForModel(
  options: StudyOptions,
  io: StudyIo,
  resources: StudyResources,
  run: { modelName: string | undefined; firstModel: boolean; manyModels: boolean; datasetName: DatasetKey; corpusNote: string; versions: Record<string, string>; datasetHashes: Record<string, string> },
): Promise<ModelRun> {
  const { dataset, methods, repeats, ks, concurrency, verdicts, outDirectory, cacheDirectory, command, nli: nliName } = options;
  const { modelName, firstModel, manyModels, datasetName, corpusNote, versions, datasetHashes } = run;
  const { cache, provider, getUseLite, getGlove, getDense, wiring } = resources;
  const verdictLabels = verdictLabelsFor(dataset.name);
  const meter = createUsageMeter();
  // The meter wraps the cached model, so it counts cache hits too (cachedCalls).
  const model = modelName === undefined || !provider ? undefined : meter.track(withCache(withRetry(provider.languageModel(modelName), { maxRetries: 2 }), cache));
  const nli = nliModelFor(nliName, model, getGlove);
  const studyMethods = await studyMethodsFor({ methods, model, firstModel, bm25: wiring.bm25, repeats, datasetName, getDense, hydeEmbedder: () => withEmbeddingCache(getUseLite(), cache) });

  const results = await runStudies({
    dataset,
    methods: studyMethods,
    nli,
    ks,
    concurrency,
    ...(wiring.evidenceScorer ? { evidenceScorer: wiring.evidenceScorer } : {}),
    ...(verdicts && model ? { verdictModel: model, verdictLabels } : {}),
    ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    onProgress: progressLogger(io, modelName === undefined ? '' : `${modelName}: `),
  });

  const usage = meter.report();
  const notes = model ? [`LLM: \`${model.id}\`; calls ${usage.calls} (${usage.cachedCalls} from cache), tokens ${usage.totalTokens}`, `Cache: ${cacheDirectory}`] : ['No LLM used (offline run).'];
  notes.push(...resources.contextNotes);
  notes.push(
    `Provenance (full in results.json: every prompt, seed and NLI label matrix): packages ${Object.entries(versions)
      .map(([name, version]) => `${name.slice('@factkit/'.length)} ${version}`)
      .join(', ')}; data ${Object.entries(datasetHashes)
      .map(([path, hash]) => `${path.split('/').slice(-2).join('/')} sha256:${hash.slice(0, 12)}`)
      .join(', ')}`,
  );
  if (verdicts && model) notes.push(`Verdict labels offered (paper footnote 1, Fig. A2 [LABEL]): ${verdictLabels.join(', ')}`);
  const context = { datasetName: dataset.name, claims: dataset.claims.length, corpusSize: dataset.corpus.length, command, notes, corpusNote, incomplete: resources.contextIncomplete };
  const directory = manyModels && modelName !== undefined ? join(outDirectory, slug(modelName)) : outDirectory;
  const provenance = {
    command,
    createdAt: new Date().toISOString(),
    packages: versions,
    datasetFiles: datasetHashes,
    dataset: { name: dataset.name, unit: dataset.unit, claims: dataset.claims.length, documents: dataset.corpus.length },
    model: model ? { id: model.id, provider: model.provider ?? null } : null,
    nli: nli.id,
    sampling: { repeats, seeds: 'generation r of a claim is sampled with seed r (0-based)', temperature: 0.7, topP: 1, maxTokens: 512 },
    verdictLabels: verdicts && model ? verdictLabels : null,
    usage,
  };
  const { reportPath, plotPath, resultsPath } = await writeStudyOutput(directory, results, context, provenance);
  io.log(`leakage-study: wrote ${reportPath}, ${plotPath}, ${resultsPath}\n`);
  return { modelName, results, reportPath, plotPath, resultsPath, usage };
}

/** Step 3 (several chat models): the grid of every model's rows, in `grid.md`. */
async function writeGrid(perModel: readonly ModelRun[], options: StudyOptions, io: StudyIo, corpusNote: string): Promise<string> {
  const gridPath = join(options.outDirectory, 'grid.md');
  await writeFile(
    gridPath,
    formatModelGrid(
      perModel.map((entry) => ({ model: entry.modelName ?? 'offline', methods: entry.results })),
      { datasetName: options.dataset.name, command: options.command, corpusNote },
    ),
  );
  io.log(`leakage-study: wrote ${gridPath}\n`);
  return gridPath;
}

/** Step 4: failures over every model and method, the exit code and the one-line summary. */
function summariseStudy(perModel: readonly ModelRun[], resources: StudyResources, maxFailures: number, gridPath: string | undefined): StudyOutcome {
  const reasons = [...resources.contextIncomplete, ...perModel.flatMap((entry) => entry.results.flatMap((result) => result.result.incomplete.map((reason) => `${entry.modelName ? `${entry.modelName} ` : ''}${result.method}: ${reason}`)))];
  const failures = perModel.reduce((total, entry) => total + countFailures(entry.results), 0) + resources.documentsNotEmbedded + resources.wiring.claimsWithoutStore;
  const first = perModel[0] as ModelRun;
  const exitCode = failures > maxFailures ? EXIT_CODES.incomplete : EXIT_CODES.ok;
  const summary =
    failures === 0
      ? `leakage-study: complete; report in ${first.reportPath}`
      : `leakage-study: ${failures} failed item(s)${failures > maxFailures ? ` (more than --max-failures ${maxFailures})` : ''}: ${reasons.join('; ')}; the report marks them (${first.reportPath})`;
  return { reportPath: first.reportPath, plotPath: first.plotPath, resultsPath: first.resultsPath, ...(gridPath ? { gridPath } : {}), failures, exitCode, summary };
}

/** Runs the study; returns the paths it wrote and the exit code the command should use. */
export async function runStudy(options: StudyOptions, io: StudyIo): Promise<StudyOutcome> {
  const { dataset, modelNames, maxFailures } = options;
  const usesLlm = needsLanguageModel(options);
  const datasetName: DatasetKey = dataset.name === 'AVeriTeC' ? 'averitec' : dataset.name === 'FEVER-lite' ? 'fever-lite' : 'scifact';
  const resources = await createStudyResources(options, io, usesLlm, datasetName);
  const corpusNote = corpusNoteOf(dataset);
  const llmModels = usesLlm ? modelNames : [undefined];
  const versions = packageVersions();
  const datasetHashes = await hashFiles(dataset.files);
  const perModel: ModelRun[] = [];
  for (const [modelIndex, modelName] of llmModels.entries()) {
    io.abortSignal?.throwIfAborted();
    perModel.push(await runForModel(options, io, resources, { modelName, firstModel: modelIndex === 0, manyModels: llmModels.length > 1, datasetName, corpusNote, versions, datasetHashes }));
  }
  const gridPath = perModel.length > 1 ? await writeGrid(perModel, options, io, corpusNote) : undefined;
  return summariseStudy(perModel, resources, maxFailures, gridPath);
}

type Bm25 = { retriever: Retriever | undefined; rm3: QueryExpander | undefined };

/** AVeriTeC: BM25 and RM3 over each claim's own knowledge store, and the Hungarian METEOR / BERTScore evidence scorer. */
async function averitecWiring(
  dataset: StudyDataset,
  storeDirectory: string | undefined,
  bertscore: string,
  io: StudyIo,
): Promise<{ bm25: Bm25; evidenceScorer?: EvidenceScorer; claimsWithoutStore: number; notes: string[]; incomplete: string[] }> {
  const where = 'leakage-study';
  const notes: string[] = [];
  const incomplete: string[] = [];
  if (storeDirectory === undefined) {
    notes.push("No --knowledge-store: the METEOR, BERTScore and F1 columns need AVeriTeC's per-claim knowledge store; only matching (Table 3) ran.");
    return { bm25: { retriever: undefined, rm3: undefined }, claimsWithoutStore: 0, notes, incomplete };
  }
  const { stores, missing } = await loadAveritecKnowledgeStore(
    storeDirectory,
    dataset.claims.map((claim) => claim.id),
  );
  if (missing.length > 0) incomplete.push(`${missing.length} of ${dataset.claims.length} claims have no knowledge-store file (e.g. ${missing.slice(0, 3).join(', ')}): they retrieve nothing`);
  const bm25 = createPerClaimWiring(stores, (documents) => createBm25WiringSync(documents));
  const synonyms = await loadWordNetSynonyms();
  let embedTokens: ((text: string) => { tokens: string[]; embeddings: Float32Array[] }) | undefined;
  if (bertscore === 'glove') {
    io.log('leakage-study: loading GloVe vectors for BERTScore…\n');
    const glove = await loadGloveVectors();
    embedTokens = (text) => {
      const { tokens, rows } = tokenizeForGlove(text, glove);
      return { tokens, embeddings: rows.map((row) => glove.matrix.subarray(row * glove.dimensions, (row + 1) * glove.dimensions)) };
    };
    notes.push("BERTScore: Hungarian-matched F1 over GloVe 100-d token vectors (offline stand-in for the paper's BERT model).");
  } else if (bertscore !== 'none') {
    throw new InvalidArgumentError({ where, argument: '--bertscore', message: `must be glove or none (got ${String(bertscore)})` });
  }
  const evidenceScorer = createAveritecEvidenceScorer({ synonyms: synonyms.lookup, ...(embedTokens ? { embedTokens } : {}) });
  notes.push(`METEOR: the AVeriTeC scorer's Hungarian METEOR (NLTK tokens, WordNet ${synonyms.version ?? ''} synonyms) on the top-k retrieved sentences vs the QA evidence.`);
  return { bm25, evidenceScorer, claimsWithoutStore: missing.length, notes, incomplete };
}

/** The report's note on the dataset and how comparable it is with the paper. */
function corpusNoteOf(dataset: StudyDataset): string {
  return dataset.name === 'AVeriTeC'
    ? "> AVeriTeC dev (400 of the 500 claims are in the data root): gold evidence = the human-written QA evidence; retrieval from each claim's own knowledge store, scored with Hungarian METEOR / BERTScore on the top-k sentences as in the paper."
    : dataset.name === 'FEVER-lite'
      ? "> FEVER-lite: the knowledge store is the pool of gold-evidence sentences of the split, not the 5.4M-page Wikipedia of the paper, so these numbers are not comparable with the paper's FEVER columns."
      : dataset.unit === 'sentence'
        ? "> SciFact, sentence level as in the paper: the knowledge store is the 45,952 sentences of the 5,183 abstracts (SciFact's own split), gold = rationale sentences. The paper reports 693 claims; the public files have 655 with gold evidence."
        : "> SciFact, abstract level (not the paper's unit): whole abstracts judged by the BEIR qrels; not comparable with the paper's sentence-level rows.";
}

/** The row groups of one chat model's run (RM3 runs with the first model only: it does not depend on the model). */
async function studyMethodsFor(context: {
  methods: readonly MethodName[];
  model: LanguageModel | undefined;
  firstModel: boolean;
  bm25: Bm25;
  repeats: number;
  datasetName: 'scifact' | 'fever-lite' | 'averitec';
  getDense: () => Promise<{ embedder: Embedder; retriever: Retriever }>;
  hydeEmbedder: () => Embedder;
}): Promise<StudyMethod[]> {
  const { methods, model, firstModel, bm25, repeats, datasetName, getDense, hydeEmbedder } = context;
  const studyMethods: StudyMethod[] = [];
  for (const method of methods) {
    // The LLM-free baseline expansion (RM3) does not depend on the model: it runs with the first model only.
    if (method === 'rm3' && firstModel && bm25.retriever && bm25.rm3) {
      studyMethods.push({ name: 'BM25+RM3', baselineName: 'BM25', retriever: bm25.retriever, expander: bm25.rm3, repeats: 1 });
    } else if (method === 'query2doc' && model) {
      studyMethods.push({ name: 'Query2doc', baselineName: 'BM25', retriever: bm25.retriever, expander: createQuery2docExpander({ model }), repeats });
    } else if (method === 'multi-query' && model) {
      const retriever = bm25.retriever ? createSubQueryFusionRetriever(bm25.retriever) : undefined;
      studyMethods.push({ name: 'Multi-query (RRF)', baselineName: 'BM25', retriever, expander: createMultiQueryExpander({ model }), repeats });
    } else if (method === 'hyde' && model && datasetName === 'averitec') {
      // AVeriTeC's knowledge stores are per claim; HyDE's dense index is built over one corpus, so it runs as matching only.
      studyMethods.push({ name: 'HyDE', baselineName: 'Dense', retriever: undefined, expander: createHydeExpander({ model, embedder: hydeEmbedder(), prompt: EXPANSION_PROMPTS.hyde.averitec }), repeats });
    } else if (method === 'hyde' && model) {
      const { embedder, retriever } = await getDense();
      const prompt = datasetName === 'scifact' ? EXPANSION_PROMPTS.hyde.scifact : EXPANSION_PROMPTS.hyde.fever;
      studyMethods.push({ name: 'HyDE', baselineName: `Dense (${embedder.id})`, retriever, expander: createHydeExpander({ model, embedder, prompt }), repeats });
    }
  }
  return studyMethods;
}

/** The NLI model that matches generated sentences against gold evidence. */
function nliModelFor(name: string, model: LanguageModel | undefined, getGlove: () => Embedder): NliModel {
  if (name === 'feature') return createFeatureNliModel({ embedder: getGlove() });
  if (name === 'lexical') return createLexicalNliModel();
  if (name === 'llm' && model) return createLlmNliJudge({ model });
  throw new InvalidArgumentError({ where: 'leakage-study', argument: '--nli', message: `must be feature, lexical or llm (got ${name})` });
}

/** One progress line per method and stage at most every 500 ms (and at the end of each). */
function progressLogger(io: StudyIo, label: string): (method: string, progress: Progress) => void {
  let lastLine = 0;
  return (method, progress) => {
    const now = Date.now();
    if (progress.completed !== progress.total && now - lastLine < 500) return;
    lastLine = now;
    io.log(`leakage-study: ${label}${method} ${progress.stage === 'baseline' ? 'baseline' : 'repeats'}: ${progress.completed}/${progress.total} claim runs\n`);
  };
}
