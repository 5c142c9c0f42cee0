// Worker entry of the BM25 worker pool: scores prepared queries over postings shared through SharedArrayBuffers.
// Requests and responses are packed into typed arrays (transferred, not cloned object by object): structured
// cloning thousands of small list objects per batch cost more than scoring them.
import { parentPort } from 'node:worker_threads';
import type { Bm25Strategy } from './bm25-index.js';
import { type DenseMirror, createDenseMirror } from './kernel/dense-mirror.js';
import { type KernelField, type KernelHits, type KernelList, type KernelParameters, createKernelScratch, searchAuto, searchExhaustive, searchMaxScore, searchPrunedTaat } from './search-kernel.js';

/** Numbers per packed list: field, start, end, weight, upperBound, impacts (0/1), kthLowerBound (NaN = none). */
export const PACKED_LIST_SIZE = 7;

export interface WorkerRequest {
  readonly id: number;
  readonly kernelFields: KernelField[];
  readonly documentCount: number;
  /** The scoring state the lists point into: the worker rebuilds its WebAssembly copy of the postings when it changes. */
  readonly stateId: number;
  /** Whether the index keeps a WebAssembly copy of its postings (then this thread keeps its own). */
  readonly mirror: boolean;
  readonly strategy: Bm25Strategy;
  readonly topK: number;
  readonly parameters: KernelParameters;
  /** Per query: list count, then PACKED_LIST_SIZE numbers per list. */
  readonly packed: Float64Array;
  readonly queryCount: number;
}

export interface WorkerResponse {
  readonly id: number;
  /** Hits per query; docs/scores hold them back to back, best first. */
  readonly counts?: Int32Array;
  readonly docs?: Int32Array;
  readonly scores?: Float64Array;
  readonly scoredPostings?: Float64Array;
  readonly error?: string;
}

/** Packs prepared queries' lists for a request. */
export function packLists(queries: ReadonlyArray<readonly KernelList[]>): Float64Array {
  let size = 0;
  for (const lists of queries) size += 1 + lists.length * PACKED_LIST_SIZE;
  const packed = new Float64Array(size);
  let offset = 0;
  for (const lists of queries) {
    packed[offset++] = lists.length;
    for (const list of lists) {
      packed[offset++] = list.field;
      packed[offset++] = list.start;
      packed[offset++] = list.end;
      packed[offset++] = list.weight;
      packed[offset++] = list.upperBound;
      packed[offset++] = list.impacts ? 1 : 0;
      packed[offset++] = list.kthLowerBound ?? Number.NaN;
    }
  }
  return packed;
}

const scratch = createKernelScratch();
/** This thread's WebAssembly copy of the current scoring state's postings (one state at a time). */
let cachedMirror: { stateId: number; mirror: DenseMirror | null } | undefined;
const mirrorFor = (request: WorkerRequest): DenseMirror | null => {
  if (!request.mirror) return null;
  if (cachedMirror?.stateId !== request.stateId) cachedMirror = { stateId: request.stateId, mirror: createDenseMirror(request.kernelFields, request.documentCount) };
  return cachedMirror.mirror;
};

function handle(request: WorkerRequest): WorkerResponse {
  const { packed, queryCount, kernelFields, parameters, documentCount, topK, strategy } = request;
  const results: KernelHits[] = [];
  const mirror = strategy === 'auto' || strategy === 'exhaustive' ? mirrorFor(request) : null;
  let offset = 0;
  let total = 0;
  for (let query = 0; query < queryCount; query++) {
    const listCount = packed[offset++] as number;
    const lists: KernelList[] = [];
    for (let index = 0; index < listCount; index++) {
      const list: KernelList = {
        field: packed[offset] as number,
        start: packed[offset + 1] as number,
        end: packed[offset + 2] as number,
        weight: packed[offset + 3] as number,
        upperBound: packed[offset + 4] as number,
        impacts: packed[offset + 5] === 1,
      };
      const kthLowerBound = packed[offset + 6] as number;
      lists.push(Number.isNaN(kthLowerBound) ? list : { ...list, kthLowerBound });
      offset += PACKED_LIST_SIZE;
    }
    const hits =
      lists.length === 0
        ? { docs: new Int32Array(0), scores: new Float64Array(0), scoredPostings: 0 }
        : strategy === 'exhaustive'
          ? searchExhaustive(kernelFields, lists, parameters, documentCount, topK, scratch, mirror)
          : strategy === 'maxscore-daat'
            ? searchMaxScore(kernelFields, lists, parameters, topK)
            : strategy === 'auto'
              ? searchAuto(kernelFields, lists, parameters, documentCount, topK, scratch, mirror)
              : searchPrunedTaat(kernelFields, lists, parameters, documentCount, topK, scratch);
    results.push(hits);
    total += hits.docs.length;
  }
  const counts = new Int32Array(queryCount);
  const docs = new Int32Array(total);
  const scores = new Float64Array(total);
  const scoredPostings = new Float64Array(queryCount);
  let write = 0;
  results.forEach((hits, query) => {
    counts[query] = hits.docs.length;
    scoredPostings[query] = hits.scoredPostings;
    docs.set(hits.docs, write);
    scores.set(hits.scores, write);
    write += hits.docs.length;
  });
  return { id: request.id, counts, docs, scores, scoredPostings };
}

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    const response = handle(request);
    parentPort?.postMessage(response, [
      (response.counts as Int32Array).buffer as ArrayBuffer,
      (response.docs as Int32Array).buffer as ArrayBuffer,
      (response.scores as Float64Array).buffer as ArrayBuffer,
      (response.scoredPostings as Float64Array).buffer as ArrayBuffer,
    ]);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerResponse);
  }
});
