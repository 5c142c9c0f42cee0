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

/** The state of one `indexDocuments` call, shared by its steps. */
interface IndexingRun {
  readonly adapter: ClusterAdapter;
  readonly index: string;
  readonly flat: boolean;
  readonly bulk: Required<BulkOptions>;
  readonly abortSignal: AbortSignal | undefined;
  readonly onProgress: ProgressCallback | undefined;
  readonly problems: ItemProblem<SearchClusterProblemCode>[];
  /** Batches holding an in-flight slot (sent and unanswered, or waiting to retry). */
  readonly inFlight: Set<Promise<void>>;
  read: number;
  indexed: number;
  failed: number;
  retried: number;
  requests: number;
  /** A request failed in a way retrying cannot fix: no more input is read and no more batch is sent. */
  stopped: boolean;
}

const reportProgress = (run: IndexingRun) => run.onProgress?.({ completed: run.indexed + run.failed, total: run.read, failed: run.failed });

function failEntries(run: IndexingRun, entries: readonly Entry[], code: SearchClusterProblemCode, message: string): void {
  for (const entry of entries) run.problems.push({ index: entry.position, id: entry.id, code, message });
  run.failed += entries.length;
}

const backoff = (bulk: Required<BulkOptions>, attempt: number) => Math.min(bulk.maxRetryDelayMs, bulk.retryDelayMs * 2 ** (attempt - 1));

/** A whole `_bulk` request failed: retry it (true) while retryable and attempts remain, else fail its documents. */
async function handleRequestFailure(run: IndexingRun, remaining: readonly Entry[], attempt: number, error: unknown): Promise<boolean> {
  const { bulk, abortSignal } = run;
  if (abortSignal?.aborted) throw abortSignal.reason;
  const retryable = ProviderCallError.isInstance(error) && error.isRetryable;
  if (retryable && attempt < bulk.maxAttempts) {
    run.retried += remaining.length;
    await abortableDelay(backoff(bulk, attempt), abortSignal);
    return true;
  }
  const reason = (error as Error)?.message ?? String(error);
  if (retryable) failEntries(run, remaining, 'retries-exhausted', `bulk request still failing after ${attempt} attempts: ${reason}`);
  else {
    failEntries(run, remaining, 'bulk-request-failed', reason);
    if (!run.stopped) run.problems.push({ code: 'stopped', message: `indexing stopped: a bulk request failed in a way retrying cannot fix (${reason})` });
    run.stopped = true;
  }
  run.requests += 1;
  reportProgress(run);
  return false;
}

/** Reads the items of a `_bulk` response: counts the indexed, fails the rejected, returns the ones to re-send. */
function readBulkItems(run: IndexingRun, remaining: readonly Entry[], items: readonly unknown[], attempt: number): Entry[] {
  const again: Entry[] = [];
  items.forEach((item: unknown, position) => {
    const entry = remaining[position] as Entry;
    const outcome = (item as Record<string, { status?: unknown; error?: { type?: unknown; reason?: unknown } } | undefined> | null)?.['index'];
    const status = typeof outcome?.status === 'number' ? outcome.status : 0;
    if (status >= 200 && status < 300 && outcome?.error === undefined) {
      run.indexed += 1;
      return;
    }
    const type = typeof outcome?.error?.type === 'string' ? outcome.error.type : undefined;
    if (isRetryableBulkItem(status, type)) {
      if (attempt < run.bulk.maxAttempts) again.push(entry);
      else failEntries(run, [entry], 'retries-exhausted', `still rejected after ${attempt} attempts (status ${status}${type ? `, ${type}` : ''})`);
      return;
    }
    const reason = typeof outcome?.error?.reason === 'string' ? outcome.error.reason : 'no reason given';
    failEntries(run, [entry], 'item-rejected', `status ${status}${type ? ` ${type}` : ''}: ${reason}`);
  });
  return again;
}

/** Sends one batch with `_bulk`, re-sending rejected items with backoff until they are indexed or out of attempts. */
async function sendBatch(run: IndexingRun, batch: readonly Entry[]): Promise<void> {
  const { adapter, index, bulk, abortSignal } = run;
  let remaining = batch;
  for (let attempt = 1; ; attempt++) {
    const operations: Record<string, unknown>[] = [];
    for (const entry of remaining) operations.push(entry.action, entry.source);
    let response: unknown;
    try {
      response = await adapter.call('bulk', { index }, operations, abortSignal);
    } catch (error) {
      if (await handleRequestFailure(run, remaining, attempt, error)) continue;
      return;
    }
    run.requests += 1;
    const items = (response as { items?: unknown } | null)?.items;
    if (!Array.isArray(items) || items.length !== remaining.length) {
      failEntries(run, remaining, 'malformed-bulk-response', `expected ${remaining.length} bulk items, got ${Array.isArray(items) ? items.length : 'none'}`);
      reportProgress(run);
      return;
    }
    const again = readBulkItems(run, remaining, items, attempt);
    reportProgress(run);
    if (again.length === 0) return;
    run.retried += again.length;
    await abortableDelay(backoff(bulk, attempt), abortSignal);
    remaining = again;
  }
}

