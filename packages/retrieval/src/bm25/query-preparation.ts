import { assertNonNegativeNumber, InvalidArgumentError } from '@factkit/core';
import type { Analyzer } from '../analysis/analyzer.js';
import { computeIdf, computeKey, computeWeight, scoreFromKey } from './bm25-scoring.js';
import type { Bm25Query } from './bm25-index.js';
import type { DenseMirror } from './kernel/dense-mirror.js';
import type { ScoringStatistics } from './scoring-statistics.js';
import { type KernelField, type KernelList, LOWER_BOUND_RANK } from './search-kernel.js';
import type { RetrievalProblem } from '../problem-codes.js';

/** A query resolved against the index: one posting list per (term, field), with weights and score upper bounds. */
export interface PreparedQuery {
  readonly lists: KernelList[];
  readonly kernelFields: KernelField[];
  readonly kernelParameters: { variant: number; k1: number; delta: number };
  readonly documentCount: number;
  /** The index's WebAssembly copy of its postings (small lucene indexes), or null. */
  readonly denseMirror: DenseMirror | null;
  /** Identifies the scoring state the lists point into (see ScoringStatistics.id). */
  readonly stateId: number;
  /** Sum of the lists' upper bounds (the `normalizedScore` denominator). */
  readonly maxPossibleScore: number;
  /** e.g. code `no-searchable-terms`. */
  readonly problems: RetrievalProblem[];
  readonly listInfo: ReadonlyArray<{ term: string; field: number; boost: number; idf: number; df: number }>;
}

/** Text → weighted terms: the analyser's terms, each weighted by how often it occurs (Anserini's bag-of-words query). */
export function analyzeQueryText(analyzer: Analyzer, text: string): Bm25Query {
  const weights = new Map<string, number>();
  for (const term of analyzer.analyze(String(text))) weights.set(term, (weights.get(term) ?? 0) + 1);
  return { terms: [...weights].map(([term, weight]) => ({ term, weight })) };
}

/**
 * A query as term → summed weight in first-occurrence order (what {@link prepareQuery} resolves): a text query's
 * analysed terms counted directly (no intermediate term objects), a weighted query checked and merged.
 * @throws InvalidArgumentError naming the bad term or weight.
 */
export function toTermWeights(analyzer: Analyzer, query: string | Bm25Query, where: string): Map<string, number> {
  const merged = new Map<string, number>();
  if (typeof query === 'string') {
    for (const term of analyzer.analyze(query)) merged.set(term, (merged.get(term) ?? 0) + 1);
    return merged;
  }
  for (const { term, weight } of toWeightedQuery(analyzer, query, where).terms) merged.set(term, (merged.get(term) ?? 0) + weight);
  return merged;
}

/**
 * A text query analysed, or a weighted query checked.
 * @throws InvalidArgumentError naming the bad term or weight.
 */
export function toWeightedQuery(analyzer: Analyzer, query: string | Bm25Query, where: string): Bm25Query {
  if (typeof query === 'string') return analyzeQueryText(analyzer, query);
  if (typeof query !== 'object' || query === null || !Array.isArray(query.terms)) throw new InvalidArgumentError({ where, argument: 'query', message: 'must be a string or { terms: [{ term, weight }] }' });
  query.terms.forEach((entry, index) => {
    if (typeof entry?.term !== 'string') throw new InvalidArgumentError({ where, argument: `query.terms[${index}].term`, message: 'must be a string' });
    assertNonNegativeNumber(`query.terms[${index}].weight`, entry.weight, where);
  });
  return query;
}

/**
 * Resolves weighted terms to posting lists: duplicate terms merged (weights summed, first-occurrence order), idf per
 * field (Lucene: over documents having the field), weight = boost × idf, and each list's exact upper bound from its
 * maximum monotone key (computed once per term and cached in `statistics.maxKeys`).
 */
