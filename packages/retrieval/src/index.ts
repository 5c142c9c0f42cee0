// @factkit/retrieval public surface. Explicit named exports only (no `export *`).

// --- problem codes (every code this package reports) ---
export type { RetrievalProblem, RetrievalProblemCode } from './problem-codes.js';

// --- lexical (BM25, analysis, RM3) ---
// Browser-safe: nothing here imports a Node built-in (tooling/check-browser-entries.mjs). Files, gzip, worker
// threads and the native HNSW store are in `@factkit/retrieval/node` (src/node.ts).
// Not exported on purpose: the flat / int8 indexes themselves (choose them with createInMemoryVectorStore's `quantized`),
// tokeniser and stemmer internals, codecs and constants of the saved formats, RankGPT prompt text and windows, pgvector
// SQL, BM25 query preparation and index state. See docs/retrieval.md "Public surface".
export type { Analyzer, ChineseAnalyzerOptions, EnglishAnalyzerOptions } from './analysis/analyzer.js';
export { LUCENE_ENGLISH_STOP_WORDS, createChineseAnalyzer, createEnglishAnalyzer } from './analysis/analyzer.js';
export type { StandardTokenizerOptions, Token, TokenType } from './analysis/standard-tokenizer.js';
export { tokenizeStandard } from './analysis/standard-tokenizer.js';
export type { Bm25Parameters, Bm25Variant } from './bm25/bm25-scoring.js';
export { BM25_VARIANTS } from './bm25/bm25-scoring.js';
export type {
  AddDocumentsOptions,
  AddDocumentsResult,
  Bm25Explanation,
  Bm25FieldWeights,
  Bm25Hit,
  Bm25Index,
  Bm25IndexOptions,
  Bm25IndexStatistics,
  Bm25Query,
  Bm25SearchOptions,
  Bm25SearchResult,
  Bm25Strategy,
  Bm25TermExplanation,
  Bm25WeightedTerm,
} from './bm25/bm25-index.js';
export { createBm25Index } from './bm25/bm25-index.js';
export type { DeserializeBm25IndexOptions } from './bm25/bm25-serialization.js';
export { deserializeBm25Index, serializeBm25Index } from './bm25/bm25-serialization.js';
export type { Bm25Retriever, Bm25RetrieverOptions } from './bm25/bm25-retriever.js';
export { createBm25Retriever } from './bm25/bm25-retriever.js';
export type { Bm25RetrieverFactoryOptions } from './bm25/bm25-retriever-factory.js';
export { createBm25RetrieverFactory } from './bm25/bm25-retriever-factory.js';
export type { Rm3ExpanderOptions } from './feedback/rm3-expander.js';
export { createRm3Expander } from './feedback/rm3-expander.js';

// --- dense (dense retrievers, fusion, stores, Rocchio) ---
export type { VectorMetric } from './dense/flat-index.js';
export type { QuantizationOptions, VectorRowSource } from './dense/quantized-flat-index.js';
export type { DenseIndexRequest, DenseIndexResult, DenseRetriever, DenseRetrieverOptions } from './dense/dense-retriever.js';
export { createDenseRetriever } from './dense/dense-retriever.js';
export type { BuildDenseIndexOptions, BuildDenseIndexResult } from './dense/build-dense-index.js';
export { buildDenseIndex } from './dense/build-dense-index.js';
export type { DenseRetrieverFactory, DenseRetrieverFactoryOptions, FieldedDenseRetriever } from './dense/dense-retriever-factory.js';
export { createDenseRetrieverFactory } from './dense/dense-retriever-factory.js';
export type { DenseIndexSnapshot, DenseStoredDocument, DeserializeDenseIndexOptions, RestoreDenseRetrieverOptions } from './dense/dense-serialization.js';
export { deserializeDenseIndex, restoreDenseRetriever, serializeDenseIndex } from './dense/dense-serialization.js';
export type { InMemoryVectorStore, InMemoryVectorStoreOptions } from './stores/in-memory-vector-store.js';
export { createInMemoryVectorStore } from './stores/in-memory-vector-store.js';
export type { FusionMethod, FusionOptions, ScoreNormalization, ScoredId } from './fusion/fuse-scores.js';
export { fuseScores } from './fusion/fuse-scores.js';
export type { HybridRetrieverOptions } from './fusion/hybrid-retriever.js';
export { createHybridRetriever } from './fusion/hybrid-retriever.js';
export type { MultiQueryRetrieverOptions } from './fusion/multi-query-retriever.js';
export { createMultiQueryRetriever } from './fusion/multi-query-retriever.js';
export type { RocchioExpanderOptions } from './feedback/rocchio-expander.js';
export { createRocchioExpander } from './feedback/rocchio-expander.js';
export type { PgVectorStoreOptions, SqlClient } from './stores/pgvector-vector-store.js';
export { createPgVectorStore } from './stores/pgvector-vector-store.js';
export type { QdrantClientLike, QdrantPoint, QdrantVectorStoreOptions } from './stores/qdrant-vector-store.js';
export { createQdrantVectorStore } from './stores/qdrant-vector-store.js';

// --- reranking (a second stage over any retriever) ---
export type { WithRerankerOptions } from './rerank/with-reranker.js';
export { withReranker } from './rerank/with-reranker.js';
export type { RankGptRerankerOptions } from './rerank/rankgpt-reranker.js';
export { createRankGptReranker } from './rerank/rankgpt-reranker.js';
