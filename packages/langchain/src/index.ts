// @factkit/langchain public surface: explicit named exports only.

// factkit → LangChain
export type { FactkitDocumentFields, FactkitDocumentMetadata, ToLangChainRetrieverOptions } from './to-langchain-retriever.js';
export { toLangChainRetriever } from './to-langchain-retriever.js';

// LangChain → factkit
export type {
  FromLangChainRetrieverOptions,
  FromLangChainVectorStoreOptions,
  LangChainDocumentMapping,
  LangChainProblemCode,
} from './from-langchain.js';
export { fromLangChainRetriever, fromLangChainVectorStore } from './from-langchain.js';

// The checker as a Runnable
export type { CheckerRunnableOptions } from './create-checker-runnable.js';
export { createCheckerRunnable } from './create-checker-runnable.js';
// factkit embedders for LangChain vector stores
export { toLangChainEmbeddings } from './to-langchain-embeddings.js';
