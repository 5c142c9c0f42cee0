export type { TransformersEmbedder, TransformersEmbedderOptions, TransformersEmbedResult, TransformersPooling } from './transformers-embedder.js';
export { createTransformersEmbedder } from './transformers-embedder.js';
export type { TransformersNliModel, TransformersNliModelOptions } from './transformers-nli-model.js';
export { createTransformersNliModel } from './transformers-nli-model.js';
export type { TransformersCrossEncoder, TransformersCrossEncoderOptions } from './transformers-cross-encoder.js';
export { createTransformersCrossEncoder } from './transformers-cross-encoder.js';
export type { TransformersText2TextModelOptions } from './transformers-text2text-model.js';
export { createTransformersText2TextModel } from './transformers-text2text-model.js';
export type { LocalModelOptions, TransformersDtype, TransformersProblemCode } from './local-model-options.js';
