// @factkit/chunk-knowledge public surface. Explicit named exports only (no `export *`).

// Chunking
export type { Chunker, ChunkingResult, ChunkMetadata } from './chunking/types.js';
export { getChunkOrdinal } from './chunking/types.js';
export type { TokenChunkerOptions } from './chunking/token-chunker.js';
export { createTokenChunker } from './chunking/token-chunker.js';
export type { SentenceChunkerOptions } from './chunking/sentence-chunker.js';
export { createSentenceChunker } from './chunking/sentence-chunker.js';
export type { SectionChunkerOptions } from './chunking/section-chunker.js';
export { createSectionChunker } from './chunking/section-chunker.js';
export type { ChunkDocumentsOptions, ChunkDocumentsResult } from './chunking/chunk-documents.js';
export { chunkDocuments, decodeUtf8Text } from './chunking/chunk-documents.js';
