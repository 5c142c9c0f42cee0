import type { Document, DocumentSource, Evidence, ItemProblem, RetrieveRequest, Retriever } from '@factkit/core';
import { evidenceOrigin, InvalidArgumentError, ResponseParseError } from '@factkit/core';
import { buildSearchRequest } from './build-search-request.js';
import { type IndexDocumentsOptions, type IndexDocumentsResult, resolveBulkOptions, runBulkIndexing } from './bulk-indexer.js';
import { type IndexDefinition, FACTKIT_BM25_B, FACTKIT_BM25_K1, SEARCH_CLUSTER_NAMES, buildIndexDefinition, resolveFields } from './index-definition.js';
import { type SearchClusterFlavor, createClusterAdapter } from './search-cluster-client.js';
import type { SearchClusterProblemCode, SearchClusterRetrieverOptions } from './search-cluster-options.js';

export interface EnsureIndexResult {
  /** True when this call created the index. */
  readonly created: boolean;
  /** `index-settings-mismatch` when an existing index was built with other BM25 or analysis settings. */
  readonly problems: ItemProblem<SearchClusterProblemCode>[];
}

/** A core `Retriever` over an OpenSearch / Elasticsearch index, with the calls that create and fill the index. */
export interface SearchClusterRetriever extends Retriever<SearchClusterProblemCode> {
  readonly index: string;
  readonly flavor: SearchClusterFlavor;
  /** The settings and mappings `ensureIndex` creates the index with. */
  readonly definition: IndexDefinition;
  /** Creates the index with `definition` unless it exists; checks an existing index's BM25 and analyzer settings. */
  ensureIndex(options?: { readonly abortSignal?: AbortSignal }): Promise<EnsureIndexResult>;
  /**
   * Streams documents into the index with `_bulk`: batches bounded by count and bytes, at most `concurrency` requests in
   * flight (the input is read only as slots free up), rejected items (429, `*rejected_execution_exception`) retried with
   * exponential backoff up to `maxAttempts`. Never throws over one document: per-document problems are in the result.
   * @throws the abort reason, unchanged, when `abortSignal` fires (documents already acknowledged stay indexed).
   */
  indexDocuments(documents: Iterable<Document> | AsyncIterable<Document>, options?: IndexDocumentsOptions): Promise<IndexDocumentsResult>;
  /** Deletes the index (for tests and rebuilds); `deleted: false` when it did not exist. */
  deleteIndex(options?: { readonly abortSignal?: AbortSignal }): Promise<{ readonly deleted: boolean }>;
}

function readSettingNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

