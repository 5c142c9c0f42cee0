import { assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError, type ItemProblem } from '@factkit/core';
import * as fuzzball from 'fuzzball';
import type { FastTrackIndex } from '../index/fasttrack-index.js';
import type { FastTrackProblemCode } from '../problem-codes.js';

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
  readonly problems: ItemProblem<FastTrackProblemCode>[];
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

/**
 * Upper bound on fuzzball's partial ratio of `a` and `b`: it compares the shorter string s with windows of the longer
 * (full windows, and windows clipped at its end), and ratio(s, w) = 2·LCS / (|s| + |w|) ≤ 2·min(H_w, |w|) / (|s| + |w|),
 * H_w = shared characters of s and w; computed for every window start with a sliding count (linear in the longer).
 */
const NEED = new Int32Array(65_536);
const HAVE = new Int32Array(65_536);

function partialUpperBound(a: string, b: string): number {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const size = shorter.length;
  if (size === 0) return 0;
  for (let index = 0; index < size; index++) {
    const code = shorter.charCodeAt(index);
    NEED[code] = (NEED[code] as number) + 1;
  }
  let shared = 0;
  let end = Math.min(size, longer.length);
  for (let index = 0; index < end; index++) {
    const code = longer.charCodeAt(index);
    if ((HAVE[code] as number) < (NEED[code] as number)) shared++;
    HAVE[code] = (HAVE[code] as number) + 1;
  }
  let best = 0;
  for (let start = 0; start < longer.length && best < 100; start++) {
    if (start > 0) {
      const out = longer.charCodeAt(start - 1);
      HAVE[out] = (HAVE[out] as number) - 1;
      if ((HAVE[out] as number) < (NEED[out] as number)) shared--;
      if (end < longer.length) {
        const code = longer.charCodeAt(end++);
        if ((HAVE[code] as number) < (NEED[code] as number)) shared++;
        HAVE[code] = (HAVE[code] as number) + 1;
      }
    }
    const width = end - start;
    const bound = Math.round((100 * 2 * Math.min(shared, width)) / (size + width));
    if (bound > best) best = bound;
  }
  // Reset the scratch counts (UTF-16 code units: the same units fuzzball's Levenshtein compares).
  for (let index = 0; index < size; index++) NEED[shorter.charCodeAt(index)] = 0;
  for (let index = 0; index < longer.length; index++) HAVE[longer.charCodeAt(index)] = 0;
  return Math.min(best, 100);
}

/** Distinct UTF-16 code units of a string and their counts. */
function codeCounts(text: string): { codes: Int32Array; counts: Int32Array } {
  const map = new Map<number, number>();
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    map.set(code, (map.get(code) ?? 0) + 1);
  }
  return { codes: Int32Array.from(map.keys()), counts: Int32Array.from(map.values()) };
}

const QUERY_COUNTS = new Int32Array(65_536);
const QUERY_UNIQUE_COUNTS = new Int32Array(65_536);

function fillCounts(target: Int32Array, text: string, value: 1 | 0): void {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    target[code] = value === 1 ? (target[code] as number) + 1 : 0;
  }
}

/** Σ_c min(count_keyword(c), count_query(c)) with the query's counts in a scratch array. */
function sharedWithQuery(keyword: { codes: Int32Array; counts: Int32Array }, queryCounts: Int32Array): number {
  let shared = 0;
  for (let index = 0; index < keyword.codes.length; index++) shared += Math.min(keyword.counts[index] as number, queryCounts[keyword.codes[index] as number] as number);
  return shared;
}

interface StringFeatures {
  readonly text: string;
  readonly textCodes: { codes: Int32Array; counts: Int32Array };
  readonly uniqueCodes: { codes: Int32Array; counts: Int32Array };
  /** fuzzball's token-sort form: tokens sorted, joined by spaces. */
  readonly sorted: string;
  readonly tokens: ReadonlySet<string>;
  /** fuzzball's token-set form: unique tokens, sorted, joined by spaces. */
  readonly uniqueSorted: string;
}

function features(text: string): StringFeatures {
  const tokens = new Set(text.match(/\S+/g) ?? []);
  const uniqueSorted = [...tokens].sort().join(' ');
  const sorted = (text.match(/\S+/g) ?? []).sort().join(' ');
  return { text, sorted, textCodes: codeCounts(text), uniqueCodes: codeCounts(uniqueSorted), tokens, uniqueSorted };
}

