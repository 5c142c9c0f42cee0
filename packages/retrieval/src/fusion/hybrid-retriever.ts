import { assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError, type Retriever } from '@factkit/core';
import { collectSearches, fuseEvidenceLists } from './fuse-evidence.js';
import { fuseScores, type FusionOptions } from './fuse-scores.js';

export interface HybridRetrieverOptions {
  /** The systems to fuse, e.g. [bm25, dense]. */
  readonly retrievers: readonly Retriever[];
  /** How to fuse. @default { method: 'rrf', k: 60 } */
  readonly fusion?: FusionOptions;
  /** Results asked of each retriever before fusing (at least `topK`). @default 100 */
  readonly candidateDepth?: number;
  /** @default `hybrid(${ids joined by '+'})` */
  readonly id?: string;
}

/**
 * Creates a Retriever that queries several retrievers concurrently and fuses their rankings with `fuseScores`.
 * Evidence text and origin come from the first retriever that returned the document. If a retriever fails (other than
 * by abort), its error becomes a `retriever-failed` problem and the others are fused; if all fail, the first error is
 * thrown. Each retriever's own problems are passed on, prefixed with its id (`index` = its position).
 * @throws InvalidArgumentError for an empty `retrievers` list, bad fusion options or `candidateDepth`.
 * @example
 * const hybrid = createHybridRetriever({ retrievers: [bm25, dense], fusion: { method: 'rrf' } });
 * const { evidence } = await hybrid.retrieve({ query: { text: 'vitamin d and covid' }, topK: 10 });
 */
export function createHybridRetriever(options: HybridRetrieverOptions): Retriever {
  const where = 'createHybridRetriever';
  const { retrievers, fusion = { method: 'rrf' }, candidateDepth = 100 } = options;
  if (!Array.isArray(retrievers) || retrievers.length === 0) throw new InvalidArgumentError({ where, argument: 'retrievers', message: 'must be a non-empty array of Retriever' });
  retrievers.forEach((retriever, index) => {
    if (typeof retriever?.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: `retrievers[${index}]`, message: 'must be a Retriever' });
  });
  assertPositiveInteger('candidateDepth', candidateDepth, where);
  // Validate fusion options once, up front.
  fuseScores(
    retrievers.map(() => []),
    fusion,
  );
  const { id = `hybrid(${retrievers.map((retriever) => retriever.id).join('+')})` } = options;
  return {
    id,
    async retrieve({ query, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      assertNonNegativeInteger('topK', topK, `${id}.retrieve`);
      const depth = Math.max(topK, candidateDepth);
      const settled = await Promise.allSettled(retrievers.map((retriever) => retriever.retrieve({ query, topK: depth, ...(abortSignal ? { abortSignal } : {}) })));
      abortSignal?.throwIfAborted();
      const { results, problems } = collectSearches(
        settled.map((outcome, index) => ({ label: (retrievers[index] as Retriever).id, outcome })),
        'retriever-failed',
        abortSignal,
      );
      const evidence = fuseEvidenceLists(results, fusion, topK);
      return problems.length > 0 ? { evidence, problems } : { evidence };
    },
  };
}
