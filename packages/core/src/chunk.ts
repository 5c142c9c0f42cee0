/** A contiguous piece of a document (chunk-level expansion, long-premise NLI windows). */
export interface Chunk {
  readonly id: string;
  readonly documentId: string;
  readonly text: string;
  /** 0-based position of the chunk in its document. */
  readonly ordinal: number;
  /** Character offset of the chunk in its document. */
  readonly start: number;
  readonly end: number;
  /** The user's own data (chunkers pass on the document's `metadata`); factkit never reads meaning from it. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
