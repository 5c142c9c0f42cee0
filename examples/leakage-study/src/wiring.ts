import type { Document, Embedder, ItemProblem, QueryExpander, Retriever } from '@factkit/core';
import { createBm25Retriever, createDenseRetriever, createMultiQueryRetriever, createRm3Expander } from '@factkit/retrieval';

/**
 * BM25 over the corpus (Lucene/Anserini BM25, k1 = 0.9, b = 0.4, as Pyserini in the paper) and RM3 pseudo-relevance
 * feedback (Anserini defaults: 10 feedback documents, 10 terms, original query weight 0.5) on the same index.
 */
export async function createBm25Wiring(corpus: readonly Document[]): Promise<{ retriever: Retriever; rm3: QueryExpander }> {
  return createBm25WiringSync(corpus);
}

/** {@link createBm25Wiring} without the promise, for building many small indexes (AVeriTeC's per-claim stores). */
export function createBm25WiringSync(corpus: readonly Document[]): { retriever: Retriever; rm3: QueryExpander } {
  const retriever = createBm25Retriever(corpus);
  return { retriever, rm3: createRm3Expander({ index: retriever.index }) };
}

/**
 * A dense retriever over the corpus, embedded once with `embedder` (wrap it with withEmbeddingCache to keep vectors).
 * Documents that could not be embedded are returned as problems (never silently missing from the store).
 */
export async function buildDenseRetriever(corpus: readonly Document[], embedder: Embedder, abortSignal?: AbortSignal): Promise<{ retriever: Retriever; problems: readonly ItemProblem[] }> {
  const retriever = createDenseRetriever({ embedder });
  const { problems } = await retriever.index({ documents: corpus, ...(abortSignal ? { abortSignal } : {}) });
  return { retriever, problems };
}

/**
 * The retriever of the multi-query method: `base` wrapped by @factkit/retrieval's `createMultiQueryRetriever`, which
 * searches the claim and every sub-query in `query.subQueries` (filled by the multi-query expander) and fuses the
 * rankings with reciprocal rank fusion (k = 60); a plain claim (the baseline) is searched by `base` as is.
 */
export function createSubQueryFusionRetriever(base: Retriever): Retriever {
  return createMultiQueryRetriever({ retriever: base, fusion: { method: 'rrf', k: 60 } });
}
