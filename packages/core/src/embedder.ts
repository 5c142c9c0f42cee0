import type { ItemProblem } from './query.js';

/** Queries and passages may be embedded differently (E5/Contriever prefixes). */
export type EmbeddingKind = 'query' | 'passage';

export interface EmbedRequest {
  readonly texts: readonly string[];
  readonly kind: EmbeddingKind;
  readonly abortSignal?: AbortSignal;
}

export interface EmbedResult {
  readonly embeddings: Float32Array[];
  /** Per-text problems (e.g. a text truncated to the model's input limit); `index` is the text's position. */
  readonly problems?: readonly ItemProblem[];
}

/** Maps texts to fixed-size vectors. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Largest number of texts one `embed` call accepts; callers batch above it. */
  readonly maxBatchSize?: number;
  /** True when vectors are L2-normalized, so inner product equals cosine. */
  readonly normalized?: boolean;
  embed(request: EmbedRequest): Promise<EmbedResult>;
}
