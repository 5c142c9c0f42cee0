import type { Document, Evidence, RetrieveRequest, RetrieveResult, Retriever } from '@factkit/core';
import { InvalidArgumentError, evidenceOrigin } from '@factkit/core';
import { type Bm25Index, type Bm25IndexOptions, type Bm25SearchOptions, type Bm25Strategy, createBm25Index } from './bm25-index.js';
import { readWeightedTerms } from './weighted-terms.js';
import type { RetrievalProblem, RetrievalProblemCode } from '../problem-codes.js';

export interface Bm25RetrieverOptions extends Bm25IndexOptions {
  /** Search strategy; results are identical, only speed differs. @default 'auto' */
  readonly strategy?: Bm25Strategy;
}

/** A core `Retriever` over a BM25 index, exposing the index for RM3, explain and saving. */
/** Problems: `no-searchable-terms`, `empty-index`. */
export interface Bm25Retriever extends Retriever<RetrievalProblemCode> {
  readonly index: Bm25Index;
}

/**
 * Creates a BM25 `Retriever` from documents (indexed here) or an existing index.
 * Understands weighted queries: when `query.weightedTerms` is present (RM3 writes it), those analysed index terms are
 * scored at their weights (Σ weight × BM25(term)) instead of analysing `query.text`.
 * An empty corpus or a query without searchable terms gives no evidence and a problem (`empty-index`, `no-searchable-terms`).
 * @throws InvalidArgumentError for duplicate or malformed documents and bad options.
 * @example const retriever = createBm25Retriever(documents); await retriever.retrieve({ query: { text: 'cats' }, topK: 5 })
 */
export function createBm25Retriever(source: readonly Document[] | Bm25Index, options: Bm25RetrieverOptions = {}): Bm25Retriever {
  const { strategy = 'auto', ...indexOptions } = options;
  let index: Bm25Index;
  if (Array.isArray(source)) index = createBm25Index({ ...indexOptions, documents: source });
  else if (typeof source === 'object' && source !== null && typeof (source as Bm25Index).search === 'function') index = source as Bm25Index;
  else throw new InvalidArgumentError({ where: 'createBm25Retriever', argument: 'source', message: 'must be an array of documents or a Bm25Index' });
  const { k1, b, variant } = index.parameters;
  const searchOne = (query: RetrieveRequest['query'], searchOptions: Bm25SearchOptions, where: string) => {
    if (typeof query !== 'object' || query === null) throw new InvalidArgumentError({ where, argument: 'query', message: 'must be a Query object' });
    const weighted = readWeightedTerms(query, where);
    if (!weighted && typeof query.text !== 'string') throw new InvalidArgumentError({ where, argument: 'query.text', message: 'must be a string' });
    return index.search(weighted ? { terms: weighted } : query.text, { strategy, ...searchOptions });
  };
  return {
    id: variant === 'lucene' ? `bm25(k1=${k1},b=${b})` : `bm25-${variant}(k1=${k1},b=${b})`,
    index,
    async retrieve(request: RetrieveRequest): Promise<RetrieveResult<RetrievalProblemCode>> {
      const where = 'Bm25Retriever.retrieve';
      request?.abortSignal?.throwIfAborted();
      if (typeof request !== 'object' || request === null || typeof request.query !== 'object' || request.query === null) throw new InvalidArgumentError({ where, argument: 'request.query', message: 'must be a Query object' });
      const { query, topK = 10 } = request;
      if (topK === 0) return { evidence: [] };
      const result = searchOne(query, { topK }, where);
      request.abortSignal?.throwIfAborted();
      const evidence: Evidence[] = result.hits.map((hit) => {
        const document = index.getDocument(hit.id);
        return {
          documentId: hit.id,
          text: document?.text ?? '',
          score: hit.score,
          rank: hit.rank,
          origin: evidenceOrigin(document ?? { id: hit.id }),
          ...(document?.metadata === undefined ? {} : { metadata: document.metadata }),
        };
      });
      const problems: RetrievalProblem[] = [...result.problems];
      if (index.documentCount === 0) problems.push({ code: 'empty-index', message: 'the index is empty' });
      return problems.length > 0 ? { evidence, problems } : { evidence };
    },
  };
}
