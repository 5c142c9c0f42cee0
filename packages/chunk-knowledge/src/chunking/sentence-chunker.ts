import type { Document } from '@factkit/core';
import { checkNonNegativeInteger, checkPositiveInteger, makeChunk, prepareDocument } from '../internal/prepare-document.js';
import { packSentences } from '../internal/pack-sentences.js';
import type { Chunker, ChunkingResult } from './types.js';

export interface SentenceChunkerOptions {
  /** Most tokens per chunk; whole sentences are packed up to it, a longer sentence is cut into windows. @default 200 */
  readonly maxTokens?: number;
  /** Sentences repeated at the start of the next chunk (when they fit). @default 0 */
  readonly overlapSentences?: number;
}

const WHERE = 'createSentenceChunker';

/**
 * Sentence-aware chunker: packs whole sentences (core `segmentSentences`, English and Chinese) into chunks of at most
 * `maxTokens` tokens. A sentence longer than `maxTokens` is cut into token windows and reported as `long-sentence-split`.
 * @throws InvalidArgumentError for maxTokens < 1 or a negative overlapSentences.
 * @example createSentenceChunker({ maxTokens: 128 }).split({ id: 'd1', text })
 */
export function createSentenceChunker(options: SentenceChunkerOptions = {}): Chunker {
  const { maxTokens = 200, overlapSentences = 0 } = options;
  checkPositiveInteger(maxTokens, 'maxTokens', WHERE);
  checkNonNegativeInteger(overlapSentences, 'overlapSentences', WHERE);
  const id = `sentences(${maxTokens},${overlapSentences})`;
  return {
    id,
    split(document: Document): ChunkingResult {
      const { text, problems, empty } = prepareDocument(document, `${WHERE}.split`);
      if (empty) return { chunks: [], problems };
      const packed = packSentences(text, 0, text.length, { maxTokens, overlapSentences, documentId: document.id });
      const chunks = packed.windows.map((window, ordinal) => makeChunk(document, text, { start: window.start, end: window.end, ordinal }, { tokenCount: window.tokenCount, chunker: id }));
      return { chunks, problems: [...problems, ...packed.problems] };
    },
  };
}
