import type { Document, Evidence, VectorMatch } from '@factkit/core';
import { evidenceOrigin } from '@factkit/core';

/** What a dense index keeps of a document besides its vector, so hits can be shown without the corpus. */
export type DenseStoredDocument = Pick<Document, 'text' | 'title' | 'source' | 'metadata'>;

/**
 * The vector-store record metadata a dense retriever writes for a document (`text`, `title`, `source`,
 * `documentMetadata`). Private to retrieval: only {@link evidenceFromMatch} reads it back.
 */
export function storedDocumentMetadata(document: DenseStoredDocument): Record<string, unknown> {
  return {
    text: document.text,
    ...(document.title === undefined ? {} : { title: document.title }),
    ...(document.source === undefined ? {} : { source: document.source }),
    ...(document.metadata === undefined ? {} : { documentMetadata: document.metadata }),
  };
}

/** The stored document of a match, from the record metadata {@link storedDocumentMetadata} wrote (unknown keys ignored). */
export function storedDocumentOf(match: Pick<VectorMatch, 'metadata'>): DenseStoredDocument {
  const metadata = match.metadata ?? {};
  const { title, source, documentMetadata } = metadata;
  const validSource = source !== null && typeof source === 'object' && typeof (source as { name?: unknown }).name === 'string';
  return {
    text: typeof metadata['text'] === 'string' ? metadata['text'] : '',
    ...(typeof title === 'string' ? { title } : {}),
    ...(validSource ? { source: source as Document['source'] & object } : {}),
    ...(documentMetadata !== null && typeof documentMetadata === 'object' ? { metadata: documentMetadata as Record<string, unknown> } : {}),
  };
}

/** Evidence for a vector-store match at 0-based `position`: text, origin and the user's metadata from the stored document. */
export function evidenceFromMatch(match: VectorMatch, position: number): Evidence {
  const document = storedDocumentOf(match);
  return {
    documentId: match.id,
    text: document.text,
    score: match.score,
    rank: position + 1,
    origin: evidenceOrigin({ id: match.id, ...document }),
    ...(document.metadata === undefined ? {} : { metadata: document.metadata }),
  };
}
