import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { type Embedder, FactkitError, InvalidArgumentError, type ItemProblem, type Query, type Retriever, type Run } from '@factkit/core';
import { type Bm25Index, type Bm25Query, type Bm25SearchResult, createBm25Retriever, createHybridRetriever, createRm3Expander, restoreDenseRetriever } from '@factkit/retrieval';
import { createBm25WorkerPool, loadBm25Index, loadDenseIndex, loadHybridIndex } from '@factkit/retrieval/node';
import type { CliIo } from './cli-io.js';
import { createCliEmbedder } from './embedders.js';
import type { Endpoint } from './endpoint.js';
import { createProgress } from './progress.js';

export const INDEX_KINDS = ['bm25', 'dense', 'hybrid'] as const;
export type IndexKind = (typeof INDEX_KINDS)[number];

/** A saved index opened for searching: its kind, a core `Retriever` over it, and the BM25 index where it has one. */
export interface OpenedIndex {
  readonly kind: IndexKind;
  readonly retriever: Retriever;
  /** The BM25 index of a BM25 file (batch search uses its worker pool, RM3 its statistics). */
  readonly bm25?: Bm25Index;
  /** Releases the embedder (dense, hybrid). */
  close(): void;
}

/** Which kind of index a path holds: a hybrid folder (manifest.json), or a file recognised by its magic bytes. */
export async function detectIndexKind(path: string, where: string): Promise<IndexKind> {
  const info = await stat(path).catch((cause: unknown) => {
    throw new InvalidArgumentError({ where, argument: '--index', message: `cannot be read (${path})`, cause });
  });
  if (info.isDirectory()) return 'hybrid';
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    await handle.read(head, 0, 8, 0);
    return head.subarray(0, 6).toString('latin1') === 'FKDENS' ? 'dense' : 'bm25';
  } finally {
    await handle.close();
  }
}

/**
 * Opens an index saved by `factkit index` (the kind read from the index itself); dense and hybrid queries are embedded
 * by the embedder the index was built with (its id is the `--embedder` spec, recreated here).
 * @throws InvalidArgumentError naming --index for an unreadable path; the loaders' CorruptDataError for a damaged index.
 */
export async function openSavedIndex(path: string, options: { readonly where: string; readonly endpoint?: Endpoint | undefined; readonly notice?: ((line: string) => void) | undefined }): Promise<OpenedIndex> {
  const kind = await detectIndexKind(path, options.where);
  const embedderFor = (embedderId: string, dimensions: number) => createCliEmbedder(embedderId, { where: options.where, endpoint: options.endpoint, dimensions, ...(options.notice ? { notice: options.notice } : {}) });
  if (kind === 'bm25') {
    const bm25 = await loadBm25Index(path);
    return { kind, retriever: createBm25Retriever(bm25), bm25, close: () => undefined };
  }
  let embedder: (Embedder & { dispose?: () => void }) | undefined;
  try {
    if (kind === 'dense') {
      const snapshot = await loadDenseIndex(path);
      embedder = await embedderFor(snapshot.embedderId, snapshot.dimensions);
      const retriever = await restoreDenseRetriever(snapshot, { embedder });
      const held = embedder;
      return { kind, retriever, close: () => held.dispose?.() };
    }
    const { manifest, bm25, dense } = await loadHybridIndex(path);
    embedder = await embedderFor(dense.embedderId, dense.dimensions);
    const retriever = createHybridRetriever({ retrievers: [createBm25Retriever(bm25), await restoreDenseRetriever(dense, { embedder })], fusion: manifest.fusion, candidateDepth: manifest.candidateDepth });
    const held = embedder;
    return { kind, retriever, close: () => held.dispose?.() };
  } catch (error) {
    embedder?.dispose?.();
    throw error;
  }
}

/** RM3 settings (Anserini's `-rm3` flags). */
export interface Rm3Settings {
  readonly fbDocs: number;
  readonly fbTerms: number;
  readonly originalQueryWeight: number;
}

