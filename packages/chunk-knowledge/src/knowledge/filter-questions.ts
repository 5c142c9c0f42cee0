import { InvalidArgumentError, cosineSimilarity, embedInBatches } from '@factkit/core';
import type { Embedder } from '@factkit/core';
import { bm25Idf, bm25TermScore, lexicalTerms, termFrequencies } from '../internal/lexical.js';
import type { AnnotatedChunk } from './types.js';

export interface FilterQuestionsOptions {
  /**
   * Relevance of a question to its own chunk: `'bm25'` (the question as query against the chunk, idf over all chunks
   * of the batch) or `{ embedder }` (cosine of the question as `query` and the chunk as `passage`). @default 'bm25'
   */
  readonly scorer?: 'bm25' | { readonly embedder: Embedder; readonly batchSize?: number };
  /** Questions scoring below this percentile (0–100) of all questions' scores are dropped. @default 30 */
  readonly percentile?: number;
  readonly abortSignal?: AbortSignal;
}

export interface DroppedQuestion {
  readonly chunkId: string;
  readonly question: string;
  readonly score: number;
}

export interface FilterQuestionsResult {
  /** The chunks with only the kept questions (title and chunk unchanged). */
  readonly items: AnnotatedChunk[];
  readonly dropped: DroppedQuestion[];
  readonly keptCount: number;
  readonly droppedCount: number;
  /** Score at the percentile; questions strictly below it were dropped. */
  readonly threshold: number;
}

/** The p-th percentile (0–100) of ascending `sorted`, with linear interpolation between closest ranks. */
export function percentileOf(sorted: readonly number[], percentile: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (percentile / 100) * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/**
 * Doc2Query-- (Gospodinov et al., ECIR 2023): score every generated question against its own chunk and drop those
 * below the `percentile`-th percentile of all scores, so hallucinated questions do not expand the index.
 * Nothing is dropped silently: each dropped question is returned with its score.
 * @throws InvalidArgumentError for a percentile outside [0, 100].
 */
export async function filterQuestionsByRelevance(items: readonly AnnotatedChunk[], options: FilterQuestionsOptions = {}): Promise<FilterQuestionsResult> {
  const { scorer = 'bm25', percentile = 30, abortSignal } = options;
  if (typeof percentile !== 'number' || !(percentile >= 0 && percentile <= 100)) {
    throw new InvalidArgumentError({ where: 'filterQuestionsByRelevance', argument: 'percentile', message: `must be a number in [0, 100] (got ${String(percentile)})` });
  }
  const pairs: Array<{ item: number; question: string }> = [];
  items.forEach((item, index) => item.questions.forEach((question) => pairs.push({ item: index, question })));
  let scores: number[];
  if (scorer === 'bm25') {
    const chunkTerms = items.map((item) => termFrequencies(lexicalTerms(item.chunk.text)));
    const lengths = chunkTerms.map((terms) => [...terms.values()].reduce((sum, tf) => sum + tf, 0));
    const averageLength = lengths.length === 0 ? 0 : lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
    const documentFrequency = new Map<string, number>();
    for (const terms of chunkTerms) for (const term of terms.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    scores = pairs.map(({ item, question }) => {
      let score = 0;
      for (const [term, queryTf] of termFrequencies(lexicalTerms(question))) {
        const tf = chunkTerms[item]!.get(term) ?? 0;
        score += queryTf * bm25TermScore(bm25Idf(items.length, documentFrequency.get(term) ?? 0), tf, lengths[item]!, averageLength, 1.2, 0.75);
      }
      return score;
    });
  } else {
    const { embedder, batchSize } = scorer;
    const signal = abortSignal ? { abortSignal } : {};
    const questionVectors = await embedInBatches(
      embedder,
      pairs.map((pair) => pair.question),
      { kind: 'query', ...(batchSize ? { batchSize } : {}), ...signal },
    );
    const chunkVectors = await embedInBatches(
      embedder,
      items.map((item) => item.chunk.text),
      { kind: 'passage', ...(batchSize ? { batchSize } : {}), ...signal },
    );
    scores = pairs.map((pair, index) => cosineSimilarity(questionVectors[index]!, chunkVectors[pair.item]!));
  }
  const threshold = percentileOf(
    [...scores].sort((a, b) => a - b),
    percentile,
  );
  const kept: string[][] = items.map(() => []);
  const dropped: DroppedQuestion[] = [];
  pairs.forEach((pair, index) => {
    const score = scores[index]!;
    if (score < threshold) dropped.push({ chunkId: items[pair.item]!.chunk.id, question: pair.question, score });
    else kept[pair.item]!.push(pair.question);
  });
  return {
    items: items.map((item, index) => ({ ...item, questions: kept[index]! })),
    dropped,
    keptCount: pairs.length - dropped.length,
    droppedCount: dropped.length,
    threshold,
  };
}