/**
 * An upper bound on fuzzball's WRatio(query, keyword) (both already processed), from character counts: with
 * insertion/deletion cost 1 and substitution cost 2, ratio = 2·LCS / (|a| + |b|) and LCS ≤ shared characters H; a
 * partial ratio compares the shorter string with windows of the longer, ≤ 2H / (|short| + H); token sorting keeps the
 * characters; the token-set forms are 100 when a token is shared, else the partial ratio of the unique-sorted forms.
 * Each term is rounded as fuzzball rounds (rounding is monotone), so the bound is never below the true score.
 */
function wratioUpperBound(query: StringFeatures, keyword: StringFeatures, tight: boolean): number {
  const a = query.text.length;
  const b = keyword.text.length;
  if (a === 0 || b === 0) return 0;
  const shared = sharedWithQuery(keyword.textCodes, QUERY_COUNTS);
  const base = Math.round((100 * 2 * shared) / (a + b));
  let sharesToken = false;
  for (const token of keyword.tokens)
    if (query.tokens.has(token)) {
      sharesToken = true;
      break;
    }
  const lengthRatio = Math.max(a, b) / Math.min(a, b);
  const uniqueShared = sharedWithQuery(keyword.uniqueCodes, QUERY_UNIQUE_COUNTS);
  if (lengthRatio < 1.5) {
    const tokenSet = sharesToken ? 100 : Math.round((100 * 2 * uniqueShared) / (keyword.uniqueSorted.length + query.uniqueSorted.length));
    return Math.round(Math.max(base, base * 0.95, tokenSet * 0.95));
  }
  const scale = lengthRatio > 8 ? 0.6 : 0.9;
  if (!tight) {
    // Cheap form: every window of the longer string shares at most H characters with the shorter one.
    const cheap = (shorter: number, common: number) => Math.round((100 * 2 * common) / (shorter + common));
    const partial = cheap(Math.min(a, b), shared);
    const partialSet = sharesToken ? 100 : cheap(Math.min(keyword.uniqueSorted.length, query.uniqueSorted.length), uniqueShared);
    return Math.round(Math.max(base, partial * scale, partial * 0.95 * scale, partialSet * 0.95 * scale));
  }
  const partial = partialUpperBound(query.text, keyword.text);
  const partialSort = partialUpperBound(query.sorted, keyword.sorted);
  const partialSet = sharesToken ? 100 : partialUpperBound(query.uniqueSorted, keyword.uniqueSorted);
  return Math.round(Math.max(base, partial * scale, partialSort * 0.95 * scale, partialSet * 0.95 * scale));
}

interface PreparedClustering {
  readonly index: FastTrackIndex;
  /** Per labelled leaf: its id and the ids (into `unique`) of its processed keywords. */
  readonly leaves: Array<{ leafId: number; keywordIds: number[] }>;
}

type MatcherSettings = Required<ClusterMatcherOptions>;

/** The options with their defaults, checked. @throws InvalidArgumentError naming the bad option. */
function resolveMatcherOptions(indexes: readonly FastTrackIndex[], options: ClusterMatcherOptions): MatcherSettings {
  const { scorer = 'WRatio', limit = 5, cutoff = 0, centroidLeaves = 0, fallback = 'centroid' } = options;
  const where = 'createClusterMatcher';
  if (!FUZZY_SCORER_NAMES.includes(scorer)) throw new InvalidArgumentError({ where, argument: 'scorer', message: `must be one of ${FUZZY_SCORER_NAMES.join(', ')} (got ${String(scorer)})` });
  assertPositiveInteger('limit', limit, where);
  if (!(cutoff >= 0 && cutoff <= 100)) throw new InvalidArgumentError({ where, argument: 'cutoff', message: `must be in [0, 100] (got ${String(cutoff)})` });
  assertNonNegativeInteger('centroidLeaves', centroidLeaves, where);
  if (fallback !== 'centroid' && fallback !== 'none') throw new InvalidArgumentError({ where, argument: 'fallback', message: `must be 'centroid' or 'none' (got ${String(fallback)})` });
  if (!Array.isArray(indexes) || indexes.length === 0) throw new InvalidArgumentError({ where, argument: 'indexes', message: 'must hold at least one index' });
  return { scorer, limit, cutoff, centroidLeaves, fallback };
}

