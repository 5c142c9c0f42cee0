import { isAbortReason, type Evidence, type ItemProblem, type RetrieveResult } from '@factkit/core';
import { fuseScores, type FusionOptions } from './fuse-scores.js';
import type { RetrievalProblemCode } from '../problem-codes.js';

/** One search of a fusing retriever (a retriever of a hybrid, or one text of a multi-query search). */
export interface FusedSearch {
  /** Names the search in problem messages, e.g. the retriever id or `sub-query 2`. */
  readonly label: string;
  /** `index` of this search's problems. @default its position in the list */
  readonly index?: number;
  readonly outcome: PromiseSettledResult<RetrieveResult>;
}

/**
 * Collects settled searches: each result's problems are kept (prefixed with the search's label, `index` = the
 * search's `index` or position), a failed search becomes a `failureCode` problem and an empty list. An abort rethrows its
 * reason; when every search failed, the first error is thrown.
 */
export function collectSearches(searches: readonly FusedSearch[], failureCode: RetrievalProblemCode, abortSignal?: AbortSignal): { results: RetrieveResult[]; problems: ItemProblem[] } {
  const problems: ItemProblem[] = [];
  const results: RetrieveResult[] = [];
  let firstError: unknown;
  searches.forEach(({ label, outcome, index: given }, position) => {
    const index = given ?? position;
    if (outcome.status === 'fulfilled') {
      results.push(outcome.value);
      for (const problem of outcome.value.problems ?? []) problems.push({ ...problem, index, message: `${label}: ${problem.message}` });
    } else {
      if (isAbortReason(outcome.reason, abortSignal)) throw outcome.reason;
      firstError ??= outcome.reason;
      results.push({ evidence: [] });
      problems.push({ index, code: failureCode, message: `${label} failed: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}` });
    }
  });
  if (firstError !== undefined && searches.every((search) => search.outcome.status === 'rejected')) throw firstError;
  return { results, problems };
}

/**
 * Fuses evidence lists with `fuseScores` and returns the top `topK` as evidence: text, origin and metadata from the
 * first list that has the document, `score` = the fused score, 1-based `rank`. A list holding one document twice
 * counts it once, at its best score.
 */
export function fuseEvidenceLists(results: readonly RetrieveResult[], fusion: FusionOptions, topK: number): Evidence[] {
  const firstEvidence = new Map<string, Evidence>();
  for (const result of results) for (const item of result.evidence) if (!firstEvidence.has(item.documentId)) firstEvidence.set(item.documentId, item);
  const lists = results.map((result) => {
    const best = new Map<string, number>();
    for (const item of result.evidence) best.set(item.documentId, Math.max(best.get(item.documentId) ?? -Infinity, item.score));
    return [...best].map(([documentId, score]) => ({ id: documentId, score }));
  });
  return fuseScores(lists, fusion)
    .slice(0, topK)
    .map((item, index) => ({ ...(firstEvidence.get(item.id) as Evidence), score: item.score, rank: index + 1 }));
}
