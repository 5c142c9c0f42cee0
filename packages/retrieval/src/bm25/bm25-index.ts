import type { Document, WeightedTerm } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import type { Analyzer } from '../analysis/analyzer.js';
import type { Bm25Parameters, Bm25Variant } from './bm25-scoring.js';
import { explainDocument } from './explain.js';
import { type ForwardIndex, buildForwardIndex, readTermFrequencies } from './forward-index.js';
import { attachIndexState } from './index-state.js';
import { type ResolvedIndexOptions, resolveIndexOptions, resolveSearchParameters, validateTopK } from './index-options.js';
import { createPostingsStore, type PostingsStore } from './postings-store.js';
import { type PreparedQuery, analyzeQueryText, prepareQuery, toTermWeights } from './query-preparation.js';
import { type ScoringStatistics, IMPACTS_AUTO_MAX_POSTINGS, computeScoringStatistics, scoringKey } from './scoring-statistics.js';
import { createKernelScratch, type KernelScratch } from './search-kernel.js';
import { runSearchStrategy, toSearchResult } from './search-strategies.js';
import type { RetrievalProblem } from '../problem-codes.js';

export { IMPACTS_AUTO_MAX_POSTINGS };

/**
 * Which document parts are indexed: `'flat'` = title and text concatenated into one field (Anserini's BEIR "flat"
 * index), or a weight per named field. `title` and `text` are the document's own; any other name (`questions`,
 * `chunk`, …) is read with the `fieldText` option.
 */
export type Bm25FieldWeights = 'flat' | Readonly<Record<string, number>>;

export interface Bm25IndexOptions {
  /** @default createEnglishAnalyzer() (Lucene's English analysis, as Anserini) */
  readonly analyzer?: Analyzer;
  /**
   * `'flat'`, or per-field weights such as `{ title: 2, text: 1 }` or `{ title: 1, questions: 1, chunk: 1 }` (each field
   * gets its own length statistics; score = Σ weight × BM25 of the field). @default 'flat'
   */
  readonly fields?: Bm25FieldWeights;
  /**
   * The text of a named field of a document. Without it `title` and `text` are the document's own and other names are
   * an error. Not saved with the index: pass it again to add documents to a loaded index with such fields.
   */
  readonly fieldText?: (document: Document, field: string) => string;
  /** @default 0.9 */
  readonly k1?: number;
  /** @default 0.4 */
  readonly b?: number;
  /** @default 'lucene' */
  readonly variant?: Bm25Variant;
  /** δ for BM25+ / BM25L. @default 1 for bm25+, 0.5 for bm25l */
  readonly delta?: number;
  /** @default 'lucene' for the lucene variant, 'exact' otherwise */
  readonly lengthEncoding?: 'lucene' | 'exact';
  /** Keep each document (id, title, text, metadata) so retrievers can return its text. @default true */
  readonly storeDocuments?: boolean;
  /**
   * Precompute every posting's exact Lucene score contribution (4 bytes per posting) so a scan is one load and one add.
   * `'auto'` does it for fields with at most 8,000,000 postings, where it pays most and costs
   * little memory; large collections keep the smaller index and rely on MaxScore pruning. Results are identical either way.
   * @default 'auto'
   */
  readonly precomputeImpacts?: 'auto' | boolean;
  /**
   * Documents added since the last merge are buffered (about 5 bytes per posting) and merged into the compact arrays
   * before the next read; once this many postings are pending, `addDocuments` merges them at once, so building a large
   * index never holds more than this many pending postings beside it (a 5,000,000-document build without it would
   * buffer all 254M postings, 1.3 GB, until the first search). Merges move the existing postings in place, so a lower
   * value costs build time (more merges), not memory. `Infinity` merges only before reads.
   * @default 8388608 (2²³ postings, ~42 MB)
   */
  readonly mergePendingAt?: number;
}

/** A query as weighted, already-analysed index terms (what RM3 produces; `text` queries become this too). */
export interface Bm25Query {
  readonly terms: readonly Bm25WeightedTerm[];
}

