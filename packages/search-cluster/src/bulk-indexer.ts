import type { Document, ItemProblem, ProgressCallback } from '@factkit/core';
import { abortableDelay, assertNonNegativeNumber, assertPositiveInteger, InvalidArgumentError, ProviderCallError } from '@factkit/core';
import type { ClusterAdapter } from './search-cluster-client.js';
import type { SearchClusterProblemCode, SearchClusterRetrieverOptions } from './search-cluster-options.js';

/** The options of the bulk indexer (documented on `SearchClusterRetrieverOptions`). */
export type BulkOptions = Pick<SearchClusterRetrieverOptions, 'batchSize' | 'maxBatchBytes' | 'concurrency' | 'maxAttempts' | 'retryDelayMs' | 'maxRetryDelayMs'>;

export interface IndexDocumentsOptions {
  /**
   * Called after every `_bulk` response and at the end, with core `Progress`: `completed` = documents settled (indexed
   * or given up on), `failed` = documents given up on, and `total` = documents read from the input so far. The input is
   * an iterable or a stream read lazily, so its length is not known until it ends: `total` grows as documents are
   * read, and equals the input's length in the last call.
   */
  readonly onProgress?: ProgressCallback;
  /** Refresh the index at the end so searches see the documents. @default true */
  readonly refresh?: boolean;
  readonly abortSignal?: AbortSignal;
}

export interface IndexDocumentsResult {
  /** Documents read from the input. */
  readonly read: number;
  /** Documents the cluster acknowledged. */
  readonly indexed: number;
  /** Documents given up on (invalid, rejected, or out of attempts). */
  readonly failed: number;
  /** Re-sent document attempts (a document retried twice counts twice). */
  readonly retried: number;
  /** `_bulk` responses received (retries included). */
  readonly requests: number;
  /**
   * One entry per document not indexed (`index` = its position in the input, `id` when known) and per batch-level
   * event: `invalid-document`, `item-rejected` (the cluster refused it, e.g. a mapping error), `retries-exhausted`
   * (still 429/rejected after `maxAttempts`), `bulk-request-failed`, `malformed-bulk-response`, `stopped`, `refresh-failed`.
   */
  readonly problems: ItemProblem<SearchClusterProblemCode>[];
  /** False when indexing stopped early (a request failed in a way retrying cannot fix, e.g. 401) or refresh failed. */
  readonly complete: boolean;
}

interface Entry {
  readonly position: number;
  readonly id: string;
  readonly action: Record<string, unknown>;
  readonly source: Record<string, unknown>;
  readonly bytes: number;
}

/** Resolved bulk options, checked once. @throws InvalidArgumentError */
export function resolveBulkOptions(options: BulkOptions, where: string): Required<BulkOptions> {
  const { batchSize = 500, maxBatchBytes = 5_000_000, concurrency = 2, maxAttempts = 5, retryDelayMs = 200, maxRetryDelayMs = 10_000 } = options;
  const positiveInteger = (value: number, argument: string) => {
    assertPositiveInteger(argument, value, where);
  };
  positiveInteger(batchSize, 'batchSize');
  positiveInteger(maxBatchBytes, 'maxBatchBytes');
  positiveInteger(concurrency, 'concurrency');
  positiveInteger(maxAttempts, 'maxAttempts');
  for (const [value, argument] of [
    [retryDelayMs, 'retryDelayMs'],
    [maxRetryDelayMs, 'maxRetryDelayMs'],
  ] as const) {
    assertNonNegativeNumber(argument, value, where);
  }
  return { batchSize, maxBatchBytes, concurrency, maxAttempts, retryDelayMs, maxRetryDelayMs };
}

const RETRYABLE_ITEM_STATUSES = new Set([429, 502, 503, 504]);

/** A bulk item worth re-sending: 429/502/503/504 or a thread-pool rejection (`es_rejected_execution_exception`, `rejected_execution_exception`). */
export function isRetryableBulkItem(status: number, errorType: string | undefined): boolean {
  return RETRYABLE_ITEM_STATUSES.has(status) || (errorType !== undefined && /rejected_execution_exception$/.test(errorType));
}

