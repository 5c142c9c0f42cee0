import { InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { Chunk, Document, ItemProblem } from '@factkit/core';
import type { Chunker } from './types.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

export interface ChunkDocumentsOptions {
  readonly chunker: Chunker;
  /**
   * What to do with a chunk whose text (whitespace-normalized) equals an earlier chunk's: `'keep'` it or `'drop'` it.
   * Either way each duplicate is reported as a `duplicate-chunk` problem naming the first copy. @default 'keep'
   */
  readonly duplicates?: 'keep' | 'drop';
  readonly abortSignal?: AbortSignal;
}

export interface ChunkDocumentsResult {
  readonly chunks: Chunk[];
  /** Per-document and per-chunk problems (`index` = document position); nothing is left out without one. */
  readonly problems: ItemProblem<ChunkKnowledgeProblemCode>[];
  readonly documentCount: number;
}

/**
 * Chunks a batch of documents. Bad documents (not objects, missing id/text) and repeated document ids become
 * problems (`invalid-document`, `duplicate-document-id`) instead of stopping the batch.
 * @throws InvalidArgumentError when `documents` is not an array or `chunker` has no `split`.
 */
export function chunkDocuments(documents: readonly Document[], options: ChunkDocumentsOptions): ChunkDocumentsResult {
  const where = 'chunkDocuments';
  if (!Array.isArray(documents)) throw new InvalidArgumentError({ where, argument: 'documents', message: 'must be an array of documents' });
  const { chunker, duplicates = 'keep', abortSignal } = options;
  if (typeof chunker?.split !== 'function') throw new InvalidArgumentError({ where, argument: 'chunker', message: 'must be a Chunker (createTokenChunker, createSentenceChunker, createSectionChunker)' });
  if (duplicates !== 'keep' && duplicates !== 'drop') throw new InvalidArgumentError({ where, argument: 'duplicates', message: `must be 'keep' or 'drop' (got ${String(duplicates)})` });
  const chunks: Chunk[] = [];
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  const seenDocuments = new Set<string>();
  const seenTexts = new Map<string, string>();
  documents.forEach((document, index) => {
    if (index % 256 === 0) throwIfAborted(abortSignal);
    let result;
    try {
      result = chunker.split(document);
    } catch (error) {
      if (!InvalidArgumentError.isInstance(error)) throw error;
      problems.push({ index, code: 'invalid-document', message: error.message });
      return;
    }
    if (seenDocuments.has(document.id)) {
      problems.push({ index, id: document.id, code: 'duplicate-document-id', message: `document id "${document.id}" was already chunked; this copy is skipped (${result.chunks.length} chunk(s))` });
      return;
    }
    seenDocuments.add(document.id);
    for (const problem of result.problems) problems.push({ ...problem, index });
    for (const chunk of result.chunks) {
      const key = chunk.text.replace(/\s+/gu, ' ').trim();
      const first = seenTexts.get(key);
      if (first !== undefined) {
        problems.push({ index, id: chunk.id, code: 'duplicate-chunk', message: `chunk "${chunk.id}" has the same text as "${first}"; ${duplicates === 'drop' ? 'dropped' : 'kept'}` });
        if (duplicates === 'drop') continue;
      } else {
        seenTexts.set(key, chunk.id);
      }
      chunks.push(chunk);
    }
  });
  return { chunks, problems, documentCount: documents.length };
}

/** Decodes UTF-8 bytes; invalid sequences become U+FFFD and an `invalid-utf8` problem instead of a silent replacement. */
export function decodeUtf8Text(bytes: Uint8Array, options: { id?: string } = {}): { text: string; problems: ItemProblem<'invalid-utf8'>[] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), problems: [] };
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    let replaced = 0;
    for (const char of text) if (char === '\uFFFD') replaced += 1;
    return { text, problems: [{ ...(options.id === undefined ? {} : { id: options.id }), code: 'invalid-utf8', message: `invalid UTF-8 byte sequence(s) replaced by U+FFFD (${replaced} replacement character(s) in the text)` }] };
  }
}