function compareExistingIndex(response: unknown, definition: IndexDefinition): ItemProblem<SearchClusterProblemCode>[] {
  const entry = typeof response === 'object' && response !== null ? Object.values(response as Record<string, unknown>)[0] : undefined;
  const settings = (entry as { settings?: { index?: Record<string, unknown> } } | undefined)?.settings?.index;
  const expected = definition.settings['index'] as { similarity: Record<string, { k1: number; b: number }>; analysis: { analyzer: Record<string, { filter: string[] }> } };
  const differences: string[] = [];
  const similarity = (settings?.['similarity'] as Record<string, { k1?: unknown; b?: unknown }> | undefined)?.[SEARCH_CLUSTER_NAMES.similarity];
  const wanted = expected.similarity[SEARCH_CLUSTER_NAMES.similarity] as { k1: number; b: number };
  if (!similarity) differences.push(`no "${SEARCH_CLUSTER_NAMES.similarity}" similarity`);
  else {
    if (readSettingNumber(similarity.k1) !== wanted.k1) differences.push(`k1 ${String(similarity.k1)} ≠ ${wanted.k1}`);
    if (readSettingNumber(similarity.b) !== wanted.b) differences.push(`b ${String(similarity.b)} ≠ ${wanted.b}`);
  }
  const analyzer = ((settings?.['analysis'] as { analyzer?: Record<string, { filter?: unknown }> } | undefined)?.analyzer ?? {})[SEARCH_CLUSTER_NAMES.analyzer];
  const wantedFilters = (expected.analysis.analyzer[SEARCH_CLUSTER_NAMES.analyzer] as { filter: string[] }).filter;
  if (!analyzer) differences.push(`no "${SEARCH_CLUSTER_NAMES.analyzer}" analyzer`);
  else if (JSON.stringify(analyzer.filter) !== JSON.stringify(wantedFilters)) differences.push(`analyzer filters ${JSON.stringify(analyzer.filter)} ≠ ${JSON.stringify(wantedFilters)}`);
  const filters = (settings?.['analysis'] as { filter?: Record<string, Record<string, unknown>> } | undefined)?.filter ?? {};
  const expectedFilters = (expected.analysis as unknown as { filter: Record<string, Record<string, unknown>> }).filter;
  for (const name of [SEARCH_CLUSTER_NAMES.possessiveFilter, SEARCH_CLUSTER_NAMES.stopFilter]) {
    const actual = filters[name];
    const wantedFilter = expectedFilters[name] as Record<string, unknown>;
    if (!actual) differences.push(`no "${name}" filter`);
    else if (name === SEARCH_CLUSTER_NAMES.stopFilter && JSON.stringify(actual['stopwords']) !== JSON.stringify(wantedFilter['stopwords']))
      differences.push(`stop words differ (${Array.isArray(actual['stopwords']) ? actual['stopwords'].length : 'none'} vs ${(wantedFilter['stopwords'] as string[]).length})`);
    else if (name === SEARCH_CLUSTER_NAMES.possessiveFilter && actual['language'] !== wantedFilter['language']) differences.push(`${name} language ${String(actual['language'])} ≠ ${String(wantedFilter['language'])}`);
  }
  const properties = (entry as { mappings?: { properties?: Record<string, unknown> } } | undefined)?.mappings?.properties ?? {};
  const wantedProperties = (definition.mappings['properties'] ?? {}) as Record<string, { index?: boolean }>;
  for (const field of ['contents', 'title', 'text'] as const) {
    const wantedField = wantedProperties[field];
    if (!wantedField || wantedField.index === false) continue;
    const actual = properties[field] as { analyzer?: unknown; similarity?: unknown } | undefined;
    if (actual?.analyzer !== SEARCH_CLUSTER_NAMES.analyzer || actual?.similarity !== SEARCH_CLUSTER_NAMES.similarity)
      differences.push(`field "${field}" is not mapped with ${SEARCH_CLUSTER_NAMES.analyzer} / ${SEARCH_CLUSTER_NAMES.similarity}`);
  }
  return differences.length === 0 ? [] : [{ code: 'index-settings-mismatch', message: `the existing index differs from this retriever's definition: ${differences.join('; ')}` }];
}

function toEvidence(hit: unknown, rank: number): Evidence {
  const record = (typeof hit === 'object' && hit !== null ? hit : {}) as { _id?: unknown; _score?: unknown; sort?: unknown; _source?: Record<string, unknown> };
  const source = record._source ?? {};
  const documentId = typeof source['id'] === 'string' ? source['id'] : record._id;
  const score = typeof record._score === 'number' ? record._score : Array.isArray(record.sort) ? record.sort[0] : undefined;
  if (typeof documentId !== 'string' || typeof score !== 'number' || !Number.isFinite(score)) {
    throw new ResponseParseError({ message: `SearchClusterRetriever.retrieve: hit ${rank} has no string id or finite score`, raw: JSON.stringify(hit)?.slice(0, 2000) ?? '' });
  }
  const metadata = source['metadata'];
  const title = typeof source['title'] === 'string' && source['title'].length > 0 ? source['title'] : undefined;
  const stored = source['source'] as { name?: unknown } | null | undefined;
  const documentSource = typeof stored === 'object' && stored !== null && typeof stored.name === 'string' ? (stored as DocumentSource) : undefined;
  return {
    documentId,
    text: typeof source['text'] === 'string' ? source['text'] : '',
    score,
    rank,
    origin: evidenceOrigin({ id: documentId, ...(title === undefined ? {} : { title }), ...(documentSource === undefined ? {} : { source: documentSource }) }),
    ...(typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? { metadata: metadata as Record<string, unknown> } : {}),
  };
}

/**
 * Creates a core `Retriever` backed by an OpenSearch or Elasticsearch index, scoring like `@factkit/retrieval`'s BM25
 * (Lucene BM25 at k1 0.9, b 0.4 and Lucene's English analysis, set in the index settings by `ensureIndex`).
 * Understands `query.weightedTerms` (RM3): those analysed terms are searched at their weights instead of `query.text`.
 * @throws InvalidArgumentError for a missing client or index name, an unknown flavor, or bad BM25/bulk options.
 * @example
 * const retriever = createSearchClusterRetriever({ client: new Client({ node: 'http://localhost:9200' }), index: 'scifact' });
 * await retriever.ensureIndex(); await retriever.indexDocuments(documents);
 * const { evidence } = await retriever.retrieve({ query: { text: 'vitamin d' }, topK: 10 });
 */
