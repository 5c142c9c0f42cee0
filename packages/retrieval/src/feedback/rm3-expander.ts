import type { ExpandRequest, ExpandedQuery, Query, QueryExpander } from '@factkit/core';
import { assertPositiveInteger, assertProbability, InvalidArgumentError } from '@factkit/core';
import type { Bm25Index, Bm25WeightedTerm } from '../bm25/bm25-index.js';
import { readWeightedTerms } from '../bm25/weighted-terms.js';

export interface Rm3ExpanderOptions {
  readonly index: Bm25Index;
  /** Feedback documents (Anserini `-rm3.fbDocs`). @default 10 */
  readonly fbDocs?: number;
  /** Expansion terms kept per document and in the model (Anserini `-rm3.fbTerms`). @default 10 */
  readonly fbTerms?: number;
  /** Weight of the original query in the interpolation (Anserini `-rm3.originalQueryWeight`). @default 0.5 */
  readonly originalQueryWeight?: number;
  /** Drop feedback terms of length < 2 or > 20, not `[a-z0-9]+`, or in > 10% of documents (Anserini's filter). @default true */
  readonly filterTerms?: boolean;
}

export interface Rm3Model {
  /** Interpolated query: originalQueryWeight × query + (1 − originalQueryWeight) × relevance model. */
  readonly terms: Bm25WeightedTerm[];
  /** The relevance model alone (unit L1). */
  readonly relevanceModel: Bm25WeightedTerm[];
  readonly feedbackDocumentIds: string[];
}

const byWeightThenTerm = (a: [string, number], b: [string, number]): number => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function positiveInteger(value: number, argument: string): void {
  assertPositiveInteger(argument, value, 'createRm3Expander');
}

/**
 * Computes the RM3 feedback query the way Anserini's `Rm3Reranker` does: BM25 top-`fbDocs` documents, each
 * document's term-frequency vector filtered and pruned to its `fbTerms` most frequent terms, L1-normalised and
 * weighted by the document's BM25 score, summed, pruned to `fbTerms`, L1-normalised, then interpolated with the
 * L1-normalised original query.
 */
export function computeRm3Model(index: Bm25Index, query: Query, options: Omit<Rm3ExpanderOptions, 'index'> = {}): Rm3Model {
  const { fbDocs = 10, fbTerms = 10, originalQueryWeight = 0.5, filterTerms = true } = options;
  const weighted = readWeightedTerms(query, 'computeRm3Model') ?? index.analyzeQuery(query.text).terms;
  const initial = index.search({ terms: weighted }, { topK: fbDocs });
  const documentCount = index.documentCount;
  const dfRatioOk = (term: string): boolean => !filterTerms || index.documentFrequency(term) / documentCount <= 0.1;
  const vectors: Map<string, number>[] = [];
  for (const hit of initial.hits) {
    const entries: [string, number][] = [];
    for (const [term, tf] of index.documentTermFrequencies(hit.id)) {
      if (filterTerms && (term.length < 2 || term.length > 20 || !/^[a-z0-9]+$/.test(term))) continue;
      if (!dfRatioOk(term)) continue;
      entries.push([term, tf]);
    }
    entries.sort(byWeightThenTerm);
    vectors.push(new Map(entries.slice(0, fbTerms)));
  }
  const norms = vectors.map((vector) => [...vector.values()].reduce((sum, value) => sum + value, 0));
  const model = new Map<string, number>();
  vectors.forEach((vector, position) => {
    const norm = norms[position] as number;
    if (norm <= 0.001) return;
    const score = (initial.hits[position] as { score: number }).score;
    for (const [term, value] of vector) model.set(term, (model.get(term) ?? 0) + (value / norm) * score);
  });
  const pruned = [...model].sort(byWeightThenTerm).slice(0, fbTerms);
  const modelTotal = pruned.reduce((sum, [, value]) => sum + value, 0);
  const relevanceModel = pruned.map(([term, value]) => ({ term, weight: modelTotal > 0 ? value / modelTotal : 0 }));
  const queryTotal = weighted.reduce((sum, entry) => sum + entry.weight, 0);
  const combined = new Map<string, number>();
  for (const { term, weight } of weighted) if (queryTotal > 0) combined.set(term, (combined.get(term) ?? 0) + originalQueryWeight * (weight / queryTotal));
  for (const { term, weight } of relevanceModel) combined.set(term, (combined.get(term) ?? 0) + (1 - originalQueryWeight) * weight);
  const terms = [...combined].sort(byWeightThenTerm).map(([term, weight]) => ({ term, weight }));
  return { terms, relevanceModel, feedbackDocumentIds: initial.hits.map((hit) => hit.id) };
}

/**
 * RM3 pseudo-relevance feedback as a core `QueryExpander` (the LLM-free counterpart of HyDE/Query2doc).
 * The expanded query carries the interpolated query in the typed channel `weightedTerms` (original terms included,
 * at their interpolated weights), which `createBm25Retriever` scores instead of analysing `text`; its `text` is the
 * original text plus the expansion terms, for retrievers that only read text. RM3 generates no text, so
 * `generations` is empty; the feedback documents and parameters are in the typed `feedback`.
 * @example const expander = createRm3Expander({ index }); const expanded = await expander.expand({ query: { text: 'cats' } })
 */
export function createRm3Expander(options: Rm3ExpanderOptions): QueryExpander {
  const { index, fbDocs = 10, fbTerms = 10, originalQueryWeight = 0.5, filterTerms = true } = options ?? ({} as Rm3ExpanderOptions);
  if (typeof index !== 'object' || index === null || typeof index.search !== 'function') throw new InvalidArgumentError({ where: 'createRm3Expander', argument: 'index', message: 'must be a Bm25Index' });
  positiveInteger(fbDocs, 'fbDocs');
  positiveInteger(fbTerms, 'fbTerms');
  assertProbability('originalQueryWeight', originalQueryWeight, 'createRm3Expander');
  return {
    id: `rm3(fbDocs=${fbDocs},fbTerms=${fbTerms},originalQueryWeight=${originalQueryWeight})`,
    usesLanguageModel: false,
    async expand(request: ExpandRequest): Promise<ExpandedQuery> {
      request?.abortSignal?.throwIfAborted();
      const query = request?.query;
      if (typeof query !== 'object' || query === null || typeof query.text !== 'string') throw new InvalidArgumentError({ where: 'Rm3Expander.expand', argument: 'request.query', message: 'must be a Query with string text' });
      const model = computeRm3Model(index, query, { fbDocs, fbTerms, originalQueryWeight, filterTerms });
      const originalTerms = new Set(index.analyzeQuery(query.text).terms.map((entry) => entry.term));
      const expansion = model.relevanceModel.map((entry) => entry.term).filter((term) => !originalTerms.has(term));
      return {
        ...query,
        text: expansion.length > 0 ? `${query.text} ${expansion.join(' ')}` : query.text,
        weightedTerms: model.terms,
        feedback: { method: 'rm3', documentIds: model.feedbackDocumentIds, parameters: { fbDocs, fbTerms, originalQueryWeight } },
        original: query,
        generations: [],
      };
    },
  };
}
