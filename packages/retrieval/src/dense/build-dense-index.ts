import type { Document, Embedder, VectorStore } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createDenseRetriever, type DenseIndexRequest } from './dense-retriever.js';
import type { DenseIndexSnapshot } from './dense-serialization.js';
import { type DenseStoredDocument, storedDocumentOf } from './stored-document.js';
import type { RetrievalProblem } from '../problem-codes.js';

export interface BuildDenseIndexOptions {
  readonly embedder: Embedder;
  /** Texts per embedding call. @default embedder.maxBatchSize ?? 64 */
  readonly batchSize?: number;
  /** Text embedded for a document. @default `${title}. ${text}` (title when present) */
  readonly documentText?: (document: Document) => string;
  readonly abortSignal?: AbortSignal;
  readonly onProgress?: DenseIndexRequest['onProgress'];
}

export interface BuildDenseIndexResult {
  /** The vectors (rows in corpus order) and the stored documents (text, title, source, metadata); save it with `saveDenseIndex`. */
  readonly snapshot: DenseIndexSnapshot;
  /** Documents left out (empty text, duplicate id, a failed or malformed embedding), one entry each. */
  readonly problems: RetrievalProblem[];
}

/**
 * Embeds documents into a dense flat index snapshot, exactly as a dense retriever indexes them (same text, batching,
 * per-document problems and progress), keeping each document's text, title, source and metadata so a loaded index shows
 * hits without the corpus. Save it with `serializeDenseIndex` / `saveDenseIndex`; search it with `restoreDenseRetriever`.
 * @throws InvalidArgumentError for a missing embedder or a bad batch size; rethrows an abort.
 * @example const { snapshot, problems } = await buildDenseIndex(documents, { embedder }); await saveDenseIndex(snapshot, 'corpus.dense')
 */
export async function buildDenseIndex(documents: readonly Document[], options: BuildDenseIndexOptions): Promise<BuildDenseIndexResult> {
  const { embedder, abortSignal, onProgress, batchSize, documentText } = options;
  if (!embedder || typeof embedder.embed !== 'function') throw new InvalidArgumentError({ where: 'buildDenseIndex', argument: 'embedder', message: 'must be an Embedder' });
  const rows = new Map<string, { vector: Float32Array; document: DenseStoredDocument }>();
  // A store that only keeps what the dense retriever writes, in insertion (corpus) order.
  const collector: VectorStore = {
    id: 'build-dense-index',
    dimensions: embedder.dimensions,
    metric: 'cosine',
    async upsert({ records }) {
      for (const record of records) rows.set(record.id, { vector: Float32Array.from(record.vector), document: storedDocumentOf(record) });
    },
    async query() {
      return { matches: [] };
    },
    async delete({ ids }) {
      for (const id of ids) rows.delete(id);
    },
    async count() {
      return rows.size;
    },
  };
  const retriever = createDenseRetriever({ embedder, store: collector, ...(batchSize === undefined ? {} : { batchSize }), ...(documentText === undefined ? {} : { documentText }) });
  const { problems } = await retriever.index({ documents, ...(abortSignal ? { abortSignal } : {}), ...(onProgress ? { onProgress } : {}) });
  const ids = [...rows.keys()];
  const vectors = new Float32Array(ids.length * embedder.dimensions);
  const stored: DenseStoredDocument[] = [];
  ids.forEach((id, row) => {
    const entry = rows.get(id)!;
    vectors.set(entry.vector, row * embedder.dimensions);
    stored.push(entry.document);
  });
  return { snapshot: { embedderId: embedder.id, dimensions: embedder.dimensions, metric: 'cosine', ids, vectors, documents: stored }, problems };
}