export function createSearchClusterRetriever(options: SearchClusterRetrieverOptions): SearchClusterRetriever {
  const where = 'createSearchClusterRetriever';
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object with client and index' });
  const { client, index, flavor: flavorOption, searchType: searchTypeOption, k1 = FACTKIT_BM25_K1, b = FACTKIT_BM25_B, fields = 'flat' } = options;
  if (typeof index !== 'string' || index.length === 0 || index !== index.toLowerCase() || /[\\/*?"<>| ,#:]/.test(index) || /^[-_+.]/.test(index)) {
    throw new InvalidArgumentError({ where, argument: 'index', message: `must be a non-empty lower-case index name without \\ / * ? " < > | , # : space, not starting with - _ + . (got ${JSON.stringify(index)})` });
  }
  if (searchTypeOption !== undefined && searchTypeOption !== 'query_then_fetch' && searchTypeOption !== 'dfs_query_then_fetch') {
    throw new InvalidArgumentError({ where, argument: 'searchType', message: `must be 'query_then_fetch' or 'dfs_query_then_fetch' (got ${String(searchTypeOption)})` });
  }
  const definition = buildIndexDefinition(options);
  const resolvedFields = resolveFields(fields, where);
  const bulk = resolveBulkOptions(options, where);
  const adapter = createClusterAdapter(client, flavorOption, where);
  const searchType = searchTypeOption ?? ((options.numberOfShards ?? 1) > 1 ? 'dfs_query_then_fetch' : undefined);
  return {
    id: `search-cluster(${adapter.flavor}:${index},k1=${k1},b=${b})`,
    index,
    flavor: adapter.flavor,
    definition,
    async ensureIndex(request = {}) {
      const { abortSignal } = request;
      const exists = await adapter.call('indices.exists', { index }, undefined, abortSignal);
      if (exists !== true) {
        try {
          await adapter.call('indices.create', { index }, { settings: definition.settings, mappings: definition.mappings }, abortSignal);
          return { created: true, problems: [] };
        } catch (error) {
          // Another process created it between the two calls: check it like any existing index.
          if (!/resource_already_exists_exception/.test(String((error as { responseBody?: unknown }).responseBody ?? ''))) throw error;
        }
      }
      const current = await adapter.call('indices.get', { index }, undefined, abortSignal);
      return { created: false, problems: compareExistingIndex(current, definition) };
    },
    indexDocuments(documents, indexOptions = {}) {
      return runBulkIndexing({ adapter, index, flat: resolvedFields.flat, documents, bulk, options: indexOptions });
    },
    async deleteIndex(request = {}) {
      const exists = await adapter.call('indices.exists', { index }, undefined, request.abortSignal);
      if (exists !== true) return { deleted: false };
      await adapter.call('indices.delete', { index }, undefined, request.abortSignal);
      return { deleted: true };
    },
    async retrieve(request: RetrieveRequest) {
      const retrieveWhere = 'SearchClusterRetriever.retrieve';
      request?.abortSignal?.throwIfAborted();
      if (typeof request !== 'object' || request === null) throw new InvalidArgumentError({ where: retrieveWhere, argument: 'request', message: 'must be a RetrieveRequest object' });
      const { query, topK = 10, abortSignal } = request;
      if (!Number.isInteger(topK) || topK < 0) throw new InvalidArgumentError({ where: retrieveWhere, argument: 'topK', message: `must be an integer >= 0 (got ${String(topK)})` });
      if (topK === 0) return { evidence: [] };
      const plan = buildSearchRequest(query, { topK, fields: resolvedFields, where: retrieveWhere });
      if (plan.body === undefined) return { evidence: [], problems: plan.problems };
      const response = await adapter.call('search', { index, ...(searchType ? { search_type: searchType } : {}) }, plan.body, abortSignal);
      const hits = (response as { hits?: { hits?: unknown } } | null)?.hits?.hits;
      if (!Array.isArray(hits)) throw new ResponseParseError({ message: `${retrieveWhere}: the search response has no hits.hits array`, raw: JSON.stringify(response)?.slice(0, 2000) ?? '' });
      const evidence = hits.slice(0, topK).map((hit, position) => toEvidence(hit, position + 1));
      return plan.problems.length > 0 ? { evidence, problems: plan.problems } : { evidence };
    },
  };
}
