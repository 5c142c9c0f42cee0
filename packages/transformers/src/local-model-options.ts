/** Data types transformers.js maps to ONNX file suffixes (`fp32` → `model.onnx`, `q8` → `model_quantized.onnx`, …). */
export type TransformersDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';

/** Options every local transformers.js model shares. */
export interface LocalModelOptions {
  /** Directory holding config.json, tokenizer.json, tokenizer_config.json and onnx/<name>.onnx. Never a Hub id. */
  readonly modelPath: string;
  /** Which ONNX weights to load (file suffix). @default 'fp32' */
  readonly dtype?: TransformersDtype;
}

/**
 * Every problem code a transformers.js model of this package emits: `no-tokens` (embedder: a text the tokenizer made no
 * tokens of, given a zero vector) and `empty-query` (cross-encoder: a query with no text, answered with no evidence).
 */
export type TransformersProblemCode = 'no-tokens' | 'empty-query';
