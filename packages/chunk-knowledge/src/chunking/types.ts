import type { Chunk, Document, ItemProblem } from '@factkit/core';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** Chunks of one document plus what was odd about it (empty text, lone surrogates, sentences split mid-way). */
export interface ChunkingResult {
  readonly chunks: TextChunk[];
  readonly problems: ItemProblem<ChunkKnowledgeProblemCode>[];
}

/** A core `Chunk` with what every chunker records as typed fields (`metadata` is the document's own, passed on). */
export interface TextChunk extends Chunk {
  /** Number of tokens (whitespace-separated words; each Han/Kana character counts as one). */
  readonly tokenCount: number;
  /** Chunker id, e.g. `tokens(200,20)`. */
  readonly chunker: string;
  /** Section heading the chunk belongs to (section chunker). */
  readonly section?: string;
  /** 1-based page number (section chunker; pages are separated by form feeds). */
  readonly page?: number;
}

/** Splits a document into chunks; `chunk.text === document.text.slice(chunk.start, chunk.end)` (after lone surrogates become U+FFFD). */
export interface Chunker {
  readonly id: string;
  /** @throws InvalidArgumentError when `document` is not a `{ id: string, text: string }` object. */
  split(document: Document): ChunkingResult;
}
