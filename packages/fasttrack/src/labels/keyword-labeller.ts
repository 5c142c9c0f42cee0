import type { GenerationProvenance, ProgressCallback, ItemProblem } from '@factkit/core';
import type { FastTrackProblemCode } from '../problem-codes.js';

/** The texts of one leaf cluster, as a labeller sees them. */
export interface LabelCluster {
  /** Leaf node id in its tree. */
  readonly leafId: number;
  readonly texts: readonly string[];
}

export interface LabelRequest {
  /** Every leaf of the tree (class-based labellers need all classes for their statistics). */
  readonly clusters: readonly LabelCluster[];
  /** Positions in `clusters` to label. @default all */
  readonly targets?: readonly number[];
  readonly abortSignal?: AbortSignal;
  /** Called as clusters are labelled (`failed` counts clusters whose labelling failed). */
  readonly onProgress?: ProgressCallback;
}

/** Keywords of one cluster. A failed call leaves `keywords` empty and `status: 'failed'` (never a default label). */
export interface ClusterLabel {
  readonly leafId: number;
  readonly status: 'ok' | 'failed';
  readonly keywords: readonly string[];
  readonly problems: readonly ItemProblem<FastTrackProblemCode>[];
  /** LLM labellers: the exact prompt, model, sampling, usage. */
  readonly provenance?: GenerationProvenance;
}

/** Assigns keywords to leaf clusters (paper Fig. 3 with an LLM, or class-based TF-IDF offline). */
export interface KeywordLabeller {
  /** e.g. 'c-tf-idf', 'llm(gpt-4-1106-preview)'. Stored in the index. */
  readonly id: string;
  /** One label per target, in target order. */
  label(request: LabelRequest): Promise<ClusterLabel[]>;
}
