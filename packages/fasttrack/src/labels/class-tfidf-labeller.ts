import { assertPositiveInteger, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import { ENGLISH_STOP_WORDS } from '../internal/english-stop-words.js';
import type { ClusterLabel, KeywordLabeller, LabelRequest } from './keyword-labeller.js';

export interface ClassTfidfLabellerOptions {
  /** Keywords per cluster (BERTopic's `top_n_words`). @default 10 */
  readonly topN?: number;
  /** Shortest and longest n-gram (CountVectorizer's `ngram_range`). @default [1, 2] */
  readonly ngramRange?: readonly [number, number];
  /** Words dropped before n-grams are formed. @default scikit-learn's English stop words */
  readonly stopWords?: ReadonlySet<string>;
  /** Terms must occur in at least this many clusters' texts overall (CountVectorizer `min_df` on classes). @default 1 */
  readonly minClusterFrequency?: number;
}

/** scikit-learn CountVectorizer's default tokens: lower-cased runs of ≥ 2 word characters. */
export function tokenizeForClassTfidf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [];
}

function countTerms(texts: readonly string[], ngramRange: readonly [number, number], stopWords: ReadonlySet<string>, counts: Map<string, number>): void {
  const [low, high] = ngramRange;
  for (const text of texts) {
    const tokens = tokenizeForClassTfidf(text).filter((token) => !stopWords.has(token));
    for (let size = low; size <= high; size++) {
      for (let start = 0; start + size <= tokens.length; start++) {
        const term = tokens.slice(start, start + size).join(' ');
        counts.set(term, (counts.get(term) ?? 0) + 1);
      }
    }
  }
}

/**
 * Class-based TF-IDF of each leaf against all leaves (BERTopic's `ClassTfidfTransformer` with its defaults), the
 * LLM-free baseline for cluster labels: a cluster's texts are one class document; term weight =
 * (count in class / words in class) · log(1 + A / f_t), where A = the average number of terms per class (truncated to
 * an integer, as BERTopic does) and f_t = the term's count over all classes. Keywords = the `topN` highest, ties by
 * term. A named classical method, not the paper's LLM labeller.
 * @throws InvalidArgumentError for a bad `topN` or `ngramRange`.
 */
export function createClassTfidfLabeller(options: ClassTfidfLabellerOptions = {}): KeywordLabeller {
  const { topN = 10, ngramRange = [1, 2], stopWords = ENGLISH_STOP_WORDS, minClusterFrequency = 1 } = options;
  const where = 'createClassTfidfLabeller';
  assertPositiveInteger('topN', topN, where);
  if (!Array.isArray(ngramRange) || !Number.isInteger(ngramRange[0]) || !Number.isInteger(ngramRange[1]) || ngramRange[0] < 1 || ngramRange[1] < ngramRange[0]) {
    throw new InvalidArgumentError({ where, argument: 'ngramRange', message: `must be [low, high] with 1 <= low <= high (got ${JSON.stringify(ngramRange)})` });
  }
  return {
    id: `c-tf-idf(ngram ${ngramRange[0]}-${ngramRange[1]}, top ${topN})`,
    async label(request: LabelRequest): Promise<ClusterLabel[]> {
      const { clusters, abortSignal, onProgress } = request;
      const targets = request.targets ?? clusters.map((_, index) => index);
      throwIfAborted(abortSignal);
      const classCounts = clusters.map((cluster) => {
        const counts = new Map<string, number>();
        countTerms(cluster.texts, ngramRange, stopWords, counts);
        return counts;
      });
      const totals = new Map<string, number>();
      const classFrequency = new Map<string, number>();
      let allTerms = 0;
      for (const counts of classCounts) {
        for (const [term, count] of counts) {
          totals.set(term, (totals.get(term) ?? 0) + count);
          classFrequency.set(term, (classFrequency.get(term) ?? 0) + 1);
          allTerms += count;
        }
      }
      const average = clusters.length ? Math.trunc(allTerms / clusters.length) : 0;
      const labels: ClusterLabel[] = [];
      for (const target of targets) {
        throwIfAborted(abortSignal);
        const cluster = clusters[target];
        if (!cluster) throw new InvalidArgumentError({ where: 'KeywordLabeller.label', argument: `targets[${labels.length}]`, message: `is not a cluster position (got ${String(target)})` });
        const counts = classCounts[target] as Map<string, number>;
        let classTotal = 0;
        for (const count of counts.values()) classTotal += count;
        const scored: Array<[string, number]> = [];
        for (const [term, count] of counts) {
          if ((classFrequency.get(term) ?? 0) < minClusterFrequency) continue;
          scored.push([term, (count / classTotal) * Math.log(average / (totals.get(term) as number) + 1)]);
        }
        scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        const keywords = scored.slice(0, topN).map(([term]) => term);
        labels.push({ leafId: cluster.leafId, status: 'ok', keywords, problems: keywords.length === 0 ? [{ code: 'no-keywords', message: 'the cluster has no terms left after stop words' }] : [] });
        onProgress?.({ completed: labels.length, total: targets.length, failed: 0 });
      }
      return labels;
    },
  };
}
