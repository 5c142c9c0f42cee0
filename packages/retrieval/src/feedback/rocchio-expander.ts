import { assertNonNegativeInteger, assertNonNegativeNumber, assertPositiveInteger, type Embedder, type ExpandedQuery, InvalidArgumentError, type QueryExpander, type Retriever } from '@factkit/core';
import type { RetrievalProblem } from '../problem-codes.js';

export interface RocchioExpanderOptions {
  /** Embeds the query (kind 'query') and, unless `getVector` knows them, the feedback documents (kind 'passage'). */
  readonly embedder: Embedder;
  /** First-stage retriever whose top documents are taken as (pseudo-)relevant; any Retriever (dense, BM25, hybrid). */
  readonly retriever: Retriever;
  /** Weight of the original query vector. @default 1 */
  readonly alpha?: number;
  /** Weight of the mean of the feedback documents. @default 0.75 */
  readonly beta?: number;
  /** Weight of the mean of the non-relevant documents (subtracted). @default 0 */
  readonly gamma?: number;
  /** Top documents taken as relevant. @default 3 */
  readonly feedbackDocuments?: number;
  /** Documents ranked right after the feedback documents taken as non-relevant (used when gamma > 0). @default 0 */
  readonly nonRelevantDocuments?: number;
  /** Stored vectors by id (e.g. `createInMemoryVectorStore(...).getVector`), to avoid re-embedding feedback documents. */
  readonly getVector?: (id: string) => Float32Array | undefined;
  /** @default `rocchio(${retriever.id})` */
  readonly id?: string;
}

function checkWeight(value: number, argument: string): void {
  assertNonNegativeNumber(argument, value, 'createRocchioExpander');
}

/**
 * Rocchio pseudo-relevance feedback for dense vectors (Rocchio 1971; for dense retrievers see Li et al. 2023,
 * "Pseudo-relevance feedback with dense retrievers in Pyserini"): q' = α·q + β·mean(top-k documents) − γ·mean(non-relevant).
 * The expanded query keeps the original text and carries the new `vector`, which dense retrievers use directly.
 * Classical and LLM-free (`usesLanguageModel: false`).
 * @throws InvalidArgumentError for negative or non-finite weights and counts, or gamma > 0 without non-relevant documents.
 * @example
 * const rocchio = createRocchioExpander({ embedder, retriever: dense, getVector: store.getVector });
 * const expanded = await rocchio.expand({ query: { text: 'vitamin d and covid' } });
 * await dense.retrieve({ query: expanded });
 */
export function createRocchioExpander(options: RocchioExpanderOptions): QueryExpander {
  const { embedder, retriever, alpha = 1, beta = 0.75, gamma = 0, feedbackDocuments = 3, nonRelevantDocuments = 0, getVector } = options;
  const where = 'createRocchioExpander';
  if (!embedder || typeof embedder.embed !== 'function') throw new InvalidArgumentError({ where, argument: 'embedder', message: 'must be an Embedder' });
  if (!retriever || typeof retriever.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever' });
  checkWeight(alpha, 'alpha');
  checkWeight(beta, 'beta');
  checkWeight(gamma, 'gamma');
  assertPositiveInteger('feedbackDocuments', feedbackDocuments, where);
  assertNonNegativeInteger('nonRelevantDocuments', nonRelevantDocuments, where);
  if (gamma > 0 && nonRelevantDocuments === 0) throw new InvalidArgumentError({ where, argument: 'gamma', message: 'is > 0 but nonRelevantDocuments is 0, so there is nothing to subtract' });
  const { id = `rocchio(${retriever.id})` } = options;
  const dimensions = embedder.dimensions;
  const isWellFormed = (vector: unknown): vector is Float32Array => vector instanceof Float32Array && vector.length === dimensions && vector.every((value) => Number.isFinite(value));

  return {
    id,
    usesLanguageModel: false,
    async expand({ query, abortSignal }) {
      abortSignal?.throwIfAborted();
      const signal = abortSignal ? { abortSignal } : {};
      let queryVector = query.vector;
      if (queryVector !== undefined && !isWellFormed(queryVector)) {
        throw new InvalidArgumentError({ where: `${id}.expand`, argument: 'query.vector', message: `must be a Float32Array of ${dimensions} finite numbers` });
      }
      if (queryVector === undefined) {
        if (typeof query.text !== 'string' || query.text.trim().length === 0) {
          throw new InvalidArgumentError({ where: `${id}.expand`, argument: 'query.text', message: 'is empty and no query.vector was given' });
        }
        queryVector = (await embedder.embed({ texts: [query.text], kind: 'query', ...signal })).embeddings[0];
        if (!isWellFormed(queryVector)) throw new InvalidArgumentError({ where: `${id}.expand`, argument: 'embedder', message: 'returned a malformed query vector' });
      }
      const { evidence } = await retriever.retrieve({ query: { ...query, vector: queryVector }, topK: feedbackDocuments + nonRelevantDocuments, ...signal });
      const relevant = evidence.slice(0, feedbackDocuments);
      const nonRelevant = gamma > 0 ? evidence.slice(feedbackDocuments, feedbackDocuments + nonRelevantDocuments) : [];
      const problems: RetrievalProblem[] = [];
      // Vectors of the feedback documents: from the store when known, else embedded from the evidence text.
      const vectors = new Map<string, Float32Array>();
      const missing: { id: string; text: string }[] = [];
      for (const item of [...relevant, ...nonRelevant]) {
        const stored = getVector?.(item.documentId);
        if (isWellFormed(stored)) vectors.set(item.documentId, stored);
        else if (!vectors.has(item.documentId)) missing.push({ id: item.documentId, text: item.origin?.title ? `${item.origin.title}. ${item.text}` : item.text });
      }
      if (missing.length > 0) {
        const { embeddings } = await embedder.embed({ texts: missing.map((item) => item.text), kind: 'passage', ...signal });
        missing.forEach((item, index) => {
          const vector = embeddings[index];
          if (isWellFormed(vector)) vectors.set(item.id, vector);
          else problems.push({ id: item.id, code: 'bad-embedding', message: 'feedback document embedding is malformed; document skipped' });
        });
      }
      const mean = (items: typeof evidence) => {
        const sum = new Float64Array(dimensions);
        let count = 0;
        for (const item of items) {
          const vector = vectors.get(item.documentId);
          if (!vector) continue;
          for (let i = 0; i < dimensions; i += 1) sum[i] = (sum[i] as number) + (vector[i] as number);
          count += 1;
        }
        if (count > 0) for (let i = 0; i < dimensions; i += 1) sum[i] = (sum[i] as number) / count;
        return { sum, count };
      };
      const positive = mean(relevant);
      const negative = mean(nonRelevant);
      if (positive.count === 0) problems.push({ code: 'no-feedback-documents', message: 'the retriever returned no usable feedback documents; the vector is alpha × query' });
      const vector = new Float32Array(dimensions);
      for (let i = 0; i < dimensions; i += 1) {
        vector[i] = alpha * (queryVector[i] as number) + beta * (positive.sum[i] as number) - gamma * (negative.sum[i] as number);
      }
      const expanded: ExpandedQuery = {
        ...query,
        vector,
        original: query,
        generations: [],
        feedback: {
          method: 'rocchio',
          documentIds: relevant.map((item) => item.documentId),
          nonRelevantDocumentIds: nonRelevant.map((item) => item.documentId),
          parameters: { alpha, beta, gamma },
        },
        ...(problems.length > 0 ? { problems } : {}),
      };
      return expanded;
    },
  };
}
