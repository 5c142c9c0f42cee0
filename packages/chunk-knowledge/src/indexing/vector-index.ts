import { assertPositiveInteger, embedInBatches, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { Embedder, Evidence, ItemProblem, ProgressCallback, Retriever, VectorRecord, VectorStore } from '@factkit/core';
import type { AnnotatedChunk } from '../knowledge/types.js';
import type { LayoutField, PassageLayout, RenderPassageOptions } from './layouts.js';
import { renderField, renderPassage } from './layouts.js';

/** Index each chunk as one vector of its rendered layout, or title / each question / chunk as separate vectors. */
export type IndexMode = PassageLayout | { readonly multiVector: readonly LayoutField[] };

/** The passages an annotated chunk is indexed as (text, record id, field), in the same form they are displayed. */
export interface IndexedPassage {
  readonly id: string;
  readonly chunkId: string;
  readonly documentId: string;
  readonly field: LayoutField | 'layout';
  readonly text: string;
}

/** Renders the passages of a batch in an index mode; records with empty text are reported, not indexed. */
export function renderIndexPassages(items: readonly AnnotatedChunk[], mode: IndexMode, options: RenderPassageOptions = {}): { passages: IndexedPassage[]; problems: ItemProblem[] } {
  const passages: IndexedPassage[] = [];
  const problems: ItemProblem[] = [];
  const { open = '<s>', close = '</s>' } = options;
  const wrap = (text: string): string => [open, text, close].filter((part) => part !== '').join(' ');
  items.forEach((item, index) => {
    const base = { chunkId: item.chunk.id, documentId: item.chunk.documentId };
    if ('fields' in mode) {
      passages.push({ ...base, id: item.chunk.id, field: 'layout', text: renderPassage(item, mode, options) });
      return;
    }
    for (const field of mode.multiVector) {
      const texts = field === 'questions' ? item.questions : [renderField(item, field)];
      texts.forEach((text, position) => {
        if (text.trim() === '') {
          problems.push({ index, id: item.chunk.id, code: 'empty-field', message: `field "${field}" of chunk "${item.chunk.id}" is empty; not indexed` });
          return;
        }
        passages.push({ ...base, id: `${item.chunk.id}::${field}${field === 'questions' ? position : ''}`, field, text: wrap(text) });
      });
    }
  });
  return { passages, problems };
}

export interface IndexAnnotatedChunksOptions {
  readonly embedder: Embedder;
  readonly store: VectorStore;
  /** A layout (one vector per chunk) or `{ multiVector: ['title', 'questions', 'chunk'] }`. */
  readonly mode: IndexMode;
  readonly render?: RenderPassageOptions;
  /** Texts per embed call. @default embedder.maxBatchSize ?? 64 */
  readonly batchSize?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each embed call: `completed` counts passages embedded and stored. */
  readonly onProgress?: ProgressCallback;
}

export interface IndexAnnotatedChunksResult {
  readonly recordCount: number;
  /** Characters of passage text embedded (index size proxy next to the vector count). */
  readonly characterCount: number;
  readonly problems: ItemProblem[];
}

/**
 * Embeds the passages of annotated chunks (`kind: 'passage'`) and upserts them into any core `VectorStore`.
 * Record metadata: `chunkId`, `documentId`, `field`, `text` (the passage as indexed, shown again at search time).
 */
export async function indexAnnotatedChunks(items: readonly AnnotatedChunk[], options: IndexAnnotatedChunksOptions): Promise<IndexAnnotatedChunksResult> {
  const { embedder, store, mode, render = {}, batchSize = embedder.maxBatchSize ?? 64, abortSignal, onProgress } = options;
  if (store.dimensions !== embedder.dimensions) {
    throw new InvalidArgumentError({ where: 'indexAnnotatedChunks', argument: 'store', message: `has ${store.dimensions} dimensions but the embedder has ${embedder.dimensions}` });
  }
  const { passages, problems } = renderIndexPassages(items, mode, render);
  let completed = 0;
  for (let i = 0; i < passages.length; i += batchSize) {
    throwIfAborted(abortSignal);
    const batch = passages.slice(i, i + batchSize);
    const vectors = await embedInBatches(embedder, batch.map((passage) => passage.text), { kind: 'passage', batchSize, ...(abortSignal ? { abortSignal } : {}) });
    const records: VectorRecord[] = batch.map((passage, j) => ({
      id: passage.id,
      vector: vectors[j]!,
      metadata: { chunkId: passage.chunkId, documentId: passage.documentId, field: passage.field, text: passage.text },
    }));
    await store.upsert({ records, ...(abortSignal ? { abortSignal } : {}) });
    completed += batch.length;
    onProgress?.({ completed, total: passages.length });
  }
  return { recordCount: passages.length, characterCount: passages.reduce((sum, passage) => sum + passage.text.length, 0), problems };
}

/** How hits on several vectors of one chunk become the chunk's score. */
export type FoldMethod = 'max' | 'sum';

export interface ChunkVectorRetrieverOptions {
  readonly embedder: Embedder;
  readonly store: VectorStore;
  /** @default 'max' */
  readonly fold?: FoldMethod;
  /** Vector hits fetched per requested chunk, so folding still fills topK chunks. @default 8 (1 is enough for one vector per chunk) */
  readonly fanOut?: number;
}

/**
 * A core `Retriever` over a store filled by `indexAnnotatedChunks`: embeds the query (`kind: 'query'`), folds vector
 * hits to their chunk (max or sum) and returns one evidence per chunk: `documentId` = chunk id, `metadata.documentId`
 * = parent document, `text` = the best-scoring passage as indexed.
 */
export function createChunkVectorRetriever(options: ChunkVectorRetrieverOptions): Retriever {
  const { embedder, store, fold = 'max', fanOut = 8 } = options;
  if (fold !== 'max' && fold !== 'sum') throw new InvalidArgumentError({ where: 'createChunkVectorRetriever', argument: 'fold', message: `must be 'max' or 'sum' (got ${String(fold)})` });
  assertPositiveInteger('fanOut', fanOut, 'createChunkVectorRetriever');
  return {
    id: `chunk-vectors(${embedder.id},${fold})`,
    async retrieve({ query, topK = 10, abortSignal }) {
      const vector = query.vector ?? (await embedder.embed({ texts: [query.text], kind: 'query', ...(abortSignal ? { abortSignal } : {}) })).embeddings[0];
      if (!vector) throw new InvalidArgumentError({ where: 'createChunkVectorRetriever.retrieve', argument: 'embedder', message: 'returned no vector for the query' });
      const { matches } = await store.query({ vector, topK: topK * fanOut, ...(abortSignal ? { abortSignal } : {}) });
      const folded = new Map<string, { score: number; best: number; text: string; documentId: string; fields: string[] }>();
      for (const match of matches) {
        const chunkId = typeof match.metadata?.['chunkId'] === 'string' ? match.metadata['chunkId'] : match.id;
        const text = typeof match.metadata?.['text'] === 'string' ? match.metadata['text'] : '';
        const documentId = typeof match.metadata?.['documentId'] === 'string' ? match.metadata['documentId'] : chunkId;
        const field = String(match.metadata?.['field'] ?? 'layout');
        const entry = folded.get(chunkId);
        if (!entry) {
          folded.set(chunkId, { score: match.score, best: match.score, text, documentId, fields: [field] });
          continue;
        }
        entry.score = fold === 'max' ? Math.max(entry.score, match.score) : entry.score + match.score;
        if (match.score > entry.best) {
          entry.best = match.score;
          entry.text = text;
        }
        entry.fields.push(field);
      }
      const evidence: Evidence[] = [...folded.entries()]
        .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
        .slice(0, topK)
        .map(([chunkId, entry], position) => ({ documentId: chunkId, text: entry.text, score: entry.score, rank: position + 1, metadata: { documentId: entry.documentId, matchedFields: entry.fields } }));
      return { evidence };
    },
  };
}
