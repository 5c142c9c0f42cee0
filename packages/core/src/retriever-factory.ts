import type { EvidenceOrigin } from './evidence.js';
import type { Retriever } from './retriever.js';

/**
 * A unit to index under named text fields (e.g. a chunk's `title`, `questions` and `chunk`), with what its evidence
 * shows: `text`, the typed `origin` and the user's `metadata`, returned unchanged in every hit.
 */
export interface FieldedDocument {
  readonly id: string;
  /** Text per named field; a list is several texts of one field (e.g. one per question). */
  readonly fields: Readonly<Record<string, string | readonly string[]>>;
  /** The text evidence for this document shows. */
  readonly text: string;
  /** The evidence origin of this document (for a chunk: parent document and chunk id). */
  readonly origin: EvidenceOrigin;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface RetrieverFactoryRequest {
  readonly documents: readonly FieldedDocument[];
  /** Weight per field to search; fields left out (or weighted 0) are not indexed. Field names are the documents'. */
  readonly fields: Readonly<Record<string, number>>;
  readonly abortSignal?: AbortSignal;
}

/**
 * The seam through which a package that may not import an index implementation (the paper packages) builds a
 * `Retriever` over its own units: it hands over documents with named fields, the factory indexes them its way (BM25 with
 * per-field statistics, dense vectors per field, a search cluster) and returns a `Retriever` whose evidence is
 * `{ documentId: document.id, text, origin, metadata }` of the matched document.
 * @example const retriever = await factory.createRetriever({ documents, fields: { title: 1, chunk: 1 } })
 */
export interface RetrieverFactory {
  /** e.g. 'bm25(k1=0.9,b=0.4)', 'dense(use-lite,max)'. */
  readonly id: string;
  createRetriever(request: RetrieverFactoryRequest): Promise<Retriever>;
}
