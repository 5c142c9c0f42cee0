import { InvalidArgumentError } from '@factkit/core';
import type { Document } from '@factkit/core';
import { checkNonNegativeInteger, checkPositiveInteger, makeChunk, prepareDocument } from '../internal/prepare-document.js';
import { findTokenSpans } from '../internal/token-spans.js';
import type { TokenSpan } from '../internal/token-spans.js';
import type { Chunker, ChunkingResult, TextChunk } from './types.js';

export interface TokenChunkerOptions {
  /** Tokens per chunk (whitespace-separated words; each Han/Kana character is one token). @default 200 */
  readonly maxTokens?: number;
  /** Tokens shared by neighbouring chunks; must be < maxTokens. @default 20 */
  readonly overlapTokens?: number;
}

const WHERE = 'createTokenChunker';

/** Windows of `maxTokens` tokens over `tokens[from, to)`, each starting `maxTokens - overlap` after the last. */
export function windowTokens(tokens: readonly TokenSpan[], maxTokens: number, overlapTokens: number): Array<{ start: number; end: number; tokenCount: number }> {
  const windows: Array<{ start: number; end: number; tokenCount: number }> = [];
  if (tokens.length === 0) return windows;
  const stride = maxTokens - overlapTokens;
  for (let first = 0; ; first += stride) {
    const last = Math.min(first + maxTokens, tokens.length);
    windows.push({ start: tokens[first]!.start, end: tokens[last - 1]!.end, tokenCount: last - first });
    if (last === tokens.length) break;
  }
  return windows;
}

/**
 * Fixed-size chunker: windows of `maxTokens` tokens with `overlapTokens` shared between neighbours.
 * Spans run from the first token's start to the last token's end, so `chunk.text` is an exact slice of the document.
 * @throws InvalidArgumentError for maxTokens < 1 or overlapTokens outside [0, maxTokens).
 * @example createTokenChunker({ maxTokens: 128, overlapTokens: 16 }).split({ id: 'd1', text })
 */
export function createTokenChunker(options: TokenChunkerOptions = {}): Chunker {
  const { maxTokens = 200, overlapTokens = 20 } = options;
  checkPositiveInteger(maxTokens, 'maxTokens', WHERE);
  checkNonNegativeInteger(overlapTokens, 'overlapTokens', WHERE);
  if (overlapTokens >= maxTokens) throw new InvalidArgumentError({ where: WHERE, argument: 'overlapTokens', message: `must be < maxTokens (${maxTokens}) (got ${overlapTokens})` });
  const id = `tokens(${maxTokens},${overlapTokens})`;
  return {
    id,
    split(document: Document): ChunkingResult {
      const { text, problems, empty } = prepareDocument(document, `${WHERE}.split`);
      if (empty) return { chunks: [], problems };
      const chunks: TextChunk[] = windowTokens(findTokenSpans(text), maxTokens, overlapTokens).map((window, ordinal) =>
        makeChunk(document, text, { start: window.start, end: window.end, ordinal }, { tokenCount: window.tokenCount, chunker: id }),
      );
      return { chunks, problems };
    },
  };
}
