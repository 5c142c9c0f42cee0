export type { GloveEmbedder, GloveEmbedderOptions, GloveEmbedResult, GloveProblemCode } from './glove-embedder.js';
export { createGloveEmbedder } from './glove-embedder.js';
export type { GloveVectors } from './glove-vectors.js';
export { createGloveVectors } from './glove-vectors.js';
export type { GloveLoadEvent, LoadGloveVectorsOptions } from './load-glove-vectors.js';
export { loadGloveVectors } from './load-glove-vectors.js';
export type { GloveTokens, Vocabulary } from './tokenize-for-glove.js';
export { tokenizeForGlove } from './tokenize-for-glove.js';
