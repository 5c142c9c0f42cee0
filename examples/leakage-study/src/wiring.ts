import type { Document, Embedder, QueryExpander, Retriever } from '@factkit/core';
import { createBm25Retriever, createDenseRetriever, createMultiQueryRetriever, createRm3Expander } from '@factkit/retrieval';

/**
 * BM25 over the corpus (Lucene/Anserini BM25, k1 = 0.9, b = 0.4, as Pyserini in the paper) and RM3 pseudo-relevance
 * feedback (Anserini defaults: 10 feedback documents, 10 terms, original query weight 0.5) on the same index.
 */
export async function createBm25Wiring(corpus: readonly Document[]): Promise<{ retriever: Retriever; rm3: QueryExpander }> {
  const retriever = createBm25Retriever(corpus);
  return { retriever, rm3: createRm3Expander({ index: retriever.index }) };
}

/** A dense retriever over the corpus, embedded once with `embedder` (wrap it with withEmbeddingCache to keep vectors). */
export async function buildDenseRetriever(corpus: readonly Document[], embedder: Embedder, abortSignal?: AbortSignal): Promise<Retriever> {
  const retriever = createDenseRetriever({ embedder });
  await retriever.index({ documents: corpus, ...(abortSignal ? { abortSignal } : {}) });
  return retriever;
}

/**
 * The retriever of the multi-query method: `base` wrapped by @factkit/retrieval's `createMultiQueryRetriever`, which
 * searches the claim and every sub-query in `query.subQueries` (filled by the multi-query expander) and fuses the
 * rankings with reciprocal rank fusion (k = 60); a plain claim (the baseline) is searched by `base` as is.
 */
export function createSubQueryFusionRetriever(base: Retriever): Retriever {
  return createMultiQueryRetriever({ retriever: base, fusion: { method: 'rrf', k: 60 } });
}
