export type { UseLiteBackend, UseLiteEmbedder, UseLiteEmbedderOptions } from './use-lite-embedder.js';
export { USE_LITE_DIMENSIONS, createUseLiteEmbedder } from './use-lite-embedder.js';
