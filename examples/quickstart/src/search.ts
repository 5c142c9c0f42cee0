import type { Document, Embedder, ProgressCallback, Retriever } from '@factkit/core';
import { createBm25Retriever, createDenseRetriever, createHybridRetriever } from '@factkit/retrieval';

export interface QuickstartRetrievers {
  readonly bm25: Retriever;
  readonly dense: Retriever;
  readonly hybrid: Retriever;
}

/**
 * The documents the dense retriever embeds: the union of BM25's top `perQuestion` hits for each question. Embedding all
 * 82k WordNet noun glosses with USE-lite (≈20–100 sentences/s on a laptop core) would take many minutes, so the
 * quickstart re-scores BM25's candidates densely instead — the usual first-stage/second-stage split.
 */
export async function denseCandidates(bm25: Retriever, documents: readonly Document[], questions: readonly string[], perQuestion: number): Promise<Document[]> {
  const byId = new Map(documents.map((document) => [document.id, document]));
  const ids = new Set<string>();
  for (const text of questions) {
    const { evidence } = await bm25.retrieve({ query: { text }, topK: perQuestion });
    for (const item of evidence) ids.add(item.documentId);
  }
  return [...ids].map((id) => byId.get(id)!);
}

/**
 * Builds the three retrievers the quickstart compares: BM25 over every document (Lucene English analyzer, Anserini's
 * k1=0.9, b=0.4), dense cosine search over the given embedder on `denseDocuments` (default: every document), and their
 * reciprocal-rank fusion (RRF, c=60).
 */
export async function buildRetrievers(embedder: Embedder, documents: readonly Document[], options: { denseDocuments?: readonly Document[]; onProgress?: ProgressCallback } = {}): Promise<QuickstartRetrievers> {
  const bm25 = createBm25Retriever(documents);
  const dense = createDenseRetriever({ embedder, batchSize: 32 });
  const { problems } = await dense.index({ documents: options.denseDocuments ?? documents, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  if (problems.length > 0) throw new Error(`could not embed ${problems.length} documents: ${problems[0]?.message}`);
  const hybrid = createHybridRetriever({ retrievers: [bm25, dense], fusion: { method: 'rrf' } });
  return { bm25, dense, hybrid };
}
