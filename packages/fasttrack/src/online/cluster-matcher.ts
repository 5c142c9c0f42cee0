import { InvalidArgumentError, type ItemProblem } from '@factkit/core';
import * as fuzzball from 'fuzzball';
import type { FastTrackIndex } from '../index/fasttrack-index.js';

/** fuzzball scorers usable for cluster retrieval (thefuzz names). */
export type FuzzyScorerName = 'WRatio' | 'ratio' | 'partial_ratio' | 'token_sort_ratio' | 'token_set_ratio' | 'partial_token_sort_ratio' | 'partial_token_set_ratio';

export const FUZZY_SCORER_NAMES: readonly FuzzyScorerName[] = ['WRatio', 'ratio', 'partial_ratio', 'token_sort_ratio', 'token_set_ratio', 'partial_token_sort_ratio', 'partial_token_set_ratio'];

export interface ClusterMatcherOptions {
  /** fuzzball scorer (thefuzz's `process.extract` default first). @default 'WRatio' */
  readonly scorer?: FuzzyScorerName;
  /** Leaves kept per clustering, best first (thefuzz `process.extract`'s default limit). @default 5 */
  readonly limit?: number;
  /** A leaf matches when its best keyword scores ≥ cutoff (and > 0). @default 0 (thefuzz's default score_cutoff) */
  readonly cutoff?: number;
  /**
   * Also keep this many leaves by cosine similarity of the query embedding to leaf centroids (needs
   * `queryEmbedding` in `match`). @default 0
   */
  readonly centroidLeaves?: number;
  /**
   * When no leaf's keywords match: `'centroid'` takes the `limit` leaves nearest to the query embedding (when one
   * is given), `'none'` returns no leaf. Either way the result carries a `no-cluster-matched` problem. @default 'centroid'
   */
  readonly fallback?: 'centroid' | 'none';
}

/** One retrieved leaf. */
export interface MatchedLeaf {
  /** Position of the clustering in the ensemble. */
  readonly clustering: number;
  readonly leafId: number;
  readonly path: readonly number[];
  /** Best keyword score (0–100), or 100 × cosine for centroid matches. */
  readonly score: number;
  /** The keyword that scored best (keyword matches). */
  readonly keyword?: string;
  readonly via: 'keywords' | 'centroid' | 'fallback';
}

export interface ClusterMatch {
  readonly leaves: MatchedLeaf[];
  readonly problems: ItemProblem[];
  /** Keyword comparisons made (unique processed keywords scored). */
  readonly comparisons: number;
}

export interface ClusterMatcher {
  /** Leaves of every clustering for a query (each clustering's best first). */
  match(query: string, options?: { queryEmbedding?: Float32Array }): ClusterMatch;
}

/** fuzzball's default string processing (lower case, non-alphanumerics to spaces, trimmed, whitespace collapsed). */
export function processForFuzzyMatch(text: string): string {
  return fuzzball.full_process(text, { force_ascii: false, collapseWhitespace: true });
}

interface PreparedClustering {
  readonly index: FastTrackIndex;
  /** Per labelled leaf: its id and the ids (into `unique`) of its processed keywords. */
  readonly leaves: Array<{ leafId: number; keywordIds: number[] }>;
}

/**
 * Stage-2 step 1 of the paper: pick the leaf clusters whose keywords fuzzily match the query (fuzzball, a port of
 * thefuzz). Keywords are processed once when the matcher is built and each distinct processed keyword is scored once
 * per query (with `full_process: false`), which gives the same scores as calling the scorer on the raw strings.
 * @throws InvalidArgumentError for an unknown scorer or bad limits.
 */
