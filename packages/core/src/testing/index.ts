import type { Document } from '../document.js';
import type { Embedder, EmbedRequest } from '../embedder.js';
import type { Evidence } from '../evidence.js';
import { evidenceOrigin } from '../evidence.js';
import type { GenerateRequest, GenerateResult, LanguageModel } from '../language-model.js';
import type { ExpandRequest, QueryExpander } from '../query-expander.js';
import type { ExpandedQuery, Query } from '../query.js';
import { EMPTY_USAGE } from '../usage.js';
import type { NliLabel, NliModel, NliPair, NliRequest } from '../nli-model.js';
import type { Retriever, RetrieveRequest } from '../retriever.js';
import type { CoreProblemCode } from '../outcome/core-problem-code.js';
import type { Reranker, RerankRequest } from '../reranker.js';
import type { VectorMatch, VectorRecord, VectorStore } from '../vector-store.js';
import { InvalidArgumentError } from '../errors/factkit-error.js';
import { tokenizeWords } from '../text/tokenize.js';
import { cosineSimilarity, normalizeL2 } from '../vector/vector-math.js';
import { assertNonNegativeInteger, assertPositiveInteger } from '../errors/guards.js';

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function requestText(request: GenerateRequest): string {
  return [request.system ?? '', request.prompt ?? '', ...(request.messages ?? []).map((m) => m.content)].filter((part) => part.length > 0).join('\n');
}

export interface MockLanguageModelOptions {
  /** Replies handed out in order (cycled). A function computes the reply from the request. */
  readonly responses?: readonly string[] | ((request: GenerateRequest, callIndex: number) => string | Promise<string>);
  /** @default 'mock:language-model' */
  readonly id?: string;
}

/** A LanguageModel that answers from a script and records every request in `calls`. No test runner needed. */
export function createMockLanguageModel(options: MockLanguageModelOptions = {}): LanguageModel & { readonly calls: GenerateRequest[] } {
  const { responses = ['mock response'], id = 'mock:language-model' } = options;
  const calls: GenerateRequest[] = [];
  let next = 0;
  return {
    id,
    provider: 'mock',
    calls,
    async generate(request): Promise<GenerateResult> {
      request.abortSignal?.throwIfAborted();
      calls.push(request);
      const n = request.n ?? 1;
      const texts: string[] = [];
      for (let i = 0; i < n; i += 1) {
        const callIndex = next;
        next += 1;
        if (typeof responses === 'function') texts.push(await responses(request, callIndex));
        else texts.push(responses.length === 0 ? '' : (responses[callIndex % responses.length] as string));
      }
      const inputTokens = estimateTokens(requestText(request));
      const outputTokens = texts.reduce((sum, text) => sum + estimateTokens(text), 0);
      return { texts, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
    },
  };
}

/** Feature hashing of words and character trigrams into `dimensions` buckets, L2-normalized: deterministic, similar texts get similar vectors. */
function hashEmbed(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const add = (feature: string, weight: number) => {
    let hash = 2166136261;
    for (let i = 0; i < feature.length; i += 1) {
      hash ^= feature.charCodeAt(i);
      hash = Math.imul(hash, 16777619);
    }
    const index = (hash >>> 0) % dimensions;
    vector[index] = (vector[index] ?? 0) + ((hash & 0x80000000) !== 0 ? -weight : weight);
  };
  for (const word of tokenizeWords(text)) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) add(`c:${padded.slice(i, i + 3)}`, 0.3);
  }
  return normalizeL2(vector);
}

/** A deterministic Embedder (feature hashing) that records calls. Not a semantic model: for tests and examples only. */
export function createMockEmbedder(options: { dimensions?: number; id?: string } = {}): Embedder & { readonly calls: EmbedRequest[] } {
  const { dimensions = 64, id = 'mock:hash-embedder' } = options;
  assertPositiveInteger('dimensions', dimensions, 'createMockEmbedder');
  const calls: EmbedRequest[] = [];
  return {
    id,
    dimensions,
    normalized: true,
    calls,
    async embed(request) {
      request.abortSignal?.throwIfAborted();
      calls.push(request);
      return { embeddings: request.texts.map((text) => hashEmbed(text, dimensions)) };
    },
  };
}

/** An NliModel that labels by a function (default: entailment when every hypothesis word occurs in the premise). Records calls. */
export function createMockNliModel(options: { label?: (pair: NliPair) => NliLabel; id?: string } = {}): NliModel & { readonly calls: NliRequest[] } {
  const {
    id = 'mock:nli',
    label = (pair: NliPair) => {
      const premise = new Set(tokenizeWords(pair.premise));
      const words = tokenizeWords(pair.hypothesis);
      return words.length > 0 && words.every((word) => premise.has(word)) ? 'entailment' : 'neutral';
    },
  } = options;
  const calls: NliRequest[] = [];
  return {
    id,
    calls,
    async classify(request) {
      request.abortSignal?.throwIfAborted();
      if (!Array.isArray(request?.pairs)) throw new InvalidArgumentError({ where: `${id}.classify`, argument: 'pairs', message: 'must be an array of { premise, hypothesis }' });
      calls.push(request);
      return { results: request.pairs.map((pair) => ({ label: label(pair) })) };
    },
  };
}

/**
 * A Reranker that scores each candidate by the share of query words in its text (ties keep the incoming order).
 * Records calls.
 */
