import type { Embedder, Evidence, ProgressCallback, RetrieveRequest, Retriever, RetrieverFactory, RetrieverFactoryRequest, VectorRecord, VectorStore } from '@factkit/core';
import { InvalidArgumentError, embedInBatches, throwIfAborted } from '@factkit/core';
import { createInMemoryVectorStore } from '../stores/in-memory-vector-store.js';
import type { RetrievalProblem, RetrievalProblemCode } from '../problem-codes.js';

export interface DenseRetrieverFactoryOptions {
  readonly embedder: Embedder;
  /** A fresh store per retriever. @default an exact in-memory cosine store */
  readonly createStore?: (dimensions: number) => VectorStore;
  /** How the hits on several vectors of one document become its score. @default 'max' */
  readonly fold?: 'max' | 'sum';
  /** Vector hits fetched per requested document, so folding still fills topK documents. @default 8 (1 when every document has one vector) */
  readonly fanOut?: number;
  /** Texts per embedding call. @default embedder.maxBatchSize ?? 64 */
  readonly batchSize?: number;
  /** Core progress, called after each embedded batch of a `createRetriever` (`completed` / `total` = vectors). */
  readonly onProgress?: ProgressCallback;
}

/** A retriever made by the dense factory, with what was left out of its index. */
/** Retrieval problems: `empty-query`. */
export interface FieldedDenseRetriever extends Retriever<RetrievalProblemCode> {
  readonly store: VectorStore;
  /** Vectors indexed (one per non-empty field text). */
  readonly vectorCount: number;
  /** Field texts left out (`empty-field`). */
  readonly problems: readonly RetrievalProblem[];
}

/** The dense `RetrieverFactory`: its retrievers also expose their store, vector count and problems. */
export interface DenseRetrieverFactory extends RetrieverFactory {
  createRetriever(request: RetrieverFactoryRequest): Promise<FieldedDenseRetriever>;
}

interface VectorOf {
  readonly id: string;
  readonly document: number;
  readonly weight: number;
  readonly text: string;
}

/**
 * A core `RetrieverFactory` over dense vectors: every non-empty text of every named field of positive weight becomes one
 * vector (`kind: 'passage'`; a list field gives one per entry), in any `VectorStore`. `retrieve` embeds the query (or
 * uses `query.vector`), fetches `topK × fanOut` vector hits, folds them to their document (max or sum of weight × cosine)
 * and returns the documents' `text`, `origin` and `metadata`. Vector ids: the document id when a request has one field
 * with one text per document, else `<id>::<field>` (`<id>::<field><i>` for list entries).
 * @throws InvalidArgumentError for a missing embedder, a bad fold or fanOut (at creation) and no positive field weight.
 * @example const factory = createDenseRetrieverFactory({ embedder, fold: 'max' }); const retriever = await factory.createRetriever({ documents, fields: { title: 1, questions: 1, chunk: 1 } })
 */
