import type { Reranker, Retriever } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';

export interface WithRerankerOptions {
  /** Candidates fetched from the first stage and reranked (at least `topK` are always fetched). RankGPT: 100. @default 100 */
  readonly candidates?: number;
}

/**
 * A two-stage retriever: `retriever` fetches `candidates` results, `reranker` reorders them, the first `topK` are
 * returned (scores are the reranker's). Problems of both stages are kept; an empty query or a first stage with nothing
 * found makes no reranker call. An abort rejects with the reason.
 * @throws InvalidArgumentError when `retriever` or `reranker` is missing its method, or `candidates` is not a positive integer.
 * @example const retriever = withReranker(createBm25Retriever(documents), createRankGptReranker({ model }), { candidates: 100 });
 */
export function withReranker(retriever: Retriever, reranker: Reranker, options: WithRerankerOptions = {}): Retriever {
  const where = 'withReranker';
  if (!retriever || typeof retriever.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever (an object with retrieve())' });
  if (!reranker || typeof reranker.rerank !== 'function') throw new InvalidArgumentError({ where, argument: 'reranker', message: 'must be a Reranker (an object with rerank())' });
  const { candidates = 100 } = options;
  assertPositiveInteger('candidates', candidates, where);
  return {
    id: `${retriever.id}>>${reranker.id}`,
    async retrieve(request) {
      const { query, topK = 10, abortSignal } = request;
      abortSignal?.throwIfAborted();
      if (topK === 0) return { evidence: [] };
      const first = await retriever.retrieve({ query, topK: Math.max(candidates, topK), ...(abortSignal === undefined ? {} : { abortSignal }) });
      if (first.evidence.length === 0) return first;
      const second = await reranker.rerank({ query, evidence: first.evidence, topK, ...(abortSignal === undefined ? {} : { abortSignal }) });
      const problems = [...(first.problems ?? []), ...(second.problems ?? [])];
      return problems.length === 0 ? { evidence: second.evidence } : { evidence: second.evidence, problems };
    },
  };
}
