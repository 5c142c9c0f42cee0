import type { Chunk, EvidenceOrigin } from '@factkit/core';
import { evidenceOrigin } from '@factkit/core';

/** The origin of evidence that is one chunk: its parent document and the chunk id. */
export function chunkOrigin(chunk: Pick<Chunk, 'id' | 'documentId'>): EvidenceOrigin {
  return evidenceOrigin({ id: chunk.documentId }, chunk.id);
}