/** Every distinct processed keyword of every clustering, once, with the leaves that carry it. */
interface KeywordTable {
  readonly prepared: PreparedClustering[];
  /** Distinct processed keywords; a keyword id is a position here. */
  readonly unique: string[];
  readonly uniqueFeatures: StringFeatures[];
  /** For each distinct keyword: the (clustering, leaf position) pairs that carry it. */
  readonly owners: Array<Array<[number, number]>>;
  /** For each distinct keyword: the first original (unprocessed) keyword it came from. */
  readonly originals: string[];
}

/** Processes the keywords of every labelled leaf once and gives each distinct processed keyword an id. */
function buildKeywordTable(indexes: readonly FastTrackIndex[]): KeywordTable {
  const unique: string[] = [];
  const uniqueFeatures: StringFeatures[] = [];
  const owners: Array<Array<[number, number]>> = [];
  const uniqueIds = new Map<string, number>();
  const originals: string[] = [];
  const prepared: PreparedClustering[] = indexes.map((index, clusteringIndex) => {
    const leaves: PreparedClustering['leaves'] = [];
    for (const leafId of index.tree.leaves) {
      const label = index.labels.get(leafId);
      if (!label || label.keywords.length === 0) continue;
      const keywordIds: number[] = [];
      const leafPosition = leaves.length;
      for (const keyword of label.keywords) {
        const processed = processForFuzzyMatch(keyword);
        if (processed.length === 0) continue;
        let id = uniqueIds.get(processed);
        if (id === undefined) {
          id = unique.length;
          unique.push(processed);
          uniqueFeatures.push(features(processed));
          owners.push([]);
          originals.push(keyword);
          uniqueIds.set(processed, id);
        }
        if (keywordIds.includes(id)) continue;
        keywordIds.push(id);
        (owners[id] as Array<[number, number]>).push([clusteringIndex, leafPosition]);
      }
      if (keywordIds.length) leaves.push({ leafId, keywordIds });
    }
    return { index, leaves };
  });
  return { prepared, unique, uniqueFeatures, owners, originals };
}

/** The `count` leaves of one clustering whose centroids are nearest (cosine) to the query embedding, `exclude` left out. */
function nearestByCentroid(clustering: number, index: FastTrackIndex, embedding: Float32Array, count: number, exclude: ReadonlySet<number>): MatchedLeaf[] {
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
}

/** One query's scoring: each distinct keyword's exact score taken at most once (counted), and WRatio's bounds. */
interface QueryScoring {
  /** The exact score of keyword `id` against the query (cached in `scores`, NaN = not yet taken). */
  exact(id: number): number;
  readonly scores: Float64Array;
  /** WRatio only: keyword ids by decreasing cheap bound, the cheap bounds, and the tight (sliding-window) bound. */
  readonly bounds?: { readonly order: number[]; readonly cheap: number[]; tight(id: number): number };
}

/** A leaf position of one clustering with its best keyword score and that keyword's id. */
interface LeafScore {
  readonly position: number;
  readonly best: number;
  readonly bestId: number;
}

/**
 * WRatio with a small limit: score keywords in decreasing order of an upper bound and stop once no unscored keyword
 * can reach the current limit-th best leaf (exact: the kept leaves and their scores are those of the full
 * computation). Returns the kept leaves best first (score desc, leaf id asc), at most `limit`.
 */
