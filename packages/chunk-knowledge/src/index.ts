// @factkit/chunk-knowledge public surface: chunkers, chunk annotation (model, text2text, offline baseline), query
// keywords, the Doc2Query-- filter, the paper's passage layouts, retrievers built through core's RetrieverFactory and
// the Table 7 study, with their option/result types and the problem-code union. Explicit named exports only.

// Problems
export type { ChunkKnowledgeProblemCode } from './problem-codes.js';

// Chunking
export type { Chunker, ChunkingResult, TextChunk } from './chunking/types.js';
export type { TokenChunkerOptions } from './chunking/token-chunker.js';
export { createTokenChunker } from './chunking/token-chunker.js';
export type { SentenceChunkerOptions } from './chunking/sentence-chunker.js';
export { createSentenceChunker } from './chunking/sentence-chunker.js';
export type { SectionChunkerOptions } from './chunking/section-chunker.js';
export { createSectionChunker } from './chunking/section-chunker.js';
export type { ChunkDocumentsOptions, ChunkDocumentsResult } from './chunking/chunk-documents.js';
export { chunkDocuments } from './chunking/chunk-documents.js';

// Chunk knowledge (titles and candidate questions)
export type { AnnotatedChunk } from './knowledge/types.js';
export { CHUNK_KNOWLEDGE_PROMPTS } from './knowledge/prompts.js';
export type { OfflineAnnotatorOptions } from './knowledge/offline-annotator.js';
export { createOfflineAnnotator } from './knowledge/offline-annotator.js';
export type { ChunkAnnotationResult, ModelAnnotatedChunk, ModelAnnotatorOptions, Text2TextAnnotatorOptions } from './knowledge/annotate-with-model.js';
export { annotateChunksWithModel, annotateChunksWithText2Text } from './knowledge/annotate-with-model.js';
export type { DroppedQuestion, FilterQuestionsOptions, FilterQuestionsResult } from './knowledge/filter-questions.js';
export { filterQuestionsByRelevance } from './knowledge/filter-questions.js';

// Query keywords
export type { KeywordSpan, RakeOptions } from './keywords/rake.js';
export type { KeywordTag, TaggedToken } from './keywords/bio-tags.js';
export type { QueryKeywords } from './keywords/query-keywords.js';
export { extractQueryKeywords } from './keywords/query-keywords.js';
export type { QueryKeywordsWithModelOptions, QueryKeywordsWithModelResult } from './keywords/query-keywords-with-model.js';
export { extractQueryKeywordsWithModel } from './keywords/query-keywords-with-model.js';

// Layouts and indexing
export type { LayoutField, PassageLayout, RenderPassageOptions } from './indexing/layouts.js';
export { PASSAGE_LAYOUTS, getPassageLayout, renderPassage } from './indexing/layouts.js';
export { withKindPrefixes } from './indexing/with-kind-prefixes.js';
export type { ChunkVectorRetrieverOptions, IndexMode } from './indexing/vector-index.js';
export { createChunkVectorRetriever } from './indexing/vector-index.js';
export type { FieldedBm25Options } from './indexing/fielded-bm25.js';
export { CHUNK_KNOWLEDGE_ANALYZER, createFieldedBm25Retriever } from './indexing/fielded-bm25.js';

// Study (paper Table 7)
export type { LayoutStudyOptions, LayoutStudyQuery, LayoutStudyResult, LayoutStudyRow, LayoutStudySystem } from './study/run-layout-study.js';
export { runLayoutStudy } from './study/run-layout-study.js';
