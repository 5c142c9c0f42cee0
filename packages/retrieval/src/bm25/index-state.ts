import type { Document } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import type { Bm25Index, Bm25Query, Bm25SearchOptions } from './bm25-index.js';
import type { DocIdStore } from './doc-id-store.js';
import type { CompactedField, PostingsSnapshot } from './postings-store.js';
import type { PreparedQuery } from './query-preparation.js';

/**
 * What serialization, file loading and the worker pool need from an index beyond its public methods. Kept off the
 * public object (looked up by identity), so it is not part of the package's API.
 */
export interface Bm25IndexState {
  /** Merges pending additions and removals into the compact arrays. */
  compact(): void;
  /** The following read the compacted state (compacting first). */
  readonly terms: string[];
  readonly ids: DocIdStore;
  readonly fields: CompactedField[];
  readonly documents: (Document | undefined)[] | undefined;
  /** Resolves a query to kernel lists + scoring state (what the worker threads score). */
  prepare(query: string | Bm25Query, options?: Bm25SearchOptions): PreparedQuery;
  /** Replaces the whole compacted state (deserialization). */
  restore(snapshot: PostingsSnapshot): void;
  /** Keeps compaction from merging in place while asynchronous readers (worker batches) use the arrays; call the release. */
  retain(): () => void;
}

const states = new WeakMap<object, Bm25IndexState>();

export function attachIndexState(index: Bm25Index, state: Bm25IndexState): void {
  states.set(index, state);
}

/** @throws InvalidArgumentError when `index` was not made by `createBm25Index` (or a loader built on it). */
export function getIndexState(index: Bm25Index, where: string): Bm25IndexState {
  const state = typeof index === 'object' && index !== null ? states.get(index) : undefined;
  if (!state) throw new InvalidArgumentError({ where, argument: 'index', message: 'must be a Bm25Index made by createBm25Index or a factkit loader' });
  return state;
}
