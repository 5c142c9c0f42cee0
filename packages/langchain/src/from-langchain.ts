import type { DocumentSource, Evidence, EvidenceOrigin, ItemProblem, Retriever, RetrieveRequest, RetrieveResult } from '@factkit/core';
import { InvalidArgumentError, sha256Hex } from '@factkit/core';
import type { DocumentInterface } from '@langchain/core/documents';
import type { BaseRetrieverInterface } from '@langchain/core/retrievers';
import type { VectorStoreInterface } from '@langchain/core/vectorstores';

/** How a LangChain document becomes factkit evidence's typed fields. */
/**
 * Every problem code a retriever made by `fromLangChainRetriever` / `fromLangChainVectorStore` emits: a repeated
 * document id (`duplicate-document`, first kept), a non-finite score (`invalid-score`, left out), a query without text
 * (`empty-query`, no call).
 */
export type LangChainProblemCode = 'duplicate-document' | 'invalid-score' | 'empty-query';

type LangChainRetrieveResult = RetrieveResult<LangChainProblemCode>;

export interface LangChainDocumentMapping {
  /**
   * The evidence's `documentId`. @default the document's `id`, else `metadata.id` (a string or number), else
   * `sha256:<first 16 hex of the text's hash>` (stable across calls, so runs and qrels can match it)
   */
  readonly documentId?: (document: DocumentInterface, index: number) => string;
  /**
   * The typed origin. @default document id; `title` from `metadata.title`; `source` from LangChain's
   * `metadata.source` (a URL becomes `{ name: host, url }`, any other string `{ name }`); `metadata.factkit.origin`
   * when the document came from a factkit retriever (round trip)
   */
  readonly origin?: (document: DocumentInterface, documentId: string) => EvidenceOrigin;
}

export interface FromLangChainRetrieverOptions extends LangChainDocumentMapping {
  /** The factkit retriever id. @default `langchain(<the retriever's lc_name or constructor name>)` */
  readonly id?: string;
}

export interface FromLangChainVectorStoreOptions extends LangChainDocumentMapping {
  /** @default `langchain-vector-store(<the store's _vectorstoreType()>)` */
  readonly id?: string;
  /**
   * What the store's `similaritySearchWithScore` returns: a similarity (higher is closer: the in-memory store,
   * pgvector's cosine similarity, Pinecone) or a distance (lower is closer: FAISS L2, Chroma). A distance `d` becomes the
   * score `-d`, so evidence is always sorted by descending score. @default 'similarity'
   */
  readonly scoreKind?: 'similarity' | 'distance';
  /** The store's own filter, passed through unchanged. @default none */
  readonly filter?: unknown;
}

function stringField(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  return typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

function sourceFrom(value: string): DocumentSource {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { name: url.host, url: value };
  } catch {
    // not a URL: a file path or a collection name
  }
  return { name: value };
}

async function defaultDocumentId(document: DocumentInterface): Promise<string> {
  if (typeof document.id === 'string' && document.id !== '') return document.id;
  return stringField(document.metadata ?? {}, 'id') ?? `sha256:${(await sha256Hex(document.pageContent)).slice(0, 16)}`;
}

function factkitOrigin(metadata: Record<string, unknown>): EvidenceOrigin | undefined {
  const factkit = metadata.factkit;
  if (typeof factkit !== 'object' || factkit === null) return undefined;
  const origin = (factkit as { origin?: unknown }).origin;
  return typeof origin === 'object' && origin !== null && typeof (origin as EvidenceOrigin).documentId === 'string' ? (origin as EvidenceOrigin) : undefined;
}

function defaultOrigin(document: DocumentInterface, documentId: string): EvidenceOrigin {
  const metadata = document.metadata ?? {};
  const roundTrip = factkitOrigin(metadata);
  if (roundTrip) return roundTrip;
  const title = stringField(metadata, 'title');
  const source = stringField(metadata, 'source');
  return { documentId, ...(title === undefined ? {} : { title }), ...(source === undefined ? {} : { source: sourceFrom(source) }) };
}

