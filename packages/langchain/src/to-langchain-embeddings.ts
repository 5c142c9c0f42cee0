import type { Embedder } from '@factkit/core';
import { embedInBatches, InvalidArgumentError } from '@factkit/core';
import { Embeddings, type EmbeddingsParams } from '@langchain/core/embeddings';

class FactkitLangChainEmbeddings extends Embeddings {
  constructor(
    readonly embedder: Embedder,
    params: EmbeddingsParams,
  ) {
    super(params);
  }
  async embedDocuments(documents: string[]): Promise<number[][]> {
    const vectors = await this.caller.call(() => embedInBatches(this.embedder, documents, { kind: 'passage' }));
    return vectors.map((vector) => Array.from(vector));
  }
  async embedQuery(document: string): Promise<number[]> {
    const [vector] = await this.caller.call(() => embedInBatches(this.embedder, [document], { kind: 'query' }));
    if (vector === undefined) throw new InvalidArgumentError({ where: 'toLangChainEmbeddings', argument: 'embedder', message: 'returned no vector for the query' });
    return Array.from(vector);
  }
}

/**
 * Any factkit {@link Embedder} (USE-lite, GloVe, transformers.js, an OpenAI-compatible endpoint) as LangChain
 * `Embeddings`, so LangChain vector stores can be filled with it: documents are embedded as `kind: 'passage'` in the
 * embedder's batch size, queries as `kind: 'query'` (E5-style prefixes stay right).
 * @throws InvalidArgumentError when `embedder` has no `embed()`.
 * @example const store = await MemoryVectorStore.fromDocuments(documents, toLangChainEmbeddings(createGloveEmbedder()));
 */
export function toLangChainEmbeddings(embedder: Embedder, params: EmbeddingsParams = { maxRetries: 0 }): Embeddings {
  if (!embedder || typeof embedder.embed !== 'function') throw new InvalidArgumentError({ where: 'toLangChainEmbeddings', argument: 'embedder', message: 'must be a factkit Embedder (an object with embed())' });
  return new FactkitLangChainEmbeddings(embedder, params);
}
