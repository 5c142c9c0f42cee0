import { assertNonNegativeNumber, assertProbability, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { FieldedDocument, Retriever, RetrieverFactory } from '@factkit/core';
import { chunkOrigin } from '../internal/chunk-origin.js';
import { lexicalTerms } from '../internal/lexical.js';
import type { AnnotatedChunk } from '../knowledge/types.js';
import type { LayoutField } from './layouts.js';

export interface FieldedBm25Options {
  /** Builds the index: e.g. `createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 0.9, b: 0.4 })` from @factkit/retrieval. */
  readonly factory: RetrieverFactory;
  /** Weight per field; a field left out (or weight 0) is not indexed. @default { title: 1, questions: 1, chunk: 1 } */
  readonly weights?: Readonly<Partial<Record<LayoutField, number>>>;
  readonly abortSignal?: AbortSignal;
}

/**
 * The analysis of chunk-knowledge's lexical matching, as a retrieval `Analyzer` (`{ id, analyze }`): lower-cased,
 * Porter-stemmed words (@factkit/metrics) without RAKE's English stop words. Pass it to the BM25 factory to index the
 * fields as the paper-replication study does.
 */
export const CHUNK_KNOWLEDGE_ANALYZER: { readonly id: string; analyze(text: string): string[] } = Object.freeze({ id: 'chunk-knowledge-english', analyze: lexicalTerms });

/** An annotated chunk as a fielded document: `title`, `questions` (one text per question) and `chunk`, origin = parent + chunk id. */
export function toFieldedDocument(item: AnnotatedChunk): FieldedDocument {
  return {
    id: item.chunk.id,
    fields: { title: item.title, questions: item.questions, chunk: item.chunk.text },
    text: item.chunk.text,
    origin: chunkOrigin(item.chunk),
    ...(item.chunk.metadata === undefined ? {} : { metadata: item.chunk.metadata }),
  };
}

/**
 * A lexical `Retriever` over annotated chunks with per-field weights (score = Σ_field weight × BM25(field), each field
 * with its own length statistics), built by the given `RetrieverFactory` (chunk-knowledge keeps no BM25 of its own).
 * Evidence `documentId` is the chunk id; `origin` is the parent document and the chunk.
 * @throws InvalidArgumentError for a missing factory, negative weights or all weights 0.
 * @example const retriever = await createFieldedBm25Retriever(items, { factory: createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER }) })
 */
export async function createFieldedBm25Retriever(items: readonly AnnotatedChunk[], options: FieldedBm25Options): Promise<Retriever> {
  const { factory, weights = { title: 1, questions: 1, chunk: 1 }, abortSignal } = options;
  const where = 'createFieldedBm25Retriever';
  if (!factory || typeof factory.createRetriever !== 'function') throw new InvalidArgumentError({ where, argument: 'factory', message: 'must be a RetrieverFactory (e.g. createBm25RetrieverFactory from @factkit/retrieval)' });
  const fields: Record<string, number> = {};
  for (const [field, weight] of Object.entries(weights)) {
    if (typeof weight !== 'number' || !(weight >= 0)) throw new InvalidArgumentError({ where, argument: 'weights', message: `must be numbers >= 0 (got ${String(weight)})` });
    if (weight > 0) fields[field] = weight;
  }
  if (Object.keys(fields).length === 0) throw new InvalidArgumentError({ where, argument: 'weights', message: 'must give at least one field a weight > 0' });
  throwIfAborted(abortSignal);
  return factory.createRetriever({ documents: items.map(toFieldedDocument), fields, ...(abortSignal ? { abortSignal } : {}) });
}