/** Converts ranked LangChain documents into factkit evidence: unique ids (first occurrence kept), descending scores, 1-based ranks. */
async function toEvidence(ranked: readonly { document: DocumentInterface; score: number }[], topK: number, mapping: LangChainDocumentMapping): Promise<LangChainRetrieveResult> {
  const { documentId: idOf, origin: originOf = defaultOrigin } = mapping;
  const ids = await Promise.all(ranked.map(({ document }, index) => (idOf ? idOf(document, index) : defaultDocumentId(document))));
  const problems: ItemProblem<LangChainProblemCode>[] = [];
  const seen = new Set<string>();
  const kept: Omit<Evidence, 'rank'>[] = [];
  ranked.forEach(({ document, score }, index) => {
    const documentId = ids[index] as string;
    if (seen.has(documentId)) {
      problems.push({ index, code: 'duplicate-document', message: `LangChain returned document "${documentId}" more than once; the first is kept` });
      return;
    }
    if (!Number.isFinite(score)) {
      problems.push({ index, code: 'invalid-score', message: `document "${documentId}" has no finite score (got ${score}); left out` });
      return;
    }
    seen.add(documentId);
    const userMetadata = document.metadata && Object.keys(document.metadata).length > 0 ? { metadata: document.metadata } : {};
    kept.push({ documentId, text: document.pageContent, score, origin: originOf(document, documentId), ...userMetadata });
  });
  const sorted = kept
    .map((evidence, position) => ({ evidence, position }))
    .sort((a, b) => b.evidence.score - a.evidence.score || a.position - b.position)
    .slice(0, topK);
  const evidence = sorted.map(({ evidence: item }, index) => ({ ...item, rank: index + 1 }));
  return problems.length === 0 ? { evidence } : { evidence, problems };
}

async function guarded(request: RetrieveRequest, search: (query: string, topK: number) => Promise<LangChainRetrieveResult>): Promise<LangChainRetrieveResult> {
  const { query, topK = 10, abortSignal } = request;
  abortSignal?.throwIfAborted();
  if (topK === 0) return { evidence: [] };
  if (typeof query?.text !== 'string' || query.text.trim() === '') return { evidence: [], problems: [{ code: 'empty-query', message: 'the query has no text to search' }] };
  try {
    const result = await search(query.text, topK);
    abortSignal?.throwIfAborted();
    return result;
  } catch (error) {
    // LangChain may wrap an abort in its own error: the caller gets the signal's reason, unchanged.
    if (abortSignal?.aborted) throw abortSignal.reason;
    throw error;
  }
}

function nameOf(value: object): string {
  const constructor = (value as { constructor?: { lc_name?: () => string; name?: string } }).constructor;
  return (typeof constructor?.lc_name === 'function' ? constructor.lc_name() : constructor?.name) || 'retriever';
}

/**
 * Any LangChain retriever (`BaseRetriever`, a vector store's `asRetriever()`, an ensemble, ...) as a factkit
 * {@link Retriever}. LangChain retrievers return no scores and choose their own `k`: the evidence keeps LangChain's
 * order with score `1 / rank`, cut at `topK` (ask the LangChain retriever for at least `topK` documents).
 * @throws InvalidArgumentError when `retriever` has no `invoke()`.
 * @example const retriever = fromLangChainRetriever(vectorStore.asRetriever(20));
 */
export function fromLangChainRetriever(retriever: BaseRetrieverInterface, options: FromLangChainRetrieverOptions = {}): Retriever<LangChainProblemCode> {
  if (!retriever || typeof retriever.invoke !== 'function') throw new InvalidArgumentError({ where: 'fromLangChainRetriever', argument: 'retriever', message: 'must be a LangChain retriever (an object with invoke())' });
  const id = options.id ?? `langchain(${nameOf(retriever)})`;
  return {
    id,
    retrieve: (request) =>
      guarded(request, async (query, topK) => {
        const documents = await retriever.invoke(query, request.abortSignal ? { signal: request.abortSignal } : undefined);
        return toEvidence(
          documents.map((document, index) => ({ document, score: 1 / (index + 1) })),
          topK,
          options,
        );
      }),
  };
}

/**
 * A LangChain vector store as a factkit {@link Retriever}: `similaritySearchWithScore(query, topK)`, keeping the store's
 * scores (a distance negated, see `scoreKind`).
 * @throws InvalidArgumentError when `store` has no `similaritySearchWithScore()` or `scoreKind` is unknown.
 * @example const retriever = fromLangChainVectorStore(await MemoryVectorStore.fromDocuments(documents, embeddings));
 */
export function fromLangChainVectorStore(store: VectorStoreInterface, options: FromLangChainVectorStoreOptions = {}): Retriever<LangChainProblemCode> {
  const where = 'fromLangChainVectorStore';
  if (!store || typeof store.similaritySearchWithScore !== 'function') throw new InvalidArgumentError({ where, argument: 'store', message: 'must be a LangChain vector store (an object with similaritySearchWithScore())' });
  const { scoreKind = 'similarity', filter } = options;
  if (scoreKind !== 'similarity' && scoreKind !== 'distance') throw new InvalidArgumentError({ where, argument: 'scoreKind', message: `must be 'similarity' or 'distance' (got ${JSON.stringify(scoreKind)})` });
  const type = typeof store._vectorstoreType === 'function' ? store._vectorstoreType() : nameOf(store);
  const id = options.id ?? `langchain-vector-store(${type})`;
  return {
    id,
    retrieve: (request) =>
      guarded(request, async (query, topK) => {
        const hits = await store.similaritySearchWithScore(query, topK, filter as never);
        return toEvidence(
          hits.map(([document, score]) => ({ document, score: scoreKind === 'distance' ? -score : score })),
          topK,
          options,
        );
      }),
  };
}
