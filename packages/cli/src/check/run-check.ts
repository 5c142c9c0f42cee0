import { readInputFile } from '../read-input-file.js';
import { fileURLToPath } from 'node:url';
import type { ClaimQueryGenerator, ClaimVerifier, DetectionResult, QaItem } from '@factkit/claim-query';
import { createDrafterGenerator, createJointCqGenerator, createLlmVerifier, createNliVerifier, detectHallucinations } from '@factkit/claim-query';
import type { Document, Embedder, ItemProblem, LanguageModel, ProgressCallback } from '@factkit/core';
import { CorruptDataError, InvalidArgumentError, withCache, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createOpenAICompatible } from '@factkit/openai';
import { createBm25Retriever } from '@factkit/retrieval';
import { createUseLiteEmbedder } from '@factkit/use-lite';

/** The corpus `factkit check` searches by default: 3,493 unique FEVER-lite evidence sentences (Wikipedia), shipped in the package. */
export const DEFAULT_CHECK_CORPUS = fileURLToPath(new URL('../corpus/fever-evidence.jsonl', import.meta.url));

/** An OpenAI-compatible endpoint for the JointCQ generator and the LLM verifier. */
export interface CheckEndpoint {
  /** Base URL including `/v1`. */
  readonly baseURL: string;
  /** API key; never logged, cached or reported. */
  readonly apiKey?: string;
  /** Generator model id (the fine-tuned JointCQ model in the paper). */
  readonly model: string;
  /** Verifier model id. @default model */
  readonly verifierModel?: string;
  /** Directory of the call cache (re-running resumes from it). */
  readonly cacheDirectory?: string;
  /** Retries per call after the first attempt. @default 2 */
  readonly maxRetries?: number;
}

export interface CheckAnswersOptions {
  readonly items: readonly QaItem[];
  /** JSONL corpus with `id`/`_id`, `text`, optional `title` and `source` per line. @default DEFAULT_CHECK_CORPUS */
  readonly corpus?: string;
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
  readonly corpusSize: number;
  /** Corpus lines that could not be read. */
  readonly problems: ItemProblem[];
}

/** Reads a JSONL corpus into documents (`id` or `_id`, `text`, optional `title`, `source`); bad lines become problems. */
export async function loadJsonlCorpus(path: string): Promise<{ documents: Document[]; problems: ItemProblem[] }> {
  const text = await readInputFile(path, { command: 'check', flag: '--corpus' });
  const documents: Document[] = [];
  const problems: ItemProblem[] = [];
  text.split('\n').forEach((line, position) => {
    if (line.trim() === '') return;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      problems.push({ code: 'bad-json', message: `${path}:${position + 1}: not valid JSON` });
      return;
    }
    const id = row['id'] ?? row['_id'];
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof row['text'] !== 'string') {
      problems.push({ code: 'bad-document', message: `${path}:${position + 1}: needs "id" (or "_id") and "text"` });
      return;
    }
    const source = typeof row['source'] === 'string' ? row['source'] : typeof row['url'] === 'string' ? row['url'] : String(id);
    documents.push({ id: String(id), text: row['text'], ...(typeof row['title'] === 'string' && row['title'] ? { title: row['title'] } : {}), metadata: { source } });
  });
  if (documents.length === 0) throw new CorruptDataError({ source: path, message: `corpus "${path}" has no readable document` });
  return { documents, problems };
}

function connect(endpoint: CheckEndpoint, modelId: string): LanguageModel {
  const provider = createOpenAICompatible({ baseURL: endpoint.baseURL, ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}) });
  const model = withRetry(provider.languageModel(modelId), { maxRetries: endpoint.maxRetries ?? 2 });
  return endpoint.cacheDirectory ? withCache(model, createFileCache({ directory: endpoint.cacheDirectory })) : model;
}

/**
 * The job of `factkit check`: @factkit/claim-query's `detectHallucinations` over a local corpus. Offline (no
 * endpoint): the LLM-free drafter baseline (not JointCQ), BM25 and the lexical NLI verifier of @factkit/nli-models.
 * With an endpoint: the JointCQ generator and the LLM verifier (calls cached when `cacheDirectory` is set), claims
 * aligned to sentences with the embedded USE-lite encoder.
 * @throws InvalidArgumentError for an unreadable corpus; CorruptDataError for a corpus without documents.
 */
export async function checkAnswers(options: CheckAnswersOptions): Promise<CheckAnswersResult> {
  const { items, corpus = DEFAULT_CHECK_CORPUS, endpoint, topK = 10, concurrency = 4, abortSignal, onProgress } = options;
  const { documents, problems } = await loadJsonlCorpus(corpus);
  const retriever = createBm25Retriever(documents);
  let generator: ClaimQueryGenerator = createDrafterGenerator();
  let verifier: ClaimVerifier = createNliVerifier({ nli: createLexicalNliModel() });
  let embedder: Embedder | undefined;
  if (endpoint) {
    generator = createJointCqGenerator({ model: connect(endpoint, endpoint.model) });
    verifier = createLlmVerifier({ model: connect(endpoint, endpoint.verifierModel ?? endpoint.model) });
    embedder = createUseLiteEmbedder();
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
  return { results, corpus, corpusSize: documents.length, problems };
}