/**
 * An index term (analyser output, e.g. `'cell'`) with a boost; a term repeated n times in a text query gets n
 * (Anserini's bag-of-words query, = Lucene summing n clauses). The same shape as core's `WeightedTerm`.
 */
export type Bm25WeightedTerm = WeightedTerm;

/** Query evaluation strategies (identical results, different speed). */
export type Bm25Strategy = 'auto' | 'maxscore' | 'maxscore-daat' | 'exhaustive';

export const BM25_STRATEGIES: readonly Bm25Strategy[] = ['auto', 'maxscore', 'maxscore-daat', 'exhaustive'];

export interface Bm25SearchOptions {
  /** @default 10 */
  readonly topK?: number;
  /**
   * How the query is evaluated; all give identical hits. `'auto'`: `'exhaustive'` when the query has few postings
   * (≤ 16,384) or the collection is small (≤ 16,384 documents), `'maxscore'` otherwise; `'maxscore'`: term-at-a-time MaxScore (pruned);
   * `'maxscore-daat'`: document-at-a-time MaxScore; `'exhaustive'`: every posting scored. @default 'auto'
   */
  readonly strategy?: Bm25Strategy;
  /** Override the index's k1/b for this search. */
  readonly k1?: number;
  readonly b?: number;
}

export interface Bm25Hit {
  readonly id: string;
  /** Raw BM25 score (sum over query terms and fields). */
  readonly score: number;
  /** score ÷ the highest score any document could reach for this query (sum of per-term maxima), in [0, 1]. */
  readonly normalizedScore: number;
  /** 1-based. */
  readonly rank: number;
}

export interface Bm25SearchResult {
  readonly hits: Bm25Hit[];
  /** e.g. code `no-searchable-terms` (the query analysed to nothing). */
  readonly problems: RetrievalProblem[];
  /** Postings scored (work done; pruning lowers it). */
  readonly scoredPostings: number;
}

export interface Bm25TermExplanation {
  readonly term: string;
  readonly field: string;
  readonly tf: number;
  readonly df: number;
  readonly idf: number;
  readonly documentLength: number;
  /** Length as the scorer saw it (Lucene's one-byte encoding is lossy above 23). */
  readonly scoredLength: number;
  readonly averageLength: number;
  /** query weight × field weight. */
  readonly boost: number;
  readonly score: number;
}

export interface Bm25Explanation {
  readonly id: string;
  readonly score: number;
  readonly terms: Bm25TermExplanation[];
}

export interface AddDocumentsOptions {
  /** What to do with an id that is already indexed (or repeated in the batch). `'error'` rejects the whole batch before adding anything. @default 'error' */
  readonly onDuplicate?: 'error' | 'skip' | 'replace';
}

export interface AddDocumentsResult {
  readonly added: number;
  /** Items skipped (duplicates under 'skip', or invalid documents under 'skip'/'replace'), with reasons. */
  readonly problems: RetrievalProblem[];
}

export interface Bm25IndexStatistics {
  readonly documentCount: number;
  readonly vocabularySize: number;
  readonly postingCount: number;
  readonly fields: ReadonlyArray<{ name: string; weight: number; averageLength: number; documentsWithField: number }>;
  /** Bytes held by typed arrays (postings, offsets, lengths, factors, impacts, bounds) and the WebAssembly copy of a small index's postings. */
  readonly typedArrayBytes: number;
  /**
   * Of those, bytes in SharedArrayBuffers (what worker threads share without copies). Some memory figures miss them
   * (`process.memoryUsage().external`, or `arrayBuffers` read in a worker), so benchmarks add them from here.
   */
  readonly sharedArrayBufferBytes: number;
  /**
   * Spare room behind the postings arrays, reserved so later additions merge in place: address space that
   * `process.memoryUsage().arrayBuffers` counts but the process only makes resident once written. Not included in
   * `typedArrayBytes`.
   */
  readonly reservedBytes: number;
}

