import type { Bm25Hit, Bm25SearchResult, Bm25Strategy } from './bm25-index.js';
import type { PreparedQuery } from './query-preparation.js';
import { type KernelHits, type KernelScratch, searchAuto, searchExhaustive, searchMaxScore, searchPrunedTaat } from './search-kernel.js';

/**
 * Scores a prepared query with one evaluation strategy (all return identical hits): `'auto'` picks exhaustive or
 * pruned term-at-a-time by size, `'maxscore'` = pruned term-at-a-time, `'maxscore-daat'` = document-at-a-time MaxScore,
 * `'exhaustive'` = every posting.
 */
export function runSearchStrategy(strategy: Bm25Strategy, prepared: PreparedQuery, topK: number, scratch: KernelScratch): KernelHits {
  const { kernelFields, lists, kernelParameters, documentCount, denseMirror } = prepared;
  switch (strategy) {
    case 'auto':
      return searchAuto(kernelFields, lists, kernelParameters, documentCount, topK, scratch, denseMirror);
    case 'maxscore':
      return searchPrunedTaat(kernelFields, lists, kernelParameters, documentCount, topK, scratch);
    case 'maxscore-daat':
      return searchMaxScore(kernelFields, lists, kernelParameters, topK);
    default:
      return searchExhaustive(kernelFields, lists, kernelParameters, documentCount, topK, scratch, denseMirror);
  }
}

/** Kernel hits (internal doc numbers) → public hits with ids, normalised scores and 1-based ranks. */
export function toSearchResult(hits: KernelHits, prepared: PreparedQuery, ids: readonly string[]): Bm25SearchResult {
  const out: Bm25Hit[] = [];
  for (let index = 0; index < hits.docs.length; index++) {
    const score = hits.scores[index] as number;
    out.push({
      id: ids[hits.docs[index] as number] as string,
      score,
      normalizedScore: prepared.maxPossibleScore > 0 ? Math.min(1, score / prepared.maxPossibleScore) : 0,
      rank: index + 1,
    });
  }
  return { hits: out, problems: prepared.problems, scoredPostings: hits.scoredPostings };
}
