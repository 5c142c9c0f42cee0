export type { UseLiteBackend, UseLiteEmbedder, UseLiteEmbedderOptions } from './use-lite-embedder.js';
export { USE_LITE_DIMENSIONS, USE_LITE_MAX_TEXT_LENGTH, createUseLiteEmbedder } from './use-lite-embedder.js';