/** The in-memory BM25 index. Create with {@link createBm25Index}. */
export interface Bm25Index {
  readonly analyzer: Analyzer;
  readonly parameters: Bm25Parameters;
  readonly fieldNames: readonly string[];
  readonly fieldWeights: readonly number[];
  readonly documentCount: number;
  addDocuments(documents: Iterable<Document>, options?: AddDocumentsOptions): AddDocumentsResult;
  addDocument(document: Document, options?: AddDocumentsOptions): AddDocumentsResult;
  /** Removes a document; returns false when the id is unknown. Statistics (df, avgdl) are exact after removal. */
  removeDocument(id: string): boolean;
  hasDocument(id: string): boolean;
  getDocument(id: string): Document | undefined;
  /** Text → weighted terms: the analyser's terms, each weighted by how often it occurs. */
  analyzeQuery(text: string): Bm25Query;
  search(query: string | Bm25Query, options?: Bm25SearchOptions): Bm25SearchResult;
  searchBatch(queries: readonly (string | Bm25Query)[], options?: Bm25SearchOptions): Bm25SearchResult[];
  explain(query: string | Bm25Query, id: string, options?: Pick<Bm25SearchOptions, 'k1' | 'b'>): Bm25Explanation | undefined;
  /** Document frequency of an index term in a field (default: the first field). */
  documentFrequency(term: string, field?: string): number;
  /** Term → frequency of one indexed document (from the postings; used by RM3). */
  documentTermFrequencies(id: string): Map<string, number>;
  statistics(): Bm25IndexStatistics;
}

/**
 * Collection statistics for given parameters over the current postings (compacting first), cached until the parameters
 * or the postings change. `current` is the last one computed (explain reads it after a prepare).
 */
interface ScoringCache {
  get(resolved: Bm25Parameters): ScoringStatistics;
  readonly current: ScoringStatistics | undefined;
  reset(): void;
}

function createScoringCache(postings: PostingsStore, fieldWeights: readonly number[], precomputeImpacts: ResolvedIndexOptions['precomputeImpacts']): ScoringCache {
  let scoring: ScoringStatistics | undefined;
  let scoringVersion = -1;
  let scoringK1 = Number.NaN;
  let scoringB = Number.NaN;
  return {
    get(resolved) {
      postings.compact();
      // Per-search fast path: same parameters and postings as the cached state (no key string built).
      if (scoring && scoringVersion === postings.version && scoringK1 === resolved.k1 && scoringB === resolved.b) return scoring;
      const key = scoringKey(resolved, postings.version);
      if (!scoring || scoring.key !== key) {
        scoring = computeScoringStatistics({
          fields: postings.fields,
          documentCount: postings.compactedCount,
          vocabularySize: postings.terms.length,
          fieldWeights,
          parameters: resolved,
          precomputeImpacts,
          key,
        });
      }
      scoringVersion = postings.version;
      scoringK1 = resolved.k1;
      scoringB = resolved.b;
      return scoring;
    },
    get current() {
      return scoring;
    },
    reset() {
      scoring = undefined;
    },
  };
}

/** Runs one search with a strategy and materialises only the hits' ids. */
function runIndexSearch(postings: PostingsStore, prepared: PreparedQuery, strategy: Bm25Strategy, topK: number, scratch: KernelScratch): Bm25SearchResult {
  if (prepared.lists.length === 0) return { hits: [], problems: prepared.problems, scoredPostings: 0 };
  const hits = runSearchStrategy(strategy, prepared, topK, scratch);
  // Only the hits' ids are materialised (the ids live in one buffer): hits renumbered 0 … n − 1 against them.
  const hitIds = new Array<string>(hits.docs.length);
  const positions = new Int32Array(hits.docs.length);
  for (let rank = 0; rank < hits.docs.length; rank++) {
    hitIds[rank] = postings.ids.at(hits.docs[rank] as number);
    positions[rank] = rank;
  }
  return toSearchResult({ docs: positions, scores: hits.scores, scoredPostings: hits.scoredPostings }, prepared, hitIds);
}

