import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { assertPositiveInteger, FactkitError, InvalidArgumentError } from '@factkit/core';
import { BM25_STRATEGIES, type Bm25Hit, type Bm25Index, type Bm25Query, type Bm25SearchOptions, type Bm25SearchResult } from './bm25-index.js';
import { getIndexState } from './index-state.js';
import type { PreparedQuery } from './query-preparation.js';
import { type WorkerRequest, type WorkerResponse, packLists } from './bm25-search-worker.js';

export interface Bm25WorkerPoolOptions {
  /** Worker threads. @default os.availableParallelism() */
  readonly threads?: number;
  /** Where the worker script is (the package ships `dist/bm25-search-worker.js`). Rarely needed. */
  readonly workerUrl?: URL;
}

/** Batch search over one index on several threads; the postings are shared, not copied. */
export interface Bm25WorkerPool {
  readonly threads: number;
  /** Same results as `index.searchBatch` (same order), computed on all threads. */
  searchBatch(queries: readonly (string | Bm25Query)[], options?: Bm25SearchOptions & { abortSignal?: AbortSignal }): Promise<Bm25SearchResult[]>;
  /** Stops the threads. */
  close(): Promise<void>;
}

function resolveWorkerUrl(): URL {
  const sibling = new URL('./bm25-search-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  // Running from source (tests): use the built worker.
  return new URL('../../dist/bm25-search-worker.js', import.meta.url);
}

/**
 * Starts worker threads that score batches against `index` (its typed arrays live in SharedArrayBuffers, so
 * each thread reads the same memory). Queries are analysed on the calling thread. Node.js only.
 * Changes to the index are picked up by the next batch. Call `close()` when done.
 * @throws InvalidArgumentError for a bad thread count.
 * @example const pool = await createBm25WorkerPool(index); const results = await pool.searchBatch(queries, { topK: 10 }); await pool.close();
 */
export async function createBm25WorkerPool(index: Bm25Index, options: Bm25WorkerPoolOptions = {}): Promise<Bm25WorkerPool> {
  const { threads = availableParallelism(), workerUrl = resolveWorkerUrl() } = options;
  const state = getIndexState(index, 'createBm25WorkerPool');
  assertPositiveInteger('threads', threads, 'createBm25WorkerPool');
  const { Worker: WorkerClass } = await import('node:worker_threads');
  const workers: Worker[] = Array.from({ length: threads }, () => new WorkerClass(workerUrl));
  let nextId = 0;
  const call = (worker: Worker, request: WorkerRequest): Promise<WorkerResponse> =>
    new Promise((resolve, reject) => {
      const onMessage = (response: WorkerResponse): void => {
        if (response.id !== request.id) return;
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (response.error !== undefined || !response.counts) reject(new FactkitError('worker_failed', `bm25 worker failed: ${response.error ?? 'no results'}`));
        else resolve(response);
      };
      const onError = (error: Error): void => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.postMessage(request, [request.packed.buffer as ArrayBuffer]);
    });

  return {
    threads,
    async searchBatch(queries, searchOptions = {}) {
      const { abortSignal, topK = 10, strategy = 'auto', ...rest } = searchOptions;
      if (!BM25_STRATEGIES.includes(strategy)) throw new InvalidArgumentError({ where: 'Bm25WorkerPool.searchBatch', argument: 'strategy', message: `must be one of ${BM25_STRATEGIES.join(', ')}` });
      abortSignal?.throwIfAborted();
      if (!Array.isArray(queries)) throw new InvalidArgumentError({ where: 'Bm25WorkerPool.searchBatch', argument: 'queries', message: 'must be an array' });
      assertPositiveInteger('topK', topK, 'Bm25WorkerPool.searchBatch');
      if (queries.length === 0) return [];
      // Queries are analysed and prepared on this thread chunk by chunk, while the threads score earlier chunks
      // (pipelined). Chunks go to whichever thread is free (balances threads slowed by other load). Postings,
      // impacts and factors travel as SharedArrayBuffer views: shared, never copied.
      const prepared: PreparedQuery[] = new Array<PreparedQuery>(queries.length);
      const chunk = Math.min(256, Math.max(8, Math.ceil(queries.length / (workers.length * 8))));
      const chunkCount = Math.ceil(queries.length / chunk);
      const pieces: WorkerResponse[] = [];
      let nextChunk = 0;
      /** Takes the next chunk and prepares it here; undefined when none is left. */
      const take = (): { chunkIndex: number; request: WorkerRequest } | undefined => {
        abortSignal?.throwIfAborted();
        const chunkIndex = nextChunk++;
        if (chunkIndex >= chunkCount) return undefined;
        const from = chunkIndex * chunk;
        const to = Math.min(queries.length, from + chunk);
        for (let position = from; position < to; position++) prepared[position] = state.prepare(queries[position] as string | Bm25Query, rest);
        const first = prepared[from] as PreparedQuery;
        const packed = packLists(prepared.slice(from, to).map((item) => item.lists));
        return {
          chunkIndex,
          request: {
            id: nextId++,
            kernelFields: first.kernelFields,
            documentCount: first.documentCount,
            stateId: first.stateId,
            mirror: first.denseMirror !== null,
            strategy,
            topK,
            parameters: first.kernelParameters,
            packed,
            queryCount: to - from,
          },
        };
      };
      const drive = async (worker: Worker, first: ReturnType<typeof take>): Promise<void> => {
        let current = first;
        while (current) {
          const running = call(worker, current.request);
          // Prepare this thread's next chunk while it scores the current one.
          const next = take();
          pieces[current.chunkIndex] = await running;
          current = next;
        }
      };
      // Every thread gets its first chunk before any thread's second one is prepared.
      // Compaction must not merge into the arrays in place while threads read them (between awaits).
      const release = state.retain();
      try {
        const firsts = workers.map(() => take());
        await Promise.all(workers.map((worker, position) => drive(worker, firsts[position])));
      } finally {
        release();
      }
      const ids = state.ids;
      abortSignal?.throwIfAborted();
      const out: Bm25SearchResult[] = [];
      for (const piece of pieces) {
        const counts = piece.counts as Int32Array;
        const docs = piece.docs as Int32Array;
        const scores = piece.scores as Float64Array;
        let read = 0;
        for (let query = 0; query < counts.length; query++) {
          const item = prepared[out.length] as PreparedQuery;
          const hits: Bm25Hit[] = [];
          for (let rank = 0; rank < (counts[query] as number); rank++) {
            const score = scores[read] as number;
            hits.push({ id: ids.at(docs[read] as number), score, normalizedScore: item.maxPossibleScore > 0 ? Math.min(1, score / item.maxPossibleScore) : 0, rank: rank + 1 });
            read++;
          }
          out.push({ hits, problems: item.problems, scoredPostings: (piece.scoredPostings as Float64Array)[query] as number });
        }
      }
      return out;
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
