import type { StepProblemCode } from '@factkit/core';

/**
 * Every problem code `@factkit/chunk-knowledge` emits: chunking, chunk annotation, query keywords, indexing and the
 * layout study. Its problem and outcome types are typed with it, so a `switch (problem.code)` is checked by the
 * compiler.
 */
export type ChunkKnowledgeProblemCode =
  // Chunking (chunkers and chunkDocuments).
  | 'empty-document'
  | 'invalid-text'
  | 'long-sentence-split'
  | 'invalid-document'
  | 'duplicate-document-id'
  | 'duplicate-chunk'
  // Chunk knowledge (model and text2text replies, the offline annotator).
  | 'empty-reply'
  | 'refusal'
  | 'no-usable-reply'
  | 'missing-title'
  | 'title-not-one-sentence'
  | 'title-fallback'
  | 'missing-questions'
  | 'duplicate-question'
  | 'count-mismatch'
  // Query keywords.
  | 'no-keywords'
  | 'keyword-not-in-query'
  // Indexing: an empty field of a chunk is not indexed.
  | 'empty-field'
  // runLayoutStudy: a retriever that threw for a query.
  | 'retrieval-failed'
  // The model calls (core's runPromptedStep): failed call, missing reply, parser failure, bad input.
  | StepProblemCode;
