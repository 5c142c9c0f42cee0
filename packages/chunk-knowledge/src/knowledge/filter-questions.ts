import { InvalidArgumentError, cosineSimilarity, embedInBatches, throwIfAborted } from '@factkit/core';
import type { Embedder, RetrieverFactory } from '@factkit/core';
import { toFieldedDocument } from '../indexing/fielded-bm25.js';
import type { AnnotatedChunk } from './types.js';

export interface FilterQuestionsOptions {
  /**
   * Relevance of a question to its own chunk. `{ factory }`: a core `RetrieverFactory` builds one retriever over the
   * batch's chunks (field `chunk`; e.g. retrieval's `createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER,
   * k1: 1.2, b: 0.75, lengthEncoding: 'exact' })`, idf over the batch); a question's score is its own chunk's score in
   * the retriever's full ranking for the question, 0 when the retriever does not return that chunk (for BM25: no term
   * in common). `{ embedder }`: cosine of the question as `query` and the chunk as `passage`.
   */
  readonly scorer: { readonly factory: RetrieverFactory } | { readonly embedder: Embedder; readonly batchSize?: number };
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

/** One generated question and the position of its chunk in the batch. */
interface QuestionPair {
  readonly item: number;
  readonly question: string;
}

/** First ranking depth asked for; deepened 8× while the own chunk is missing from a full list. */
const FIRST_DEPTH = 16;

/**
 * Each question's score against its own chunk from a retriever the factory builds over the chunks: the chunk's score
 * in the retriever's ranking for the question, 0 when the retriever does not return it at all. The ranking is read
 * only as deep as needed (16, then 8× deeper while the chunk is missing and the list is full, up to every chunk), so
 * the result is the full-ranking score at a fraction of its cost. Documents are keyed by batch position, so repeated
 * chunk ids stay apart.
 */
async function scoreWithRetriever(items: readonly AnnotatedChunk[], pairs: readonly QuestionPair[], factory: RetrieverFactory, abortSignal: AbortSignal | undefined): Promise<number[]> {
  const signal = abortSignal ? { abortSignal } : {};
  const documents = items.map((item, index) => ({ ...toFieldedDocument(item), id: String(index) }));
  const retriever = await factory.createRetriever({ documents, fields: { chunk: 1 }, ...signal });
  const scores: number[] = [];
  for (const { item, question } of pairs) {
    throwIfAborted(abortSignal);
    const id = String(item);
    let score: number | undefined;
    for (let depth = Math.min(FIRST_DEPTH, items.length); score === undefined; depth = Math.min(items.length, depth * 8)) {
      const { evidence } = await retriever.retrieve({ query: { text: question }, topK: depth, ...signal });
      const own = evidence.find((hit) => hit.documentId === id);
      if (own !== undefined) score = own.score;
      else if (evidence.length < depth || depth >= items.length) score = 0;
    }
    scores.push(score);
  }
  return scores;
}

/** Each question's cosine with its own chunk (question as `query`, chunk as `passage`). */
async function scoreWithEmbedder(items: readonly AnnotatedChunk[], pairs: readonly QuestionPair[], embedder: Embedder, batchSize: number | undefined, abortSignal: AbortSignal | undefined): Promise<number[]> {
  const common = { ...(batchSize ? { batchSize } : {}), ...(abortSignal ? { abortSignal } : {}) };
  const questionVectors = await embedInBatches(
    embedder,
    pairs.map((pair) => pair.question),
    { kind: 'query', ...common },
  );
  const chunkVectors = await embedInBatches(
    embedder,
    items.map((item) => item.chunk.text),
    { kind: 'passage', ...common },
  );
  return pairs.map((pair, index) => cosineSimilarity(questionVectors[index]!, chunkVectors[pair.item]!));
}

/**
 * Doc2Query-- (Gospodinov et al., ECIR 2023): score every generated question against its own chunk and drop those
 * below the `percentile`-th percentile of all scores, so hallucinated questions do not expand the index.
 * Nothing is dropped silently: each dropped question is returned with its score.
 * @throws InvalidArgumentError for a missing or malformed scorer, or a percentile outside [0, 100].
 * @example await filterQuestionsByRelevance(items, { scorer: { factory: createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER }) } })
 */
export async function filterQuestionsByRelevance(items: readonly AnnotatedChunk[], options: FilterQuestionsOptions): Promise<FilterQuestionsResult> {
  const where = 'filterQuestionsByRelevance';
  const { scorer, percentile = 30, abortSignal } = options ?? ({} as Partial<FilterQuestionsOptions>);
  const isFactory = typeof scorer === 'object' && scorer !== null && 'factory' in scorer && typeof scorer.factory?.createRetriever === 'function';
  const isEmbedder = typeof scorer === 'object' && scorer !== null && 'embedder' in scorer && typeof scorer.embedder?.embed === 'function';
  if (!isFactory && !isEmbedder) {
    throw new InvalidArgumentError({ where, argument: 'scorer', message: 'must be { factory: RetrieverFactory } (e.g. createBm25RetrieverFactory from @factkit/retrieval) or { embedder: Embedder }' });
  }
  if (typeof percentile !== 'number' || !(percentile >= 0 && percentile <= 100)) {
    throw new InvalidArgumentError({ where, argument: 'percentile', message: `must be a number in [0, 100] (got ${String(percentile)})` });
  }
  const pairs: QuestionPair[] = [];
  items.forEach((item, index) => item.questions.forEach((question) => pairs.push({ item: index, question })));
  const scores = 'factory' in scorer ? await scoreWithRetriever(items, pairs, scorer.factory, abortSignal) : await scoreWithEmbedder(items, pairs, scorer.embedder, scorer.batchSize, abortSignal);
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