function describeDocumentProblem(document: unknown): string | undefined {
  if (typeof document !== 'object' || document === null) return 'must be a Document object';
  const candidate = document as Partial<Document>;
  if (typeof candidate.id !== 'string' || candidate.id.length === 0) return 'id must be a non-empty string';
  if (typeof candidate.text !== 'string') return 'text must be a string';
  if (candidate.title !== undefined && typeof candidate.title !== 'string') return 'title must be a string when present';
  if (candidate.source !== undefined && (typeof candidate.source !== 'object' || candidate.source === null || typeof candidate.source.name !== 'string')) return 'source must be { name, url?, license? } when present';
  if (candidate.metadata !== undefined && (typeof candidate.metadata !== 'object' || candidate.metadata === null || Array.isArray(candidate.metadata))) return 'metadata must be an object when present';
  return undefined;
}

/** UTF-8 byte length of a string without allocating (lone surrogates count 3, as TextEncoder writes U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

async function* toAsync<T>(source: Iterable<T> | AsyncIterable<T>): AsyncGenerator<T> {
  yield* source;
}

/** Streams documents into the index with `_bulk` (see `SearchClusterRetriever.indexDocuments`). */
export async function runBulkIndexing(input: {
  readonly adapter: ClusterAdapter;
  readonly index: string;
  readonly flat: boolean;
  readonly documents: Iterable<Document> | AsyncIterable<Document>;
  readonly bulk: Required<BulkOptions>;
  readonly options: IndexDocumentsOptions;
}): Promise<IndexDocumentsResult> {
  const { adapter, index, flat, bulk, options } = input;
  const { abortSignal, onProgress, refresh = true } = options;
  const where = 'SearchClusterRetriever.indexDocuments';
  if (input.documents === null || typeof input.documents !== 'object' || !(Symbol.iterator in input.documents || Symbol.asyncIterator in input.documents)) {
    throw new InvalidArgumentError({ where, argument: 'documents', message: 'must be an iterable or async iterable of documents' });
  }
  abortSignal?.throwIfAborted();
  const problems: ItemProblem<SearchClusterProblemCode>[] = [];
  let read = 0;
  let indexed = 0;
  let failed = 0;
  let retried = 0;
  let requests = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const report = () => onProgress?.({ completed: indexed + failed, total: read, failed });
  const fail = (entries: readonly Entry[], code: SearchClusterProblemCode, message: string) => {
    for (const entry of entries) problems.push({ index: entry.position, id: entry.id, code, message });
    failed += entries.length;
  };
  const backoff = (attempt: number) => Math.min(bulk.maxRetryDelayMs, bulk.retryDelayMs * 2 ** (attempt - 1));

  const sendBatch = async (batch: readonly Entry[]): Promise<void> => {
    let remaining = batch;
    for (let attempt = 1; ; attempt++) {
      const operations: Record<string, unknown>[] = [];
      for (const entry of remaining) operations.push(entry.action, entry.source);
      let response: unknown;
      try {
        response = await adapter.call('bulk', { index }, operations, abortSignal);
      } catch (error) {
        if (abortSignal?.aborted) throw abortSignal.reason;
        const retryable = ProviderCallError.isInstance(error) && error.isRetryable;
        if (retryable && attempt < bulk.maxAttempts) {
          retried += remaining.length;
          await abortableDelay(backoff(attempt), abortSignal);
          continue;
        }
        const reason = (error as Error)?.message ?? String(error);
        if (retryable) fail(remaining, 'retries-exhausted', `bulk request still failing after ${attempt} attempts: ${reason}`);
        else {
          fail(remaining, 'bulk-request-failed', reason);
          if (!stopped) problems.push({ code: 'stopped', message: `indexing stopped: a bulk request failed in a way retrying cannot fix (${reason})` });
          stopped = true;
        }
        requests += 1;
        report();
        return;
      }
      requests += 1;
      const items = (response as { items?: unknown } | null)?.items;
      if (!Array.isArray(items) || items.length !== remaining.length) {
        fail(remaining, 'malformed-bulk-response', `expected ${remaining.length} bulk items, got ${Array.isArray(items) ? items.length : 'none'}`);
        report();
        return;
      }
      const again: Entry[] = [];
      items.forEach((item: unknown, position) => {
        const entry = remaining[position] as Entry;
        const outcome = (item as Record<string, { status?: unknown; error?: { type?: unknown; reason?: unknown } } | undefined> | null)?.['index'];
        const status = typeof outcome?.status === 'number' ? outcome.status : 0;
        if (status >= 200 && status < 300 && outcome?.error === undefined) {
          indexed += 1;
          return;
        }
        const type = typeof outcome?.error?.type === 'string' ? outcome.error.type : undefined;
        if (isRetryableBulkItem(status, type)) {
          if (attempt < bulk.maxAttempts) again.push(entry);
          else fail([entry], 'retries-exhausted', `still rejected after ${attempt} attempts (status ${status}${type ? `, ${type}` : ''})`);
          return;
        }
        const reason = typeof outcome?.error?.reason === 'string' ? outcome.error.reason : 'no reason given';
        fail([entry], 'item-rejected', `status ${status}${type ? ` ${type}` : ''}: ${reason}`);
      });
      report();
      if (again.length === 0) return;
      retried += again.length;
      await abortableDelay(backoff(attempt), abortSignal);
      remaining = again;
    }
  };

  const launch = async (batch: Entry[]): Promise<void> => {
    while (inFlight.size >= bulk.concurrency) await Promise.race(inFlight);
    abortSignal?.throwIfAborted();
    if (stopped) {
      fail(batch, 'bulk-request-failed', 'not sent: indexing stopped after an earlier request failed');
      return;
    }
    const pending: Promise<void> = sendBatch(batch).finally(() => inFlight.delete(pending));
    pending.catch(() => undefined);
    inFlight.add(pending);
  };

  let batch: Entry[] = [];
  let batchBytes = 0;
  try {
    for await (const document of toAsync(input.documents)) {
      abortSignal?.throwIfAborted();
      if (stopped) break;
      const position = read;
      read += 1;
      const problem = describeDocumentProblem(document);
      const id = typeof (document as Partial<Document> | null)?.id === 'string' ? (document as Document).id : undefined;
      if (problem !== undefined) {
        problems.push({ index: position, ...(id !== undefined ? { id } : {}), code: 'invalid-document', message: problem });
        failed += 1;
        continue;
      }
      const source: Record<string, unknown> = { id: document.id, text: document.text };
      if (document.title !== undefined) source['title'] = document.title;
      if (flat) source['contents'] = document.title ? `${document.title} ${document.text}` : document.text;
      if (document.source !== undefined) source['source'] = document.source;
      if (document.metadata !== undefined) source['metadata'] = document.metadata;
      const action = { index: { _index: index, _id: document.id } };
      let bytes: number;
      try {
        bytes = utf8Length(JSON.stringify(action)) + utf8Length(JSON.stringify(source)) + 2;
      } catch (error) {
        problems.push({ index: position, id: document.id, code: 'invalid-document', message: `not JSON-serialisable: ${(error as Error).message}` });
        failed += 1;
        continue;
      }
      if (batch.length > 0 && (batch.length >= bulk.batchSize || batchBytes + bytes > bulk.maxBatchBytes)) {
        await launch(batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push({ position, id: document.id, action, source, bytes });
      batchBytes += bytes;
    }
    if (batch.length > 0) await launch(batch);
    while (inFlight.size > 0) await Promise.race(inFlight);
  } catch (error) {
    // Abort (or a failing input iterator): wait for requests already sent so none outlives this call, then rethrow.
    await Promise.allSettled(inFlight);
    throw error;
  }
  let complete = !stopped;
  if (refresh && indexed > 0) {
    try {
      await adapter.call('indices.refresh', { index }, undefined, abortSignal);
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason;
      problems.push({ code: 'refresh-failed', message: (error as Error).message });
      complete = false;
    }
  }
  report();
  return { read, indexed, failed, retried, requests, problems, complete };
}