export function createMockReranker(options: { id?: string } = {}): Reranker & { readonly calls: RerankRequest[] } {
  const { id = 'mock:overlap-reranker' } = options;
  const calls: RerankRequest[] = [];
  return {
    id,
    calls,
    async rerank(request) {
      request.abortSignal?.throwIfAborted();
      calls.push(request);
      const queryWords = [...new Set(tokenizeWords(request.query.text))];
      const scored = request.evidence.map((item, position) => {
        const words = new Set(tokenizeWords(item.text));
        const score = queryWords.length === 0 ? 0 : queryWords.filter((word) => words.has(word)).length / queryWords.length;
        return { item, position, score };
      });
      scored.sort((a, b) => b.score - a.score || a.position - b.position);
      const topK = request.topK ?? scored.length;
      return { evidence: scored.slice(0, topK).map(({ item, score }, index) => ({ ...item, score, rank: index + 1 })) };
    },
  };
}

/**
 * A Retriever over `documents` scored by word overlap with the query. Records calls. A query without words gives no
 * evidence and a `no-searchable-terms` problem (a {@link CoreProblemCode}).
 */
export function createMockRetriever(documents: readonly Document[], options: { id?: string } = {}): Retriever<Extract<CoreProblemCode, 'no-searchable-terms'>> & { readonly calls: RetrieveRequest[] } {
  const { id = 'mock:overlap-retriever' } = options;
  const calls: RetrieveRequest[] = [];
  const indexed = documents.map((document) => ({ document, words: new Set(tokenizeWords(`${document.title ?? ''} ${document.text}`)) }));
  return {
    id,
    calls,
    async retrieve(request) {
      request.abortSignal?.throwIfAborted();
      calls.push(request);
      const { topK = 10 } = request;
      const queryWords = tokenizeWords(request.query.text);
      if (queryWords.length === 0) return { evidence: [], problems: [{ code: 'no-searchable-terms', message: 'the query has no words to match' }] };
      const scored = indexed
        .map(({ document, words }) => ({ document, score: queryWords.filter((word) => words.has(word)).length }))
        .filter((entry) => entry.score > 0)
        .sort((a, b) => b.score - a.score || (a.document.id < b.document.id ? -1 : 1))
        .slice(0, topK);
      const evidence: Evidence[] = scored.map(({ document, score }, index) => ({
        documentId: document.id,
        text: document.text,
        score,
        rank: index + 1,
        origin: evidenceOrigin(document),
        ...(document.metadata === undefined ? {} : { metadata: document.metadata }),
      }));
      return { evidence };
    },
  };
}

/** A brute-force in-memory VectorStore for tests (exact cosine). */
export function createMockVectorStore(options: { dimensions: number; id?: string }): VectorStore {
  const { dimensions, id = 'mock:vector-store' } = options;
  const records = new Map<string, VectorRecord>();
  const check = (vector: Float32Array, argument: string) => {
    if (vector.length !== dimensions) {
      throw new InvalidArgumentError({ where: id, argument, message: `has ${vector.length} dimensions, expected ${dimensions}` });
    }
    if (vector.some((value) => !Number.isFinite(value))) throw new InvalidArgumentError({ where: id, argument, message: 'contains NaN or Infinity' });
  };
  return {
    id,
    dimensions,
    metric: 'cosine',
    async upsert({ records: incoming, abortSignal }) {
      abortSignal?.throwIfAborted();
      incoming.forEach((record, index) => check(record.vector, `records[${index}].vector`));
      for (const record of incoming) records.set(record.id, { ...record, vector: Float32Array.from(record.vector) });
    },
    async query({ vector, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      check(vector, 'vector');
      const matches: VectorMatch[] = [...records.values()]
        .map((record) => ({ id: record.id, score: cosineSimilarity(vector, record.vector), ...(record.metadata ? { metadata: record.metadata } : {}) }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, topK);
      return { matches };
    },
    async delete({ ids, abortSignal }) {
      abortSignal?.throwIfAborted();
      for (const recordId of ids) records.delete(recordId);
    },
    async count() {
      return records.size;
    },
  };
}

export interface MockQueryExpanderOptions {
  /** Generations for a query and sample. @default (query, sample) => [`${query.text} (sample ${sample})`] */
  readonly generate?: (query: Query, sample: number) => readonly string[];
  /** @default 'mock:query-expander' */
  readonly id?: string;
  /** @default false */
  readonly usesLanguageModel?: boolean;
}

/**
 * A QueryExpander that appends scripted generations to the query text (Query2doc-like) and records every request in
 * `calls`. Its provenance is a GenerationProvenance with step 'mock-expansion'. Checks its request like a real
 * expander (InvalidArgumentError for a query without text or a bad sample; an abort rethrows the signal's reason).
 */
export function createMockQueryExpander(options: MockQueryExpanderOptions = {}): QueryExpander & { readonly calls: ExpandRequest[] } {
  const { generate = (query: Query, sample: number) => [`${query.text} (sample ${sample})`], id = 'mock:query-expander', usesLanguageModel = false } = options;
  const calls: ExpandRequest[] = [];
  return {
    id,
    usesLanguageModel,
    calls,
    async expand(request): Promise<ExpandedQuery> {
      request?.abortSignal?.throwIfAborted();
      const where = 'MockQueryExpander.expand';
      const query = request?.query;
      if (!query || typeof query.text !== 'string' || query.text.trim().length === 0) {
        throw new InvalidArgumentError({ where, argument: 'request.query', message: 'must be a Query with non-empty text' });
      }
      const sample = request.sample ?? 0;
      assertNonNegativeInteger('request.sample', sample, where);
      calls.push(request);
      const generations = [...generate(query, sample)];
      const now = new Date().toISOString();
      return {
        ...(query.id === undefined ? {} : { id: query.id }),
        text: [query.text, ...generations].join(' '),
        ...(query.metadata === undefined ? {} : { metadata: query.metadata }),
        original: query,
        generations,
        provenance: { step: 'mock-expansion', modelId: id, prompts: [query.text], sampling: { seed: sample }, usage: EMPTY_USAGE, cached: false, startedAt: now, finishedAt: now },
      };
    },
  };
}
