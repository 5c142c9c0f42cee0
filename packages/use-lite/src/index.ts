export type { UseLiteBackend, UseLiteEmbedder, UseLiteEmbedderOptions } from './use-lite-embedder.js';
export { USE_LITE_DIMENSIONS, USE_LITE_MAX_TEXT_LENGTH, USE_LITE_WINDOW_OVERLAP, USE_LITE_WINDOW_TOKENS, createUseLiteEmbedder } from './use-lite-embedder.js';