function documentFrequencyOf(postings: PostingsStore, fieldNames: readonly string[], term: string, field?: string): number {
  postings.compact();
  const fieldIndex = field === undefined ? 0 : fieldNames.indexOf(field);
  if (fieldIndex < 0) throw new InvalidArgumentError({ where: 'Bm25Index.documentFrequency', argument: 'field', message: `is not an indexed field (${fieldNames.join(', ')})` });
  const termId = postings.termIds.get(term);
  if (termId === undefined) return 0;
  const offsets = (postings.fields[fieldIndex] as { termOffsets: Uint32Array }).termOffsets;
  return termId + 1 < offsets.length ? (offsets[termId + 1] as number) - (offsets[termId] as number) : 0;
}

/** Counts, field statistics and the bytes held by the postings and the scoring state. */
function measureIndex(postings: PostingsStore, state: ScoringStatistics, fieldNames: readonly string[], fieldWeights: readonly number[]): Bm25IndexStatistics {
  let typedArrayBytes = 0;
  let sharedArrayBufferBytes = 0;
  let reservedBytes = 0;
  let postingCount = 0;
  const count = (array: ArrayBufferView | undefined): void => {
    if (array === undefined) return;
    typedArrayBytes += array.byteLength;
    if (typeof SharedArrayBuffer === 'function' && array.buffer instanceof SharedArrayBuffer) sharedArrayBufferBytes += array.byteLength;
  };
  /** Room behind an array that owns its buffer (grown in place by later merges). */
  const reserve = (array: ArrayBufferView): void => {
    if (array.byteOffset === 0) reservedBytes += array.buffer.byteLength - array.byteLength;
  };
  for (const field of postings.fields) {
    count(field.termOffsets);
    count(field.postingDocs);
    count(field.postingTfs);
    count(field.lengths);
    reserve(field.postingDocs);
    reserve(field.postingTfs);
    reserve(field.lengths);
    postingCount += field.postingDocs.length;
  }
  for (const field of state.kernelFields) {
    count(field.documentFactors);
    count(field.impacts);
    count(field.blockMaxKeys);
  }
  for (const keys of state.maxKeys) count(keys);
  for (const keys of state.kthKeys) count(keys);
  if (state.denseMirror) typedArrayBytes += state.denseMirror.byteLength;
  return {
    documentCount: postings.compactedCount,
    vocabularySize: postings.terms.length,
    postingCount,
    fields: fieldNames.map((name, index) => ({
      name,
      weight: fieldWeights[index] as number,
      averageLength: state.averageLengths[index] as number,
      documentsWithField: state.documentsWithField[index] as number,
    })),
    typedArrayBytes,
    sharedArrayBufferBytes,
    reservedBytes,
  };
}

/** The internal view of an index (serialization, RM3, the worker pool): postings compacted on every read. */
function indexStateOf(postings: PostingsStore, prepare: (query: string | Bm25Query, searchOptions?: Bm25SearchOptions) => PreparedQuery, onRestore: () => void): Parameters<typeof attachIndexState>[1] {
  return {
    compact: () => postings.compact(),
    get terms() {
      postings.compact();
      return postings.terms;
    },
    get ids() {
      postings.compact();
      return postings.ids;
    },
    get fields() {
      postings.compact();
      return postings.fields;
    },
    get documents() {
      postings.compact();
      return postings.documents;
    },
    prepare: (query, searchOptions) => prepare(query, searchOptions),
    retain: () => postings.retain(),
    restore: (snapshot) => {
      postings.restore(snapshot);
      onRestore();
    },
  };
}

/**
 * Creates an empty BM25 index (Lucene/Anserini scoring by default) and optionally fills it.
 * Postings live in compact typed arrays; additions are buffered and merged on the next search.
 * The work is split by job: options (`index-options.ts`), postings (`postings-store.ts`), collection statistics
 * (`scoring-statistics.ts`, cached by `createScoringCache`), query preparation (`query-preparation.ts`), evaluation
 * strategies (`search-strategies.ts` over `search-kernel.ts`, run by `runIndexSearch`), explanations, the forward
 * index and `measureIndex`.
 * @throws InvalidArgumentError for out-of-range k1, b, delta, unknown variants or fields.
 * @example const index = createBm25Index({ documents: [{ id: 'a', text: 'Cats purr.' }] }); index.search('cat')
 */
