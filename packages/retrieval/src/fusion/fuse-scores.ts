import { assertFiniteNumber, assertNonEmptyString, assertNonNegativeNumber, InvalidArgumentError, type Run } from '@factkit/core';

/** One retrieved item of one system: an id and its score (higher is better). */
export interface ScoredId {
  readonly id: string;
  readonly score: number;
}

/**
 * Fusion methods:
 * - 'rrf': reciprocal rank fusion, Σ w_i / (k + rank_i) (Cormack, Clarke & Büttcher 2009); weights make it weighted RRF.
 * - 'min-max': Σ w_i · (s − min_i) / (max_i − min_i) (convex combination of min-max normalized scores).
 * - 'z-score': Σ w_i · (s − mean_i) / std_i (population standard deviation).
 * - 'comb-sum': Σ w_i · norm_i(s) (Fox & Shaw 1994), normalization chosen by `normalization`.
 * - 'comb-mnz': comb-sum × the number of systems that retrieved the item.
 * An item a system did not retrieve contributes nothing to the sums (as in ranx and trec tools).
 */
export type FusionMethod = 'rrf' | 'min-max' | 'z-score' | 'comb-sum' | 'comb-mnz';

/** Score normalization applied per system before comb-sum / comb-mnz. */
export type ScoreNormalization = 'none' | 'min-max' | 'z-score';

export interface FusionOptions {
  /** @default 'rrf' */
  readonly method?: FusionMethod;
  /** The RRF constant. @default 60 */
  readonly k?: number;
  /** One non-negative weight per system. @default all 1 */
  readonly weights?: readonly number[];
  /** For 'comb-sum' and 'comb-mnz' (Lee 1997 found min-max best). @default 'min-max' */
  readonly normalization?: ScoreNormalization;
  /** Only the first `depth` items of each system (by score) take part. @default Infinity */
  readonly depth?: number;
}

const FUSION_METHODS: readonly FusionMethod[] = ['rrf', 'min-max', 'z-score', 'comb-sum', 'comb-mnz'];

/** Sorts by descending score, ties by ascending id: the ranking order used everywhere in this module. */
function byScoreThenId(a: ScoredId, b: ScoredId): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function normalize(list: readonly ScoredId[], normalization: ScoreNormalization): Map<string, number> {
  const out = new Map<string, number>();
  if (normalization === 'none') {
    for (const item of list) out.set(item.id, item.score);
    return out;
  }
  if (normalization === 'min-max') {
    let min = Infinity;
    let max = -Infinity;
    for (const item of list) {
      min = Math.min(min, item.score);
      max = Math.max(max, item.score);
    }
    // A system whose items all score the same ranks them equally: every item gets 1.
    for (const item of list) out.set(item.id, max === min ? 1 : (item.score - min) / (max - min));
    return out;
  }
  let sum = 0;
  for (const item of list) sum += item.score;
  const mean = list.length === 0 ? 0 : sum / list.length;
  let squares = 0;
  for (const item of list) squares += (item.score - mean) ** 2;
  const std = list.length === 0 ? 0 : Math.sqrt(squares / list.length);
  for (const item of list) out.set(item.id, std === 0 ? 0 : (item.score - mean) / std);
  return out;
}

function resolveOptions(options: FusionOptions, systems: number, where: string) {
  const { method = 'rrf', k = 60, weights, normalization = 'min-max', depth = Infinity } = options;
  if (!FUSION_METHODS.includes(method)) throw new InvalidArgumentError({ where, argument: 'method', message: `must be one of ${FUSION_METHODS.join(', ')} (got ${String(method)})` });
  assertNonNegativeNumber('k', k, where);
  if (normalization !== 'none' && normalization !== 'min-max' && normalization !== 'z-score') {
    throw new InvalidArgumentError({ where, argument: 'normalization', message: `must be 'none', 'min-max' or 'z-score' (got ${String(normalization)})` });
  }
  if (!(depth === Infinity || (Number.isInteger(depth) && depth >= 1))) throw new InvalidArgumentError({ where, argument: 'depth', message: `must be an integer >= 1 (got ${depth})` });
  if (weights !== undefined) {
    if (!Array.isArray(weights) || weights.length !== systems) {
      throw new InvalidArgumentError({ where, argument: 'weights', message: `must have one weight per system (${systems}), got ${Array.isArray(weights) ? weights.length : typeof weights}` });
    }
    weights.forEach((weight, index) => {
      assertNonNegativeNumber(`weights[${index}]`, weight, where);
    });
  }
  return { method, k, weights: weights ?? new Array<number>(systems).fill(1), normalization, depth };
}

