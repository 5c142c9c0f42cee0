// Web search through a Serper-compatible JSON API (Google results) as a core Retriever.
export type { SerperProblemCode, SerperRetrieverOptions } from './create-serper-retriever.js';
export { createSerperRetriever } from './create-serper-retriever.js';