export function createDenseRetrieverFactory(options: DenseRetrieverFactoryOptions): DenseRetrieverFactory {
  const where = 'createDenseRetrieverFactory';
  const { embedder, fold = 'max', createStore = (dimensions: number) => createInMemoryVectorStore({ dimensions, metric: 'cosine' }) } = options;
  if (!embedder || typeof embedder.embed !== 'function') throw new InvalidArgumentError({ where, argument: 'embedder', message: 'must be an Embedder' });
  if (fold !== 'max' && fold !== 'sum') throw new InvalidArgumentError({ where, argument: 'fold', message: `must be 'max' or 'sum' (got ${String(fold)})` });
  const { batchSize = embedder.maxBatchSize ?? 64 } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new InvalidArgumentError({ where, argument: 'batchSize', message: `must be an integer >= 1 (got ${String(batchSize)})` });
  if (options.fanOut !== undefined && (!Number.isInteger(options.fanOut) || options.fanOut < 1)) throw new InvalidArgumentError({ where, argument: 'fanOut', message: `must be an integer >= 1 (got ${String(options.fanOut)})` });
  return {
    id: `dense-fields(${embedder.id},${fold})`,
    async createRetriever({ documents, fields, abortSignal }) {
      const requestWhere = 'DenseRetrieverFactory.createRetriever';
      throwIfAborted(abortSignal);
      if (!Array.isArray(documents)) throw new InvalidArgumentError({ where: requestWhere, argument: 'documents', message: 'must be an array of FieldedDocument' });
      const weighted = Object.entries(fields ?? {}).filter(([name, weight]) => {
        if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) throw new InvalidArgumentError({ where: requestWhere, argument: `fields.${name}`, message: `must be a finite number >= 0 (got ${String(weight)})` });
        return weight > 0;
      });
      if (weighted.length === 0) throw new InvalidArgumentError({ where: requestWhere, argument: 'fields', message: 'must give at least one field a weight > 0' });
      const problems: RetrievalProblem[] = [];
      const vectors: VectorOf[] = [];
      const single = weighted.length === 1;
      documents.forEach((document, position) => {
        if (typeof document !== 'object' || document === null || typeof document.fields !== 'object' || document.fields === null || typeof document.text !== 'string' || typeof document.origin?.documentId !== 'string') {
          throw new InvalidArgumentError({ where: requestWhere, argument: `documents[${position}]`, message: 'must be a FieldedDocument { id, fields, text, origin }' });
        }
        for (const [field, weight] of weighted) {
          const value = document.fields[field];
          const texts = value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
          const list = Array.isArray(value);
          texts.forEach((text, entry) => {
            if (typeof text !== 'string' || text.trim() === '') {
              problems.push({ index: position, id: document.id, code: 'empty-field', message: `field "${field}"${list ? ` entry ${entry}` : ''} of "${document.id}" is empty; not indexed` });
              return;
            }
            const id = single && !list ? document.id : `${document.id}::${field}${list ? entry : ''}`;
            vectors.push({ id, document: position, weight, text });
          });
        }
      });
      const store = createStore(embedder.dimensions);
      if (store.dimensions !== embedder.dimensions) throw new InvalidArgumentError({ where: requestWhere, argument: 'createStore', message: `made a store of ${store.dimensions} dimensions; the embedder has ${embedder.dimensions}` });
      for (let start = 0; start < vectors.length; start += batchSize) {
        throwIfAborted(abortSignal);
        const batch = vectors.slice(start, start + batchSize);
        const embedded = await embedInBatches(
          embedder,
          batch.map((vector) => vector.text),
          { kind: 'passage', batchSize, ...(abortSignal ? { abortSignal } : {}) },
        );
        const records: VectorRecord[] = batch.map((vector, k) => ({ id: vector.id, vector: embedded[k]! }));
        await store.upsert({ records, ...(abortSignal ? { abortSignal } : {}) });
        options.onProgress?.({ completed: Math.min(start + batchSize, vectors.length), total: vectors.length });
      }
      const byVector = new Map(vectors.map((vector) => [vector.id, vector]));
      const oneVectorEach = vectors.length === new Set(vectors.map((vector) => vector.document)).size;
      const fanOut = options.fanOut ?? (oneVectorEach ? 1 : 8);
      return {
        id: `dense-fields(${embedder.id},${fold})[${weighted.map(([name, weight]) => `${name}:${weight}`).join(',')}]`,
        store,
        vectorCount: vectors.length,
        problems,
        async retrieve({ query, topK = 10, abortSignal: signal }) {
          throwIfAborted(signal);
          if (!Number.isInteger(topK) || topK < 0) throw new InvalidArgumentError({ where: 'FieldedDenseRetriever.retrieve', argument: 'topK', message: `must be an integer >= 0 (got ${String(topK)})` });
          if (query?.vector === undefined && (typeof query?.text !== 'string' || query.text.trim().length === 0)) return { evidence: [], problems: [{ code: 'empty-query', message: 'empty query: no text and no vector' }] };
          if (topK === 0) return { evidence: [] };
          const vector = query.vector ?? (await embedder.embed({ texts: [query.text], kind: 'query', ...(signal ? { abortSignal: signal } : {}) })).embeddings[0];
          if (!vector) throw new InvalidArgumentError({ where: 'FieldedDenseRetriever.retrieve', argument: 'embedder', message: 'returned no vector for the query' });
          const { matches } = await store.query({ vector, topK: topK * fanOut, ...(signal ? { abortSignal: signal } : {}) });
          const folded = new Map<number, number>();
          for (const match of matches) {
            const of = byVector.get(match.id);
            if (of === undefined) continue;
            const score = of.weight * match.score;
            const previous = folded.get(of.document);
            folded.set(of.document, previous === undefined ? score : fold === 'max' ? Math.max(previous, score) : previous + score);
          }
          const evidence: Evidence[] = [...folded.entries()]
            .map(([position, score]) => ({ document: documents[position]!, score }))
            .sort((a, b) => b.score - a.score || (a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0))
            .slice(0, topK)
            .map(({ document, score }, rank) => ({
              documentId: document.id,
              text: document.text,
              score,
              rank: rank + 1,
              origin: document.origin,
              ...(document.metadata === undefined ? {} : { metadata: document.metadata }),
            }));
          return { evidence };
        },
      };
    },
  };
}