function topLeavesByBounds(table: KeywordTable, clustering: number, scoring: QueryScoring & { readonly bounds: NonNullable<QueryScoring['bounds']> }, limit: number, cutoff: number): LeafScore[] {
  const labelled = (table.prepared[clustering] as PreparedClustering).leaves;
  const { owners } = table;
  const { order, cheap, tight: tightBound } = scoring.bounds;
  const { scores } = scoring;
  const best = new Float64Array(labelled.length).fill(-1);
  const bestId = new Int32Array(labelled.length).fill(-1);
  const top: number[] = []; // leaf positions, best first (score desc, leaf id asc), at most `limit`
  const before = (a: number, b: number) => (best[a] as number) > (best[b] as number) || ((best[a] as number) === (best[b] as number) && (labelled[a] as { leafId: number }).leafId < (labelled[b] as { leafId: number }).leafId);
  // Best-first over bounds: ids come in order of the cheap bound; each gets its tight (sliding-window) bound
  // and waits in a bucket queue (bounds are integers 0..100); exact scores are taken in tight-bound order, and
  // the loop stops once neither a queued nor an unseen keyword can reach the current limit-th best leaf.
  const buckets: number[][] = Array.from({ length: 101 }, () => []);
  let highest = -1;
  let cursor = 0;
  const score1 = (id: number) => {
    const value = scoring.exact(id);
    for (const [owner, position] of owners[id] as Array<[number, number]>) {
      if (owner !== clustering || value <= (best[position] as number)) continue;
      best[position] = value;
      bestId[position] = id;
      if (!(value > 0 && value >= cutoff)) continue;
      const existing = top.indexOf(position);
      if (existing >= 0) top.splice(existing, 1);
      let at = top.length;
      while (at > 0 && before(position, top[at - 1] as number)) at--;
      top.splice(at, 0, position);
      if (top.length > limit) top.pop();
    }
  };
  for (;;) {
    const floor = Math.max(top.length === limit ? (best[top[limit - 1] as number] as number) : 1, cutoff, 1);
    while (highest >= 0 && (buckets[highest] as number[]).length === 0) highest--;
    const nextCheap = cursor < order.length ? (cheap[order[cursor] as number] as number) : -1;
    if (highest >= floor && highest >= nextCheap) {
      score1((buckets[highest] as number[]).pop() as number);
    } else if (nextCheap >= floor) {
      const id = order[cursor++] as number;
      if (!(owners[id] as Array<[number, number]>).some(([owner]) => owner === clustering)) continue;
      const tight = Number.isNaN(scores[id] as number) ? Math.min(tightBound(id), nextCheap) : (scores[id] as number);
      (buckets[tight] as number[]).push(id);
      if (tight > highest) highest = tight;
    } else {
      break;
    }
  }
  return top.map((position) => ({ position, best: best[position] as number, bestId: bestId[position] as number }));
}

/** Every labelled leaf of one clustering scored by its best keyword; those above 0 and the cutoff, in leaf order. */
function scoreEveryLeaf(table: KeywordTable, clustering: number, scoring: QueryScoring, cutoff: number): LeafScore[] {
  const scored: LeafScore[] = [];
  (table.prepared[clustering] as PreparedClustering).leaves.forEach(({ keywordIds }, position) => {
    let best = -1;
    let bestId = -1;
    for (const id of keywordIds) {
      const value = scoring.exact(id);
      if (value > best) {
        best = value;
        bestId = id;
      }
    }
    if (best > 0 && best >= cutoff) scored.push({ position, best, bestId });
  });
  return scored;
}

/**
 * The leaves one clustering contributes to a match: its keyword-matched leaves (at most `limit`), else a
 * `no-cluster-matched` problem and, with `fallback: 'centroid'` and an embedding, the nearest centroids; plus
 * `centroidLeaves` nearest centroids when asked.
 */
