import { assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError, type Query, type Retriever, type RetrieveResult } from '@factkit/core';
import { fuseScores, type FusionOptions } from './fuse-scores.js';
import { collectSearches, fuseEvidenceLists } from './fuse-evidence.js';

export interface MultiQueryRetrieverOptions {
  /** The retriever every text is searched with (BM25, dense, hybrid, …). */
  readonly retriever: Retriever;
  /**
   * How the lists are fused: RRF, CombSUM/CombMNZ, min-max or z-score (see `fuseScores`); every search weighs the same
   * (`weights` is rejected, since the number of searches varies by query). @default { method: 'rrf', k: 60 }
   */
  readonly fusion?: FusionOptions;
  /** Results asked of each search before fusing (at least `topK`). @default 100 */
  readonly candidateDepth?: number;
  /** @default `multi-query-${fusion.method}(${retriever.id})` */
  readonly id?: string;
}

/**
 * Wraps any retriever so that a query carrying `subQueries` (multi-query expansion) is searched once for `query.text`
 * and once for each distinct sub-query, concurrently, and the lists are fused with `fuseScores`. The `text` search
 * gets the whole query (its `vector`, `weightedTerms`, `metadata`); a sub-query search gets `{ text: subQuery }` only.
 * A sub-query equal to `text` or to an earlier sub-query (after trimming), or empty, is not searched again.
 * A query without sub-queries is passed to the wrapped retriever unchanged (so the baseline of a study is the plain
 * retriever). Evidence text and origin come from the first list that has the document (the `text` search first);
 * `score` is the fused score. A failed search becomes a `search-failed` problem (`index` = 0 for `text`, i for
 * sub-query i − 1) and the rest are fused; if every search fails, the first error is thrown; an abort rethrows its reason.
 * @throws InvalidArgumentError for a missing retriever, bad fusion options or `candidateDepth`; at retrieve time for a
 * `subQueries` that is not an array of strings or a bad `topK`.
 * @example
 * const fused = createMultiQueryRetriever({ retriever: bm25, fusion: { method: 'rrf' } });
 * await fused.retrieve({ query: { text: 'vitamin d covid', subQueries: ['does vitamin D prevent COVID-19?'] }, topK: 10 });
 */
export function createMultiQueryRetriever(options: MultiQueryRetrieverOptions): Retriever {
  const where = 'createMultiQueryRetriever';
  const { retriever, fusion = { method: 'rrf' }, candidateDepth = 100 } = options ?? ({} as MultiQueryRetrieverOptions);
  if (typeof retriever?.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever' });
  assertPositiveInteger('candidateDepth', candidateDepth, where);
  if (fusion?.weights !== undefined) {
    throw new InvalidArgumentError({ where, argument: 'fusion.weights', message: 'is not supported: the number of searches (text + distinct sub-queries) varies by query' });
  }
  fuseScores([[]], fusion); // validates the other fusion options once, up front
  const { id = `multi-query-${fusion.method ?? 'rrf'}(${retriever.id})` } = options;
  return {
    id,
    async retrieve({ query, topK = 10, abortSignal }): Promise<RetrieveResult> {
      abortSignal?.throwIfAborted();
      if (typeof query !== 'object' || query === null) throw new InvalidArgumentError({ where: `${id}.retrieve`, argument: 'query', message: 'must be a Query object' });
      assertNonNegativeInteger('topK', topK, `${id}.retrieve`);
      const { subQueries, ...main } = query;
      const signal = abortSignal ? { abortSignal } : {};
      if (subQueries === undefined || subQueries.length === 0) return retriever.retrieve({ query: main, topK, ...signal });
      if (!Array.isArray(subQueries)) throw new InvalidArgumentError({ where: `${id}.retrieve`, argument: 'query.subQueries', message: 'must be an array of strings' });
      // Sub-queries rephrase the query's text: with no text (and no vector or weighted terms) there is nothing to rephrase.
      if ((typeof main.text !== 'string' || main.text.trim().length === 0) && main.vector === undefined && main.weightedTerms === undefined) {
        return { evidence: [], problems: [{ code: 'empty-query', message: 'the query text is empty; its sub-queries were not searched' }] };
      }
      const seen = new Set<string>([typeof main.text === 'string' ? main.text.trim() : '']);
      const searches: { label: string; index: number; query: Query }[] = [{ label: 'query text', index: 0, query: main }];
      subQueries.forEach((subQuery, index) => {
        if (typeof subQuery !== 'string') throw new InvalidArgumentError({ where: `${id}.retrieve`, argument: `query.subQueries[${index}]`, message: `must be a string (got ${typeof subQuery})` });
        const key = subQuery.trim();
        if (key.length === 0 || seen.has(key)) return;
        seen.add(key);
        searches.push({ label: `sub-query ${index + 1}`, index: index + 1, query: { text: subQuery } });
      });
      if (searches.length === 1) return retriever.retrieve({ query: main, topK, ...signal });
      const depth = Math.max(topK, candidateDepth);
      const settled = await Promise.allSettled(searches.map((search) => retriever.retrieve({ query: search.query, topK: depth, ...signal })));
      abortSignal?.throwIfAborted();
      const { results, problems } = collectSearches(
        settled.map((outcome, position) => {
          const { label, index } = searches[position] as { label: string; index: number };
          return { label, index, outcome };
        }),
        'search-failed',
        abortSignal,
      );
      const evidence = fuseEvidenceLists(results, fusion, topK);
      return problems.length > 0 ? { evidence, problems } : { evidence };
    },
  };
}
