import type { Document, DocumentSource } from './document.js';

/**
 * Where a piece of evidence comes from, filled the same way by every retriever: the source document's id, title and
 * `source` (collection, URL, licence), and, when the retrieved unit is a chunk (passage, section) of that document, the
 * chunk's id. For a whole document `chunkId` is absent and `documentId` equals `Evidence.documentId`; for a chunk
 * `Evidence.documentId` is the chunk id (the unit that was ranked) and `origin.documentId` is its parent document.
 * Modelled on vercel/ai's `Source` (id, url, title): a typed field, so no package reads meaning out of `metadata`.
 */
export interface EvidenceOrigin {
  /** Id of the source document (for a chunk: the parent document). */
  readonly documentId: string;
  /** The source document's title, when it has one. */
  readonly title?: string;
  /** The source document's `Document.source` (collection, URL, licence), passed through unchanged. */
  readonly source?: DocumentSource;
  /** Id of the chunk that was retrieved, when the retrieved unit is a chunk of `documentId`. */
  readonly chunkId?: string;
}

/** A piece of text offered as evidence for or against a claim, as a retriever returns it. */
export interface Evidence {
  /** Id of the retrieved unit (a document, or a chunk of one): what a qrels file judges. */
  readonly documentId: string;
  readonly text: string;
  readonly score: number;
  /** 1-based position in the ranking. */
  readonly rank?: number;
  /** Where the evidence comes from. */
  readonly origin: EvidenceOrigin;
  /** The source document's own `metadata` (the user's data), passed through unchanged; factkit never reads it. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The origin of evidence drawn from `document` (or, with `chunkId`, from one chunk of it): id, title and source copied
 * from the document's typed fields, absent fields left out. Every factkit retriever builds its origins with it.
 * @example evidenceOrigin({ id: 'd1', title: 'Vitamin D', source: { name: 'SciFact' } }, 'd1#3')
 */
export function evidenceOrigin(document: Pick<Document, 'id' | 'title' | 'source'>, chunkId?: string): EvidenceOrigin {
  return {
    documentId: document.id,
    ...(document.title === undefined ? {} : { title: document.title }),
    ...(document.source === undefined ? {} : { source: document.source }),
    ...(chunkId === undefined ? {} : { chunkId }),
  };
}
