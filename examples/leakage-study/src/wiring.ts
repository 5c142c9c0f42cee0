import type { Document, Embedder, Evidence, ItemProblem, QueryExpander, Retriever } from '@factkit/core';
import { retrieveWithSubQueries, type FuseRankings } from '@factkit/expansion';
import { createBm25Retriever, createDenseRetriever, createRm3Expander, fuseScores } from '@factkit/retrieval';

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

/** Reciprocal rank fusion (k = 60) from @factkit/retrieval, shaped as @factkit/expansion's injected `fuse`. */
export const fuseWithRrf: FuseRankings = (rankings, { topK }) => {
  const byId = new Map<string, Evidence>();
  for (const ranking of rankings) for (const evidence of ranking) if (!byId.has(evidence.documentId)) byId.set(evidence.documentId, evidence);
  const fused = fuseScores(rankings.map((ranking) => ranking.map((evidence) => ({ id: evidence.documentId, score: evidence.score }))), { method: 'rrf' });
  return fused.slice(0, topK).map((item, index) => ({ ...(byId.get(item.id) as Evidence), score: item.score, rank: index + 1 }));
};

/**
 * A Retriever for multi-query expansion: searches every sub-query in `metadata.subQueries` with `base` and fuses the
 * rankings with RRF; a plain query (the baseline) is searched as is.
 */
export function createSubQueryFusionRetriever(base: Retriever): Retriever {
  return {
    id: `rrf(${base.id})`,
    async retrieve({ query, topK = 10, abortSignal }) {
      return { evidence: await retrieveWithSubQueries(query, { retriever: base, fuse: fuseWithRrf, topK, ...(abortSignal ? { abortSignal } : {}) }) };
    },
  };
}
