// @factkit/chunk-knowledge public surface. Explicit named exports only (no `export *`).

// Chunking
export type { Chunker, ChunkingResult, TextChunk } from './chunking/types.js';
export type { TokenChunkerOptions } from './chunking/token-chunker.js';
export { createTokenChunker } from './chunking/token-chunker.js';
export type { SentenceChunkerOptions } from './chunking/sentence-chunker.js';
export { createSentenceChunker } from './chunking/sentence-chunker.js';
export type { SectionChunkerOptions } from './chunking/section-chunker.js';
export { createSectionChunker } from './chunking/section-chunker.js';
export type { ChunkDocumentsOptions, ChunkDocumentsResult } from './chunking/chunk-documents.js';
export { chunkDocuments, decodeUtf8Text } from './chunking/chunk-documents.js';

// Chunk knowledge (titles and candidate questions)
export type { AnnotatedChunk, ChunkKnowledgeFields } from './knowledge/types.js';
export { CHUNK_KNOWLEDGE_PROMPTS } from './knowledge/prompts.js';
export type { ParseChunkKnowledgeOptions, ParsedChunkKnowledge } from './knowledge/parse-chunk-knowledge.js';
export { parseChunkKnowledge, parseQueryKeywordReply } from './knowledge/parse-chunk-knowledge.js';
export type { OfflineAnnotatorOptions } from './knowledge/offline-annotator.js';
export { BASELINE_QUESTION_TEMPLATES, OFFLINE_ANNOTATOR_METHOD, computeBaselineTitle, createOfflineAnnotator } from './knowledge/offline-annotator.js';

// Query keywords
export type { KeywordSpan, RakeOptions } from './keywords/rake.js';
export { extractRakeKeywords } from './keywords/rake.js';
export { RAKE_ENGLISH_STOP_WORDS } from './keywords/stop-words.js';
export type { KeywordTag, TaggedToken } from './keywords/bio-tags.js';
export { fromBioTags, toBioTags } from './keywords/bio-tags.js';
export type { QueryKeywords } from './keywords/query-keywords.js';
export { buildQueryKeywords, extractQueryKeywords } from './keywords/query-keywords.js';
export type { DroppedQuestion, FilterQuestionsOptions, FilterQuestionsResult } from './knowledge/filter-questions.js';
export { filterQuestionsByRelevance, percentileOf } from './knowledge/filter-questions.js';

// Layouts and indexing
export type { LayoutField, PassageLayout, RenderPassageOptions } from './indexing/layouts.js';
export {
  CASE_1_CHUNK,
  CASE_2_TITLE,
  CASE_3_QUESTIONS,
  CASE_4_TITLE_QUESTIONS_CHUNK,
  CASE_5_QUESTIONS_TITLE_CHUNK,
  CASE_6_QUESTIONS_CHUNK,
  CASE_7_TITLE_CHUNK,
  PASSAGE_LAYOUTS,
  getPassageLayout,
  renderField,
  renderPassage,
} from './indexing/layouts.js';
export { E5_PREFIXES, withKindPrefixes } from './indexing/with-kind-prefixes.js';
export type { ChunkVectorRetrieverOptions, IndexedPassage, IndexMode } from './indexing/vector-index.js';
export { createChunkVectorRetriever, renderIndexPassages, toChunkFieldedDocuments } from './indexing/vector-index.js';
export type { FieldedBm25Options } from './indexing/fielded-bm25.js';
export { CHUNK_KNOWLEDGE_ANALYZER, createFieldedBm25Retriever, toFieldedDocument } from './indexing/fielded-bm25.js';

// Model paths (core LLM-step kit)
export type {
  ChunkAnnotationResult,
  ModelAnnotatedChunk,
  ModelAnnotatorOptions,
  Text2TextAnnotatorOptions,
} from './knowledge/annotate-with-model.js';
export {
  MODEL_ANNOTATION_STEP,
  TEXT2TEXT_ANNOTATION_STEP,
  annotateChunksWithModel,
  annotateChunksWithText2Text,
  splitGeneratedQuestions,
} from './knowledge/annotate-with-model.js';
export type { QueryKeywordsWithModelOptions, QueryKeywordsWithModelResult } from './keywords/query-keywords-with-model.js';
export { QUERY_KEYWORDS_STEP, extractQueryKeywordsWithModel } from './keywords/query-keywords-with-model.js';

// Study (paper Table 7)
export type { LayoutStudyOptions, LayoutStudyQuery, LayoutStudyResult, LayoutStudyRow, LayoutStudySystem } from './study/run-layout-study.js';
export { runLayoutStudy } from './study/run-layout-study.js';