export function createClusterMatcher(indexes: readonly FastTrackIndex[], options: ClusterMatcherOptions = {}): ClusterMatcher {
  const { scorer = 'WRatio', limit = 5, cutoff = 0, centroidLeaves = 0, fallback = 'centroid' } = options;
  const where = 'createClusterMatcher';
  if (!FUZZY_SCORER_NAMES.includes(scorer)) throw new InvalidArgumentError({ where, argument: 'scorer', message: `must be one of ${FUZZY_SCORER_NAMES.join(', ')} (got ${String(scorer)})` });
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError({ where, argument: 'limit', message: `must be an integer >= 1 (got ${String(limit)})` });
  if (!(cutoff >= 0 && cutoff <= 100)) throw new InvalidArgumentError({ where, argument: 'cutoff', message: `must be in [0, 100] (got ${String(cutoff)})` });
  if (!Number.isInteger(centroidLeaves) || centroidLeaves < 0) throw new InvalidArgumentError({ where, argument: 'centroidLeaves', message: `must be an integer >= 0 (got ${String(centroidLeaves)})` });
  if (fallback !== 'centroid' && fallback !== 'none') throw new InvalidArgumentError({ where, argument: 'fallback', message: `must be 'centroid' or 'none' (got ${String(fallback)})` });
  if (!Array.isArray(indexes) || indexes.length === 0) throw new InvalidArgumentError({ where, argument: 'indexes', message: 'must hold at least one index' });
  const score = fuzzball[scorer] as (a: string, b: string, options?: { full_process?: boolean }) => number;
  const unique: string[] = [];
  const uniqueIds = new Map<string, number>();
  const originals: string[] = [];
  const prepared: PreparedClustering[] = indexes.map((index) => ({
    index,
    leaves: index.tree.leaves.flatMap((leafId: number) => {
      const label = index.labels.get(leafId);
      if (!label || label.keywords.length === 0) return [];
      const keywordIds: number[] = [];
      for (const keyword of label.keywords) {
        const processed = processForFuzzyMatch(keyword);
        if (processed.length === 0) continue;
        let id = uniqueIds.get(processed);
        if (id === undefined) {
          id = unique.length;
          unique.push(processed);
          originals.push(keyword);
          uniqueIds.set(processed, id);
        }
        keywordIds.push(id);
      }
      return keywordIds.length ? [{ leafId, keywordIds }] : [];
    }),
  }));
  const scores = new Float64Array(unique.length);

  const nearestByCentroid = (clustering: number, embedding: Float32Array, count: number, exclude: ReadonlySet<number>): MatchedLeaf[] => {
    const { index } = prepared[clustering] as PreparedClustering;
    if (embedding.length !== index.embeddings.dimensions) throw new InvalidArgumentError({ where: 'ClusterMatcher.match', argument: 'queryEmbedding', message: `has ${embedding.length} dimensions, the index ${index.embeddings.dimensions}` });
    const ranked: Array<{ leafId: number; similarity: number }> = [];
    for (const leafId of index.tree.leaves) {
      if (exclude.has(leafId)) continue;
      const centroid = index.tree.nodes[leafId]?.centroid as Float32Array;
      let dot = 0;
      let norm = 0;
      let queryNorm = 0;
      for (let column = 0; column < centroid.length; column++) {
        dot += (centroid[column] as number) * (embedding[column] as number);
        norm += (centroid[column] as number) ** 2;
        queryNorm += (embedding[column] as number) ** 2;
      }
      ranked.push({ leafId, similarity: norm > 0 && queryNorm > 0 ? dot / Math.sqrt(norm * queryNorm) : 0 });
    }
    ranked.sort((a, b) => b.similarity - a.similarity || a.leafId - b.leafId);
    return ranked.slice(0, count).map(({ leafId, similarity }) => ({ clustering, leafId, path: index.tree.nodes[leafId]?.path ?? [], score: 100 * similarity, via: 'centroid' as const }));
  };

  return {
    match(query, matchOptions = {}) {
      if (typeof query !== 'string') throw new InvalidArgumentError({ where: 'ClusterMatcher.match', argument: 'query', message: 'must be a string' });
      const { queryEmbedding } = matchOptions;
      const processedQuery = processForFuzzyMatch(query);
      const problems: ItemProblem[] = [];
      for (let id = 0; id < unique.length; id++) scores[id] = processedQuery.length === 0 ? 0 : score(processedQuery, unique[id] as string, { full_process: false });
      const leaves: MatchedLeaf[] = [];
      prepared.forEach(({ index, leaves: labelled }, clustering) => {
        const matched: Array<MatchedLeaf & { total: number }> = [];
        for (const { leafId, keywordIds } of labelled) {
          let best = -1;
          let bestId = -1;
          let total = 0;
          for (const id of keywordIds) {
            const value = scores[id] as number;
            total += value;
            if (value > best) {
              best = value;
              bestId = id;
            }
          }
          if (best > 0 && best >= cutoff) matched.push({ clustering, leafId, path: index.tree.nodes[leafId]?.path ?? [], score: best, keyword: originals[bestId] as string, via: 'keywords', total });
        }
        // Best keyword first; ties (frequent: many keywords occur verbatim in a query) go to the leaf whose keywords
        // match more overall (sum of its keyword scores), then to the lower leaf id.
        matched.sort((a, b) => b.score - a.score || b.total - a.total || a.leafId - b.leafId);
        const kept: MatchedLeaf[] = matched.slice(0, limit).map(({ total: _total, ...leaf }) => leaf);
        if (kept.length === 0) {
          problems.push({ id: `clustering:${clustering}`, code: 'no-cluster-matched', message: `no leaf keyword scored above the cutoff (${cutoff}); ${fallback === 'centroid' && queryEmbedding ? 'fell back to the nearest centroids' : 'no leaf retrieved'}` });
          if (fallback === 'centroid' && queryEmbedding) kept.push(...nearestByCentroid(clustering, queryEmbedding, limit, new Set()).map((leaf) => ({ ...leaf, via: 'fallback' as const })));
        } else if (centroidLeaves > 0 && queryEmbedding) {
          kept.push(...nearestByCentroid(clustering, queryEmbedding, centroidLeaves, new Set(kept.map((leaf) => leaf.leafId))));
        }
        leaves.push(...kept);
      });
      return { leaves, problems, comparisons: processedQuery.length === 0 ? 0 : unique.length };
    },
  };
}