/** Waits for a free slot, then sends the batch in the background (or fails it when indexing has stopped). */
async function launchBatch(run: IndexingRun, batch: Entry[]): Promise<void> {
  const { inFlight } = run;
  while (inFlight.size >= run.bulk.concurrency) await Promise.race(inFlight);
  run.abortSignal?.throwIfAborted();
  if (run.stopped) {
    failEntries(run, batch, 'bulk-request-failed', 'not sent: indexing stopped after an earlier request failed');
    return;
  }
  const pending: Promise<void> = sendBatch(run, batch).finally(() => inFlight.delete(pending));
  pending.catch(() => undefined);
  inFlight.add(pending);
}

/** One input document as a bulk entry, or undefined after recording why it cannot be sent (`invalid-document`). */
function toEntry(run: IndexingRun, document: Document, position: number): Entry | undefined {
  const problem = describeDocumentProblem(document);
  const id = typeof (document as Partial<Document> | null)?.id === 'string' ? (document as Document).id : undefined;
  if (problem !== undefined) {
    run.problems.push({ index: position, ...(id !== undefined ? { id } : {}), code: 'invalid-document', message: problem });
    run.failed += 1;
    return undefined;
  }
  const source: Record<string, unknown> = { id: document.id, text: document.text };
  if (document.title !== undefined) source['title'] = document.title;
  if (run.flat) source['contents'] = document.title ? `${document.title} ${document.text}` : document.text;
  if (document.source !== undefined) source['source'] = document.source;
  if (document.metadata !== undefined) source['metadata'] = document.metadata;
  const action = { index: { _index: run.index, _id: document.id } };
  let bytes: number;
  try {
    bytes = utf8Length(JSON.stringify(action)) + utf8Length(JSON.stringify(source)) + 2;
  } catch (error) {
    run.problems.push({ index: position, id: document.id, code: 'invalid-document', message: `not JSON-serialisable: ${(error as Error).message}` });
    run.failed += 1;
    return undefined;
  }
  return { position, id: document.id, action, source, bytes };
}

/** Reads the input into batches bounded by count and bytes, launching each as it closes; waits for all to settle. */
async function streamDocuments(run: IndexingRun, documents: Iterable<Document> | AsyncIterable<Document>): Promise<void> {
  const { bulk, abortSignal, inFlight } = run;
  let batch: Entry[] = [];
  let batchBytes = 0;
  try {
    for await (const document of toAsync(documents)) {
      abortSignal?.throwIfAborted();
      if (run.stopped) break;
      const position = run.read;
      run.read += 1;
      const entry = toEntry(run, document, position);
      if (entry === undefined) continue;
      if (batch.length > 0 && (batch.length >= bulk.batchSize || batchBytes + entry.bytes > bulk.maxBatchBytes)) {
        await launchBatch(run, batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push(entry);
      batchBytes += entry.bytes;
    }
    if (batch.length > 0) await launchBatch(run, batch);
    while (inFlight.size > 0) await Promise.race(inFlight);
  } catch (error) {
    // Abort (or a failing input iterator): wait for requests already sent so none outlives this call, then rethrow.
    await Promise.allSettled(inFlight);
    throw error;
  }
}

/** Refreshes the index so searches see the documents; false (with a `refresh-failed` problem) when that fails. */
async function refreshIndex(run: IndexingRun): Promise<boolean> {
  try {
    await run.adapter.call('indices.refresh', { index: run.index }, undefined, run.abortSignal);
    return true;
  } catch (error) {
    if (run.abortSignal?.aborted) throw run.abortSignal.reason;
    run.problems.push({ code: 'refresh-failed', message: (error as Error).message });
    return false;
  }
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
  const { adapter, index, flat, bulk, options, documents } = input;
  const { abortSignal, onProgress, refresh = true } = options;
  if (documents === null || typeof documents !== 'object' || !(Symbol.iterator in documents || Symbol.asyncIterator in documents)) {
    throw new InvalidArgumentError({ where: 'SearchClusterRetriever.indexDocuments', argument: 'documents', message: 'must be an iterable or async iterable of documents' });
  }
  abortSignal?.throwIfAborted();
  const run: IndexingRun = { adapter, index, flat, bulk, abortSignal, onProgress, problems: [], inFlight: new Set(), read: 0, indexed: 0, failed: 0, retried: 0, requests: 0, stopped: false };
  await streamDocuments(run, documents);
  let complete = !run.stopped;
  if (refresh && run.indexed > 0 && !(await refreshIndex(run))) complete = false;
  reportProgress(run);
  const { read, indexed, failed, retried, requests, problems } = run;
  return { read, indexed, failed, retried, requests, problems, complete };
}