/**
 * Fuses the ranked lists of several systems into one list sorted by fused score (ties by id). Pure; the same code
 * serves live retriever results (`createHybridRetriever`) and TREC runs (`fuseRuns`).
 * @throws InvalidArgumentError for a non-finite score, an empty or duplicated id within one list, or bad options.
 * @example
 * fuseScores([[{ id: 'a', score: 3 }, { id: 'b', score: 1 }], [{ id: 'b', score: 0.9 }]], { method: 'rrf' });
 * // b: 1/62 + 1/61, a: 1/61 → [{ id: 'b', ... }, { id: 'a', ... }]
 */
export function fuseScores(lists: readonly (readonly ScoredId[])[], options: FusionOptions = {}): ScoredId[] {
  const where = 'fuseScores';
  if (!Array.isArray(lists)) throw new InvalidArgumentError({ where, argument: 'lists', message: 'must be an array of ranked lists' });
  const { method, k, weights, normalization, depth } = resolveOptions(options, lists.length, where);
  const fused = new Map<string, number>();
  const hits = new Map<string, number>();
  lists.forEach((list, system) => {
    if (!Array.isArray(list)) throw new InvalidArgumentError({ where, argument: `lists[${system}]`, message: 'must be an array of { id, score }' });
    const seen = new Set<string>();
    list.forEach((item: ScoredId | undefined, position) => {
      assertNonEmptyString(`lists[${system}][${position}].id`, item?.id, where);
      assertFiniteNumber(`lists[${system}][${position}].score`, item.score, where);
      if (seen.has(item.id)) throw new InvalidArgumentError({ where, argument: `lists[${system}][${position}].id`, message: `duplicates id "${item.id}" in one list` });
      seen.add(item.id);
    });
    const ranked = [...list].sort(byScoreThenId);
    if (ranked.length > depth) ranked.length = depth;
    const weight = weights[system] as number;
    let contributions: Map<string, number>;
    if (method === 'rrf') {
      contributions = new Map(ranked.map((item, index) => [item.id, 1 / (k + index + 1)]));
    } else {
      const scheme: ScoreNormalization = method === 'min-max' ? 'min-max' : method === 'z-score' ? 'z-score' : normalization;
      contributions = normalize(ranked, scheme);
    }
    for (const [id, value] of contributions) {
      fused.set(id, (fused.get(id) ?? 0) + weight * value);
      hits.set(id, (hits.get(id) ?? 0) + 1);
    }
  });
  const out: ScoredId[] = [];
  for (const [id, score] of fused) out.push({ id, score: method === 'comb-mnz' ? score * (hits.get(id) ?? 0) : score });
  return out.sort(byScoreThenId);
}

/**
 * Fuses TREC runs (query → document → score) query by query with `fuseScores`. A query missing from some runs is
 * fused from the runs that have it.
 * @example
 * const fused = fuseRuns([bm25Run, denseRun], { method: 'rrf', depth: 1000 });
 */
export function fuseRuns(runs: readonly Run[], options: FusionOptions = {}): Run {
  if (!Array.isArray(runs)) throw new InvalidArgumentError({ where: 'fuseRuns', argument: 'runs', message: 'must be an array of runs' });
  resolveOptions(options, runs.length, 'fuseRuns');
  const queryIds = new Set<string>();
  runs.forEach((run, index) => {
    if (run === null || typeof run !== 'object') throw new InvalidArgumentError({ where: 'fuseRuns', argument: `runs[${index}]`, message: 'must be an object (query → document → score)' });
    for (const queryId of Object.keys(run)) queryIds.add(queryId);
  });
  const out: Record<string, Record<string, number>> = {};
  for (const queryId of [...queryIds].sort()) {
    const lists: ScoredId[][] = runs.map((run) => {
      const scores: Readonly<Record<string, number>> = run[queryId] ?? {};
      return Object.keys(scores).map((id) => ({ id, score: scores[id] as number }));
    });
    const fused = fuseScores(lists, options);
    const scores: Record<string, number> = {};
    for (const item of fused) scores[item.id] = item.score;
    out[queryId] = scores;
  }
  return out;
}