export function createBm25Index(options: Bm25IndexOptions & { documents?: Iterable<Document> } = {}): Bm25Index {
  const { analyzer, fieldNames, fieldWeights, flat, parameters, storeDocuments, precomputeImpacts, mergePendingAt } = resolveIndexOptions(options);
  const postings = createPostingsStore({ analyzer, fieldNames, flat, storeDocuments, mergePendingAt, ...(options.fieldText === undefined ? {} : { fieldText: options.fieldText }) });
  const scratch = createKernelScratch();
  const scoring = createScoringCache(postings, fieldWeights, precomputeImpacts);
  let forward: { index: ForwardIndex; version: number } | undefined;

  const prepare = (query: string | Bm25Query, searchOptions: Bm25SearchOptions = {}, where = 'Bm25Index.search'): PreparedQuery => {
    const resolved = searchOptions.k1 === undefined && searchOptions.b === undefined ? parameters : resolveSearchParameters(parameters, searchOptions, where);
    const weights = toTermWeights(analyzer, query, where);
    const statistics = scoring.get(resolved);
    return prepareQuery({ weights, statistics, termIds: postings.termIds, documentCount: postings.compactedCount, fieldWeights });
  };

  const search = (query: string | Bm25Query, searchOptions: Bm25SearchOptions = {}): Bm25SearchResult => {
    const where = 'Bm25Index.search';
    const topK = validateTopK(searchOptions.topK, where);
    const strategy = searchOptions.strategy ?? 'auto';
    if (strategy !== 'auto' && !BM25_STRATEGIES.includes(strategy)) throw new InvalidArgumentError({ where, argument: 'strategy', message: `must be one of ${BM25_STRATEGIES.join(', ')} (got ${String(strategy)})` });
    return runIndexSearch(postings, prepare(query, searchOptions, where), strategy, topK, scratch);
  };

  const index: Bm25Index = {
    analyzer,
    parameters,
    fieldNames,
    fieldWeights,
    get documentCount() {
      return postings.liveCount;
    },
    addDocuments: (documents, addOptions) => postings.addDocuments(documents, addOptions),
    addDocument: (document, addOptions) => postings.addDocuments([document], addOptions),
    removeDocument: (id) => postings.removeDocument(id),
    hasDocument: (id) => postings.idToDoc.has(id),
    getDocument: (id) => {
      const doc = postings.idToDoc.get(id);
      const documents = postings.documents;
      return doc === undefined || !documents ? undefined : documents[doc];
    },
    analyzeQuery: (text) => analyzeQueryText(analyzer, text),
    search,
    searchBatch: (queries, searchOptions) => {
      if (!Array.isArray(queries)) throw new InvalidArgumentError({ where: 'Bm25Index.searchBatch', argument: 'queries', message: 'must be an array' });
      return queries.map((query) => search(query, searchOptions));
    },
    explain: (query, id, overrides = {}) => {
      const prepared = prepare(query, overrides, 'Bm25Index.explain');
      const doc = postings.idToDoc.get(id);
      if (doc === undefined) return undefined;
      return explainDocument({ id, doc, prepared, statistics: scoring.current as ScoringStatistics, fields: postings.fields, fieldNames });
    },
    documentFrequency: (term, field) => documentFrequencyOf(postings, fieldNames, term, field),
    // Forward index (doc → terms), built on first use (RM3) from the postings; rebuilt after a change.
    documentTermFrequencies: (id) => {
      postings.compact();
      const doc = postings.idToDoc.get(id);
      if (doc === undefined) return new Map();
      if (!forward || forward.version !== postings.version) forward = { index: buildForwardIndex(postings.fields, postings.compactedCount), version: postings.version };
      return readTermFrequencies(forward.index, postings.terms, doc);
    },
    statistics: () => measureIndex(postings, scoring.get(resolveSearchParameters(parameters)), fieldNames, fieldWeights),
  };
  attachIndexState(
    index,
    indexStateOf(postings, prepare, () => {
      scoring.reset();
      forward = undefined;
    }),
  );
  if (options.documents !== undefined) postings.addDocuments(options.documents);
  return index;
}
