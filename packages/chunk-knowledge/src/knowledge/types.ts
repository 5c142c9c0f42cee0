import type { Chunk, ItemProblem } from '@factkit/core';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** A chunk with its generated knowledge: a one-sentence title and candidate questions. */
export interface AnnotatedChunk {
  readonly chunk: Chunk;
  readonly title: string;
  readonly questions: readonly string[];
  /** Who produced the title: the model, the baseline, or the baseline standing in for a missing model title. */
  readonly titleSource: 'model' | 'baseline' | 'fallback';
  /** e.g. `'lead-sentence+rake-templates (baseline)'`, `'chunk-knowledge.llm'`, `'chunk-knowledge.text2text'`. */
  readonly method: string;
  /** Per-field problems (`missing-title`, `count-mismatch`, `title-not-one-sentence`, ...). */
  readonly problems: readonly ItemProblem<ChunkKnowledgeProblemCode>[];
}

/** What a parser of a model reply extracts from one chunk. */
export interface ChunkKnowledgeFields {
  readonly title?: string;
  readonly questions: readonly string[];
}