export function prepareQuery(input: {
  /** Term → summed weight, first-occurrence order ({@link toTermWeights}). */
  readonly weights: ReadonlyMap<string, number>;
  readonly statistics: ScoringStatistics;
  readonly termIds: ReadonlyMap<string, number>;
  readonly documentCount: number;
  readonly fieldWeights: readonly number[];
}): PreparedQuery {
  const { weights: merged, statistics: state, termIds, documentCount, fieldWeights } = input;
  const { variant: variantCode } = state;
  const { k1: k1Value, delta: deltaValue } = state.parameters;
  const problems: RetrievalProblem[] = [];
  if (merged.size === 0) problems.push({ code: 'no-searchable-terms', message: 'query has no searchable terms after analysis' });
  const lists: KernelList[] = [];
  const listInfo: { term: string; field: number; boost: number; idf: number; df: number }[] = [];
  let maxPossibleScore = 0;
  const fieldCount = state.kernelFields.length;
  for (const [term, queryWeight] of merged) {
    if (queryWeight === 0) continue;
    const termId = termIds.get(term);
    if (termId === undefined) continue;
    for (let field = 0; field < fieldCount; field++) {
      const kernelField = state.kernelFields[field] as KernelField;
      const start = kernelField.termOffsets[termId] as number;
      const end = kernelField.termOffsets[termId + 1] as number;
      if (end <= start) continue;
      const df = end - start;
      const docCount = variantCode === 0 ? (state.documentsWithField[field] as number) : documentCount;
      const idf = computeIdf(variantCode, df, docCount);
      const boost = queryWeight * (fieldWeights[field] as number);
      const weight = computeWeight(variantCode, boost, idf);
      const maxKeys = state.maxKeys[field] as Float64Array;
      let maxKey = maxKeys[termId] as number;
      if (Number.isNaN(maxKey)) maxKey = computeTermKeys(variantCode, kernelField, termId, start, end, maxKeys, state.kthKeys[field] as Float64Array);
      const kthKey = (state.kthKeys[field] as Float64Array)[termId] as number;
      const upperBound = scoreFromKey(variantCode, weight, maxKey, k1Value, deltaValue);
      const impacts = kernelField.impacts !== undefined && weight === computeWeight(variantCode, fieldWeights[field] as number, idf);
      lists.push(kthKey === -Infinity ? { field, start, end, weight, upperBound, impacts } : { field, start, end, weight, upperBound, impacts, kthLowerBound: scoreFromKey(variantCode, weight, kthKey, k1Value, deltaValue) });
      listInfo.push({ term, field, boost, idf, df });
      maxPossibleScore += upperBound;
    }
  }
  return {
    lists,
    kernelFields: state.kernelFields,
    kernelParameters: { variant: variantCode, k1: k1Value, delta: deltaValue },
    documentCount,
    denseMirror: state.denseMirror,
    stateId: state.id,
    maxPossibleScore,
    problems,
    listInfo,
  };
}

/**
 * One pass over a term's postings: its largest monotone key and its LOWER_BOUND_RANK-th largest (−∞ when it has
 * fewer postings), cached in `maxKeys` / `kthKeys`; returns the largest.
 */
function computeTermKeys(variant: number, field: KernelField, termId: number, start: number, end: number, maxKeys: Float64Array, kthKeys: Float64Array): number {
  // The LOWER_BOUND_RANK largest keys so far, ascending (best[0] = the smallest of them).
  const best = new Float64Array(LOWER_BOUND_RANK).fill(-Infinity);
  const { postingTfs, postingDocs, documentFactors } = field;
  for (let position = start; position < end; position++) {
    const key = computeKey(variant, postingTfs[position] as number, documentFactors[postingDocs[position] as number] as number);
    if (key <= (best[0] as number)) continue;
    let to = 0;
    while (to + 1 < LOWER_BOUND_RANK && (best[to + 1] as number) < key) {
      best[to] = best[to + 1] as number;
      to++;
    }
    best[to] = key;
  }
  const maxKey = best[LOWER_BOUND_RANK - 1] as number;
  maxKeys[termId] = maxKey;
  kthKeys[termId] = end - start >= LOWER_BOUND_RANK ? (best[0] as number) : -Infinity;
  return maxKey;
}