function matchClustering(table: KeywordTable, clustering: number, scoring: QueryScoring, settings: MatcherSettings, queryEmbedding: Float32Array | undefined, problems: ItemProblem<FastTrackProblemCode>[]): MatchedLeaf[] {
  const { limit, cutoff, centroidLeaves, fallback } = settings;
  const { index, leaves: labelled } = table.prepared[clustering] as PreparedClustering;
  const toLeaf = ({ position, best, bestId }: LeafScore): MatchedLeaf => {
    const { leafId } = labelled[position] as { leafId: number };
    return { clustering, leafId, path: index.tree.nodes[leafId]?.path ?? [], score: best, keyword: table.originals[bestId] as string, via: 'keywords' };
  };
  const { bounds } = scoring;
  const matched: MatchedLeaf[] =
    bounds && limit < labelled.length
      ? topLeavesByBounds(table, clustering, { ...scoring, bounds }, limit, cutoff).map(toLeaf)
      : scoreEveryLeaf(table, clustering, scoring, cutoff)
          .map(toLeaf)
          .sort((a, b) => b.score - a.score || a.leafId - b.leafId);
  const kept: MatchedLeaf[] = matched.slice(0, limit);
  if (kept.length === 0) {
    problems.push({
      id: `clustering:${clustering}`,
      code: 'no-cluster-matched',
      message: `no leaf keyword scored above the cutoff (${cutoff}); ${fallback === 'centroid' && queryEmbedding ? 'fell back to the nearest centroids' : 'no leaf retrieved'}`,
    });
    if (fallback === 'centroid' && queryEmbedding) kept.push(...nearestByCentroid(clustering, index, queryEmbedding, limit, new Set()).map((leaf) => ({ ...leaf, via: 'fallback' as const })));
  } else if (centroidLeaves > 0 && queryEmbedding) {
    kept.push(...nearestByCentroid(clustering, index, queryEmbedding, centroidLeaves, new Set(kept.map((leaf) => leaf.leafId))));
  }
  return kept;
}

/**
 * Stage-2 step 1 of the paper: pick the leaf clusters whose keywords fuzzily match the query (fuzzball, a port of
 * thefuzz). Keywords are processed once when the matcher is built and each distinct processed keyword is scored once
 * per query (with `full_process: false`), which gives the same scores as calling the scorer on the raw strings.
 * @throws InvalidArgumentError for an unknown scorer or bad limits.
 */
export function createClusterMatcher(indexes: readonly FastTrackIndex[], options: ClusterMatcherOptions = {}): ClusterMatcher {
  const settings = resolveMatcherOptions(indexes, options);
  const score = fuzzball[settings.scorer] as (a: string, b: string, options?: { full_process?: boolean }) => number;
  const table = buildKeywordTable(indexes);
  const scores = new Float64Array(table.unique.length);
  return {
    match(query, matchOptions = {}) {
      if (typeof query !== 'string') throw new InvalidArgumentError({ where: 'ClusterMatcher.match', argument: 'query', message: 'must be a string' });
      const { queryEmbedding } = matchOptions;
      const processedQuery = processForFuzzyMatch(query);
      const problems: ItemProblem<FastTrackProblemCode>[] = [];
      scores.fill(Number.NaN);
      let comparisons = 0;
      const exact = (id: number): number => {
        let value = scores[id] as number;
        if (Number.isNaN(value)) {
          value = processedQuery.length === 0 ? 0 : score(processedQuery, table.unique[id] as string, { full_process: false });
          scores[id] = value;
          comparisons++;
        }
        return value;
      };
      // WRatio with a small limit scores keywords best-first over upper bounds (topLeavesByBounds); other scorers, or
      // a limit that keeps every leaf, score every distinct keyword.
      let filled: StringFeatures | undefined;
      try {
        let bounds: QueryScoring['bounds'];
        if (settings.scorer === 'WRatio' && processedQuery.length > 0) {
          const queryFeatures = features(processedQuery);
          // The query's character counts sit in scratch arrays until match() returns (reset in `finally`).
          fillCounts(QUERY_COUNTS, processedQuery, 1);
          fillCounts(QUERY_UNIQUE_COUNTS, queryFeatures.uniqueSorted, 1);
          filled = queryFeatures;
          const cheap = table.uniqueFeatures.map((keyword) => wratioUpperBound(queryFeatures, keyword, false));
          const order = Array.from(cheap.keys()).sort((a, b) => (cheap[b] as number) - (cheap[a] as number) || a - b);
          bounds = { order, cheap, tight: (id: number) => wratioUpperBound(queryFeatures, table.uniqueFeatures[id] as StringFeatures, true) };
        }
        const scoring: QueryScoring = bounds ? { exact, scores, bounds } : { exact, scores };
        const leaves: MatchedLeaf[] = [];
        table.prepared.forEach((_, clustering) => leaves.push(...matchClustering(table, clustering, scoring, settings, queryEmbedding, problems)));
        return { leaves, problems, comparisons };
      } finally {
        if (filled) {
          fillCounts(QUERY_COUNTS, filled.text, 0);
          fillCounts(QUERY_UNIQUE_COUNTS, filled.uniqueSorted, 0);
        }
      }
    },
  };
}
