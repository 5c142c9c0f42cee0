// Web search through a Serper-compatible JSON API (Google results) as a core Retriever.
export type { ParsedSnippet, SerperRetrieverOptions } from './create-serper-retriever.js';
export { createSerperRetriever, parseSerperResponse } from './create-serper-retriever.js';
