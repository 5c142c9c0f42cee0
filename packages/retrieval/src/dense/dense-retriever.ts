import {
  assertNonNegativeInteger,
  assertPositiveInteger,
  InvalidArgumentError,
  isAbortReason,
  ProviderCallError,
  type Document,
  type Embedder,
  type Evidence,
  type RetrieveRequest,
  type Retriever,
  type VectorStore,
  type ProgressCallback,
} from '@factkit/core';
import type { RetrievalProblem, RetrievalProblemCode } from '../problem-codes.js';
import { createInMemoryVectorStore } from '../stores/in-memory-vector-store.js';
import { evidenceFromMatch, storedDocumentMetadata } from './stored-document.js';

export interface DenseRetrieverOptions {
  /** Embeds documents (kind 'passage') and queries (kind 'query'). */
  readonly embedder: Embedder;
  /** Where vectors live. @default createInMemoryVectorStore({ dimensions: embedder.dimensions, metric: 'cosine' }) */
  readonly store?: VectorStore;
  /** @default `dense(${embedder.id})` */
  readonly id?: string;
  /** Texts per embed call when indexing. @default embedder.maxBatchSize ?? 64 */
  readonly batchSize?: number;
  /** How a document becomes the text that is embedded. @default title and text joined by '. ' */
  readonly documentText?: (document: Document) => string;
}

export interface DenseIndexRequest {
  readonly documents: readonly Document[];
  readonly abortSignal?: AbortSignal;
  /** Called after each embed call: `completed` counts documents embedded so far. */
  readonly onProgress?: ProgressCallback;
}

export interface DenseIndexResult {
  /** Documents embedded and stored. */
  readonly indexed: number;
  /** Documents skipped (empty text, duplicate id, a failed or malformed embedding), one entry each. */
  readonly problems: RetrievalProblem[];
}

/** A dense Retriever that can also index documents into its store. */
/** Retrieval problems: `empty-query`. */
export interface DenseRetriever extends Retriever<RetrievalProblemCode> {
  readonly store: VectorStore;
  readonly embedder: Embedder;
  /** Embeds and upserts documents batch by batch; a failing batch is reported per document and the rest go on. */
  index(request: DenseIndexRequest): Promise<DenseIndexResult>;
}

function defaultDocumentText(document: Document): string {
  return document.title ? `${document.title}. ${document.text}` : document.text;
}

/**
 * Creates a dense retriever over any core Embedder and VectorStore. `retrieve` embeds `query.text` (kind 'query'), or
 * uses `query.vector` when given (HyDE passes a precomputed mean vector). Document text and title are kept in the
 * store's metadata (with the source), so a persistent store (pgvector, Qdrant) can be searched again without re-indexing.
 * An empty query (no text, no vector) or an empty store gives no evidence, with an `empty-query` problem for the empty query.
 * @throws InvalidArgumentError when the store's dimensions differ from the embedder's, or `query.vector` is malformed.
 * @example
 * const retriever = createDenseRetriever({ embedder: createMockEmbedder() });
 * await retriever.index({ documents });
 * const { evidence } = await retriever.retrieve({ query: { text: 'vitamin d' }, topK: 5 });
 */
