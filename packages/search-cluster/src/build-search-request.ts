import type { ItemProblem, Query, WeightedTerm } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import type { ResolvedFields } from './index-definition.js';
import type { SearchClusterProblemCode } from './search-cluster-options.js';

/** A `_search` request body, plus problems found while building it. `body` is undefined when there is nothing to search. */
export interface SearchRequestPlan {
  readonly body: Record<string, unknown> | undefined;
  readonly problems: ItemProblem<SearchClusterProblemCode>[];
}

function readWeightedTerms(query: Query, where: string): WeightedTerm[] | undefined {
  const raw: unknown = query.weightedTerms;
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw new InvalidArgumentError({ where, argument: 'query.weightedTerms', message: 'must be an array of { term, weight }' });
  return raw.map((entry: unknown, index) => {
    const candidate = entry as Partial<WeightedTerm> | null;
    if (typeof candidate?.term !== 'string' || typeof candidate.weight !== 'number' || !Number.isFinite(candidate.weight) || candidate.weight < 0) {
      throw new InvalidArgumentError({ where, argument: `query.weightedTerms[${index}]`, message: 'must be { term: string, weight: finite number ≥ 0 }' });
    }
    return { term: candidate.term, weight: candidate.weight };
  });
}

/**
 * The query DSL for a core `Query`, scored like `@factkit/retrieval`'s BM25 retriever:
 * - `query.text`: a `match` query (OR of the analysed terms; a term repeated n times counts n times, as Anserini's
 *   bag-of-words query) on each searched field, boosted by the field weight;
 * - `query.weightedTerms` (RM3, Rocchio), when present, replaces the text: one `term` query per analysed index term
 *   at its weight (duplicates summed, zero weights dropped) on each searched field.
 * Hits are sorted by score, ties by ascending document id (deterministic across shards and refreshes).
 * `query.vector` and `query.subQueries` are not used (a lexical retriever; fuse sub-queries with a fusing retriever).
 * @throws InvalidArgumentError for a query without a string `text` or with malformed `weightedTerms`.
 */
export function buildSearchRequest(query: Query, options: { topK: number; fields: ResolvedFields; where?: string }): SearchRequestPlan {
  const where = options.where ?? 'buildSearchRequest';
  if (typeof query !== 'object' || query === null) throw new InvalidArgumentError({ where, argument: 'query', message: 'must be a Query object' });
  const weighted = readWeightedTerms(query, where);
  if (!weighted && typeof query.text !== 'string') throw new InvalidArgumentError({ where, argument: 'query.text', message: 'must be a string' });
  const should: Record<string, unknown>[] = [];
  if (weighted) {
    const merged = new Map<string, number>();
    for (const { term, weight } of weighted) merged.set(term, (merged.get(term) ?? 0) + weight);
    for (const [term, weight] of merged) {
      if (weight === 0 || term.length === 0) continue;
      for (const [field, fieldWeight] of options.fields.searched) should.push({ term: { [field]: { value: term, boost: weight * fieldWeight } } });
    }
  } else if (query.text.trim().length > 0) {
    for (const [field, fieldWeight] of options.fields.searched) should.push({ match: { [field]: { query: query.text, operator: 'or', boost: fieldWeight } } });
  }
  if (should.length === 0) return { body: undefined, problems: [{ code: 'no-searchable-terms', message: 'query has no searchable terms' }] };
  return {
    body: {
      size: options.topK,
      query: should.length === 1 ? should[0] : { bool: { should } },
      sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
      track_total_hits: false,
      track_scores: true,
      _source: ['id', 'title', 'text', 'source', 'metadata'],
    },
    problems: [],
  };
}