export interface SearchTopicsOptions {
  /** Hits kept per query. */
  readonly topK: number;
  /** Expand every query with RM3 first (BM25 indexes only). */
  readonly rm3?: Rm3Settings | undefined;
  /** Worker threads for a BM25 index (1 = search on this thread). @default os.availableParallelism() */
  readonly threads?: number | undefined;
  /** The command, for error messages (`factkit search`). */
  readonly where: string;
  readonly io: CliIo;
}

/** Queries per progress step (and per worker-pool batch). */
const BATCH = 256;

/**
 * Runs every query against an opened index and collects a run (query id → document id → score), like Pyserini's
 * batch `search`: a BM25 index is searched in batches on its worker pool (postings shared between threads), RM3
 * expansion runs on this thread first; dense and hybrid indexes go query by query through their retriever. Progress
 * shows on a terminal. A query that fails (an embedding endpoint's error) or finds nothing searchable is a problem
 * naming it, never an empty result that looks like one.
 * @throws InvalidArgumentError for RM3 on a dense or hybrid index; AbortError on interrupt.
 */
export async function searchTopics(index: OpenedIndex, queries: readonly Query[], options: SearchTopicsOptions): Promise<{ run: Run; problems: ItemProblem[]; failed: number }> {
  const { topK, rm3, where, io } = options;
  const signal = io.abortSignal;
  if (rm3 && !index.bm25) throw new InvalidArgumentError({ where, argument: '--rm3', message: `needs a BM25 index (this one is ${index.kind})` });
  const run: Record<string, Record<string, number>> = {};
  const problems: ItemProblem[] = [];
  let failed = 0;
  const progress = createProgress(io, `search (${index.kind}${rm3 ? '+rm3' : ''})`);
  progress.update(0, queries.length);
  const noteProblems = (query: Query, found: readonly ItemProblem[] | undefined) => {
    for (const problem of found ?? []) problems.push({ ...problem, id: query.id as string, message: `query "${query.id as string}": ${problem.message}` });
  };
  if (index.bm25) {
    const bm25 = index.bm25;
    const expander = rm3 ? createRm3Expander({ index: bm25, ...rm3 }) : undefined;
    const threads = options.threads ?? availableParallelism();
    const pool = threads > 1 ? await createBm25WorkerPool(bm25, { threads }) : undefined;
    try {
      for (let start = 0; start < queries.length; start += BATCH) {
        signal?.throwIfAborted();
        const batch = queries.slice(start, start + BATCH);
        const prepared: (string | Bm25Query)[] = [];
        for (const query of batch) {
          if (!expander) prepared.push(query.text);
          else {
            const expanded = await expander.expand({ query, ...(signal ? { abortSignal: signal } : {}) });
            prepared.push(expanded.weightedTerms ? { terms: expanded.weightedTerms } : expanded.text);
          }
        }
        const results: Bm25SearchResult[] = pool ? await pool.searchBatch(prepared, { topK, ...(signal ? { abortSignal: signal } : {}) }) : bm25.searchBatch(prepared, { topK });
        batch.forEach((query, position) => {
          const result = results[position]!;
          run[query.id as string] = Object.fromEntries(result.hits.map((hit) => [hit.id, hit.score]));
          noteProblems(query, result.problems);
        });
        progress.update(Math.min(start + BATCH, queries.length), queries.length);
      }
    } finally {
      await pool?.close();
    }
  } else {
    let done = 0;
    for (const query of queries) {
      signal?.throwIfAborted();
      try {
        const result = await index.retriever.retrieve({ query, topK, ...(signal ? { abortSignal: signal } : {}) });
        run[query.id as string] = Object.fromEntries(result.evidence.map((item) => [item.documentId, item.score]));
        noteProblems(query, result.problems);
      } catch (error) {
        if (signal?.aborted || !FactkitError.isInstance(error) || InvalidArgumentError.isInstance(error)) throw error;
        failed++;
        problems.push({ id: query.id as string, code: 'search-failed', message: `query "${query.id as string}" failed and is left out of the run: ${error.message}` });
      }
      done++;
      if (done % 16 === 0 || done === queries.length) progress.update(done, queries.length);
    }
  }
  progress.end();
  return { run, problems, failed };
}