export function createDenseRetriever(options: DenseRetrieverOptions): DenseRetriever {
  const where = 'createDenseRetriever';
  const { embedder, documentText = defaultDocumentText } = options;
  if (!embedder || typeof embedder.embed !== 'function') throw new InvalidArgumentError({ where, argument: 'embedder', message: 'must be an Embedder' });
  const store = options.store ?? createInMemoryVectorStore({ dimensions: embedder.dimensions, metric: 'cosine' });
  if (store.dimensions !== embedder.dimensions) {
    throw new InvalidArgumentError({ where, argument: 'store', message: `has ${store.dimensions} dimensions but the embedder gives ${embedder.dimensions}` });
  }
  const { id = `dense(${embedder.id})`, batchSize = embedder.maxBatchSize ?? 64 } = options;
  assertPositiveInteger('batchSize', batchSize, where);

  const isWellFormed = (vector: unknown): vector is Float32Array => vector instanceof Float32Array && vector.length === embedder.dimensions && vector.every((value) => Number.isFinite(value));

  return {
    id,
    store,
    embedder,
    async index({ documents, abortSignal, onProgress }) {
      abortSignal?.throwIfAborted();
      if (!Array.isArray(documents)) throw new InvalidArgumentError({ where: `${id}.index`, argument: 'documents', message: 'must be an array of Document' });
      const problems: RetrievalProblem[] = [];
      const seen = new Set<string>();
      const accepted: { index: number; document: Document; text: string }[] = [];
      documents.forEach((document, index) => {
        if (typeof document?.id !== 'string' || document.id.length === 0) {
          problems.push({ index, code: 'invalid-document', message: 'document id must be a non-empty string' });
          return;
        }
        if (seen.has(document.id)) {
          problems.push({ index, id: document.id, code: 'duplicate-id', message: `duplicate document id "${document.id}"; the first one is kept` });
          return;
        }
        seen.add(document.id);
        const text = typeof document.text === 'string' ? documentText(document) : '';
        if (text.trim().length === 0) {
          problems.push({ index, id: document.id, code: 'empty-text', message: 'document has no text to embed' });
          return;
        }
        accepted.push({ index, document, text });
      });
      let indexed = 0;
      let completed = 0;
      for (let start = 0; start < accepted.length; start += batchSize) {
        abortSignal?.throwIfAborted();
        const batch = accepted.slice(start, start + batchSize);
        let embeddings: Float32Array[];
        try {
          ({ embeddings } = await embedder.embed({ texts: batch.map((item) => item.text), kind: 'passage', ...(abortSignal ? { abortSignal } : {}) }));
          if (embeddings.length !== batch.length) {
            throw new ProviderCallError({ provider: embedder.id, message: `embedder returned ${embeddings.length} vectors for ${batch.length} texts`, isRetryable: false });
          }
        } catch (error) {
          if (isAbortReason(error, abortSignal)) throw error;
          const message = error instanceof Error ? error.message : String(error);
          for (const item of batch) problems.push({ index: item.index, id: item.document.id, code: 'embedding-failed', message });
          completed += batch.length;
          onProgress?.({ completed, total: accepted.length });
          continue;
        }
        const records = [];
        for (let i = 0; i < batch.length; i += 1) {
          const item = batch[i] as (typeof batch)[number];
          const vector = embeddings[i];
          if (!isWellFormed(vector)) {
            problems.push({ index: item.index, id: item.document.id, code: 'bad-embedding', message: `embedding is not ${embedder.dimensions} finite numbers` });
            continue;
          }
          const { document } = item;
          records.push({ id: document.id, vector, metadata: storedDocumentMetadata(document) });
        }
        await store.upsert({ records, ...(abortSignal ? { abortSignal } : {}) });
        indexed += records.length;
        completed += batch.length;
        onProgress?.({ completed, total: accepted.length });
      }
      problems.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return { indexed, problems };
    },
    async retrieve({ query, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      assertNonNegativeInteger('topK', topK, `${id}.retrieve`);
      let vector = query?.vector;
      if (vector !== undefined) {
        if (!isWellFormed(vector)) {
          throw new InvalidArgumentError({ where: `${id}.retrieve`, argument: 'query.vector', message: `must be a Float32Array of ${embedder.dimensions} finite numbers` });
        }
      } else {
        const text = typeof query?.text === 'string' ? query.text : '';
        if (text.trim().length === 0) return { evidence: [], problems: [{ code: 'empty-query', message: 'empty query: no text and no vector, so nothing was retrieved' }] };
        const { embeddings } = await embedder.embed({ texts: [text], kind: 'query', ...(abortSignal ? { abortSignal } : {}) });
        vector = embeddings[0];
        if (!isWellFormed(vector)) {
          throw new InvalidArgumentError({ where: `${id}.retrieve`, argument: 'embedder', message: `returned a query embedding that is not ${embedder.dimensions} finite numbers` });
        }
      }
      const { matches } = await store.query({ vector, topK, ...(abortSignal ? { abortSignal } : {}) });
      const evidence: Evidence[] = matches.map(evidenceFromMatch);
      return { evidence };
    },
  };
}
