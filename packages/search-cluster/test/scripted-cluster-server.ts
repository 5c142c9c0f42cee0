/**
 * PROTOCOL TEST SERVER. A real HTTP server on 127.0.0.1 (ephemeral port) speaking the subset of the OpenSearch /
 * Elasticsearch REST protocol `@factkit/search-cluster` uses: HEAD/PUT/GET/DELETE /{index}, POST /{index}/_bulk
 * (NDJSON), POST /{index}/_refresh and POST /{index}/_search. It is NOT a search engine:
 * - it checks every request against what factkit must send (index settings and mappings, bulk actions, query DSL)
 *   and answers 400 `illegal_argument_exception` to anything else, so a wrong request fails the test;
 * - it scores `_search` with `@factkit/retrieval`'s Lucene BM25 (the analyzer and k1/b read from the index settings
 *   it accepted), so rankings are real BM25 rankings but say nothing about how a real Lucene scores;
 * - like a cluster, documents become searchable at `_refresh` only;
 * - bulk items and whole requests can be scripted to fail (e.g. 429 `es_rejected_execution_exception`).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Document } from '@factkit/core';
import { type Bm25Index, createBm25Index, createEnglishAnalyzer } from '@factkit/retrieval';

export type ClusterFlavor = 'opensearch' | 'elasticsearch';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** `performance.now()` when the request body was complete. */
  readonly receivedAt: number;
}

/** The status of one bulk item: a number overrides the default (201), undefined keeps it. */
export type BulkItemScript = (item: { readonly id: string; readonly attempt: number; readonly source: Record<string, unknown> }) => number | undefined;

export interface ScriptedClusterServerOptions {
  /** Headers and response shape of this product. @default 'opensearch' */
  readonly flavor?: ClusterFlavor;
  /** Status per bulk item (e.g. 429 for the first attempt of some ids). */
  readonly bulkItemStatus?: BulkItemScript;
  /** Status codes for whole `_bulk` requests, consumed one per request (then 200). */
  readonly bulkRequestStatuses?: number[];
  /** Delay of every `_bulk` answer, to observe in-flight requests. @default 0 */
  readonly bulkDelayMs?: number;
  /** Delay of every `_search` answer (to abort a search in flight). @default 0 */
  readonly searchDelayMs?: number;
  /** When set, requests whose Authorization header differs get 401 `security_exception`. */
  readonly requireAuthorization?: string;
}

export interface ScriptedClusterServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Most `_bulk` requests being processed at the same time. */
  readonly maxConcurrentBulk: number;
  /** Documents stored per index (refreshed or not). */
  storedIds(index: string): string[];
  close(): Promise<void>;
}

type StoredDocument = Document & { readonly sourceJson: Record<string, unknown> };

interface IndexState {
  settings: Record<string, unknown>;
  mappings: Record<string, unknown>;
  k1: number;
  b: number;
  stopWords: string[];
  documents: Map<string, StoredDocument>;
  /** The searchable documents (copied at refresh). */
  snapshot: StoredDocument[];
  indexes: Map<string, Bm25Index>;
}

class ClusterError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(reason);
  }
}

const EXPECTED_FILTERS = ['factkit_english_possessive', 'lowercase', 'factkit_english_stop', 'porter_stem'];

function fail(reason: string, type = 'illegal_argument_exception', status = 400): never {
  throw new ClusterError(status, type, reason);
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`unknown key [${key}] in ${what}`, 'parsing_exception');
}

/** Checks the create-index body and reads the analysis it asks for. */
function acceptIndexDefinition(body: Record<string, unknown>): Omit<IndexState, 'documents' | 'snapshot' | 'indexes'> {
  checkKeys(body, ['settings', 'mappings'], 'create index body');
  const settings = object(object(body['settings'], 'settings')['index'], 'settings.index');
  const similarity = object(object(settings['similarity'], 'settings.index.similarity')['factkit_bm25'], 'similarity factkit_bm25');
  if (similarity['type'] !== 'BM25') fail('similarity factkit_bm25 must be of type BM25');
  const k1 = similarity['k1'];
  const b = similarity['b'];
  if (typeof k1 !== 'number' || typeof b !== 'number') fail('similarity k1 and b must be numbers');
  const analysis = object(settings['analysis'], 'settings.index.analysis');
  const filters = object(analysis['filter'], 'analysis.filter');
  const possessive = object(filters['factkit_english_possessive'], 'filter factkit_english_possessive');
  if (possessive['type'] !== 'stemmer' || possessive['language'] !== 'possessive_english') fail('factkit_english_possessive must be a possessive_english stemmer');
  const stop = object(filters['factkit_english_stop'], 'filter factkit_english_stop');
  if (stop['type'] !== 'stop' || !Array.isArray(stop['stopwords'])) fail('factkit_english_stop must be a stop filter with a stopwords list');
  const analyzer = object(object(analysis['analyzer'], 'analysis.analyzer')['factkit_english'], 'analyzer factkit_english');
  if (analyzer['type'] !== 'custom' || analyzer['tokenizer'] !== 'standard') fail('factkit_english must be a custom analyzer with the standard tokenizer');
  if (JSON.stringify(analyzer['filter']) !== JSON.stringify(EXPECTED_FILTERS)) fail(`factkit_english filters must be ${EXPECTED_FILTERS.join(', ')}`);
  const mappings = object(body['mappings'], 'mappings');
  const properties = object(mappings['properties'], 'mappings.properties');
  if (object(properties['id'], 'id mapping')['type'] !== 'keyword') fail('id must be a keyword field');
  for (const field of ['contents', 'title', 'text']) {
    const mapping = properties[field] as Record<string, unknown> | undefined;
    if (mapping === undefined || mapping['index'] === false) continue;
    if (mapping['type'] !== 'text' || mapping['analyzer'] !== 'factkit_english' || mapping['similarity'] !== 'factkit_bm25') fail(`field ${field} must be text with factkit_english and factkit_bm25`);
  }
  return { settings: body['settings'] as Record<string, unknown>, mappings, k1, b, stopWords: stop['stopwords'] as string[] };
}

/** Like a cluster: settings come back with numbers as strings. */
function stringifyNumbers(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(stringifyNumbers);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, stringifyNumbers(inner)]));
  return value;
}

interface ParsedClause {
  readonly field: string;
  readonly boost: number;
  readonly text?: string;
  readonly term?: string;
}

/** Accepts exactly the query DSL factkit sends: match (operator or) / term clauses, alone or in bool.should. */
function parseQuery(query: Record<string, unknown>): ParsedClause[] {
  const keys = Object.keys(query);
  if (keys.length !== 1) fail('a query must have exactly one type', 'parsing_exception');
  const [type] = keys as [string];
  const inner = object(query[type], type);
  if (type === 'bool') {
    checkKeys(inner, ['should'], 'bool');
    const should = inner['should'];
    if (!Array.isArray(should) || should.length === 0) fail('bool.should must be a non-empty array', 'parsing_exception');
    return should.flatMap((clause) => parseQuery(object(clause, 'bool.should[]')));
  }
  const fields = Object.keys(inner);
  if (fields.length !== 1) fail(`[${type}] query must name exactly one field`, 'parsing_exception');
  const [field] = fields as [string];
  const options = object(inner[field], `${type}.${field}`);
  const boost = options['boost'] ?? 1;
  if (typeof boost !== 'number' || !(boost >= 0)) fail('boost must be a number ≥ 0', 'parsing_exception');
  if (type === 'match') {
    checkKeys(options, ['query', 'operator', 'boost'], 'match');
    if (typeof options['query'] !== 'string') fail('match.query must be a string', 'parsing_exception');
    if (options['operator'] !== undefined && options['operator'] !== 'or') fail('this server supports operator or only', 'parsing_exception');
    return [{ field, boost, text: options['query'] }];
  }
  if (type === 'term') {
    checkKeys(options, ['value', 'boost'], 'term');
    if (typeof options['value'] !== 'string') fail('term.value must be a string', 'parsing_exception');
    return [{ field, boost, term: options['value'] }];
  }
  return fail(`unknown query [${type}]`, 'parsing_exception');
}

function searchIndex(state: IndexState, body: Record<string, unknown>): Record<string, unknown> {
  checkKeys(body, ['size', 'query', 'sort', 'track_total_hits', 'track_scores', '_source'], 'search body');
  const size = body['size'];
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) fail('size must be an integer ≥ 0');
  if (JSON.stringify(body['sort']) !== JSON.stringify([{ _score: { order: 'desc' } }, { id: { order: 'asc' } }])) fail('sort must be _score desc, id asc');
  const clauses = parseQuery(object(body['query'], 'query'));
  const properties = object(state.mappings['properties'], 'properties');
  // Group clauses by field; each field is scored with its own BM25 statistics (as Lucene does per field).
  const scores = new Map<string, number>();
  for (const clause of clauses) {
    const mapping = properties[clause.field] as Record<string, unknown> | undefined;
    if (!mapping || mapping['type'] !== 'text' || mapping['index'] === false) fail(`field [${clause.field}] is not searchable`, 'query_shard_exception');
    let index = state.indexes.get(clause.field);
    if (!index) {
      const fieldDocuments = state.snapshot.map((document) => ({ id: document.id, text: String(document.sourceJson[clause.field] ?? '') }));
      index = createBm25Index({ documents: fieldDocuments, k1: state.k1, b: state.b, analyzer: createEnglishAnalyzer({ stopWords: state.stopWords }), fields: { text: 1 } });
      state.indexes.set(clause.field, index);
    }
    const bm25Query = clause.text !== undefined ? clause.text : { terms: [{ term: clause.term as string, weight: 1 }] };
    const { hits } = index.search(bm25Query, { topK: Math.max(1, state.snapshot.length) });
    for (const hit of hits) if (hit.score > 0) scores.set(hit.id, Math.fround((scores.get(hit.id) ?? 0) + Math.fround(clause.boost * hit.score)));
  }
  const ranked = [...scores].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0)).slice(0, size);
  const byId = new Map(state.snapshot.map((document) => [document.id, document]));
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      max_score: ranked[0]?.[1] ?? null,
      hits: ranked.map(([id, score]) => {
        const source = (byId.get(id) as StoredDocument).sourceJson;
        const filtered = Object.fromEntries(Object.entries(source).filter(([key]) => (body['_source'] as string[]).includes(key)));
        return { _index: 'index', _id: id, _score: score, _source: filtered, sort: [score, id] };
      }),
    },
  };
}

export async function startScriptedClusterServer(options: ScriptedClusterServerOptions = {}): Promise<ScriptedClusterServer> {
  const { flavor = 'opensearch', bulkItemStatus, bulkRequestStatuses = [], bulkDelayMs = 0, searchDelayMs = 0, requireAuthorization } = options;
  const indices = new Map<string, IndexState>();
  const requests: RecordedRequest[] = [];
  const attempts = new Map<string, number>();
  let concurrentBulk = 0;
  let maxConcurrentBulk = 0;
  const productHeaders: Record<string, string> = flavor === 'elasticsearch' ? { 'x-elastic-product': 'Elasticsearch' } : {};

  const send = (response: ServerResponse, status: number, body?: unknown) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...productHeaders });
    response.end(text);
  };

  const handle = async (request: IncomingMessage, body: string): Promise<{ status: number; body?: unknown }> => {
    if (requireAuthorization !== undefined && request.headers.authorization !== requireAuthorization) fail('missing authentication credentials for REST request', 'security_exception', 401);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const method = request.method ?? 'GET';
    const [name, action] = segments as [string | undefined, string | undefined];
    if (name === undefined || segments.length > 2) fail(`no handler for ${method} ${url.pathname}`, 'no_handler_found_exception');
    const state = indices.get(name);
    const json = () => (body.length === 0 ? {} : object(JSON.parse(body), 'body'));
    const missing = (): never => fail(`no such index [${name}]`, 'index_not_found_exception', 404);
    if (action === undefined) {
      if (method === 'HEAD') return { status: state ? 200 : 404 };
      if (method === 'PUT') {
        if (state) fail(`index [${name}] already exists`, 'resource_already_exists_exception');
        const accepted = acceptIndexDefinition(json());
        indices.set(name, { ...accepted, documents: new Map(), snapshot: [], indexes: new Map() });
        return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: name } };
      }
      if (method === 'GET') {
        if (!state) return missing();
        return { status: 200, body: { [name]: { aliases: {}, mappings: state.mappings, settings: stringifyNumbers(state.settings) } } };
      }
      if (method === 'DELETE') {
        if (!state) return missing();
        indices.delete(name);
        return { status: 200, body: { acknowledged: true } };
      }
    }
    if (!state) return missing();
    if (action === '_refresh' && (method === 'POST' || method === 'GET')) {
      state.snapshot = [...state.documents.values()];
      state.indexes.clear();
      return { status: 200, body: { _shards: { total: 1, successful: 1, failed: 0 } } };
    }
    if (action === '_search' && (method === 'POST' || method === 'GET')) {
      if (searchDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, searchDelayMs));
      return { status: 200, body: searchIndex(state, json()) };
    }
    if (action === '_bulk' && (method === 'POST' || method === 'PUT')) {
      const contentType = String(request.headers['content-type'] ?? '');
      if (!/application\/(x-ndjson|vnd\.elasticsearch\+x-ndjson)/.test(contentType)) fail(`_bulk needs an NDJSON content type (got ${contentType})`);
      if (!body.endsWith('\n')) fail('The bulk request must be terminated by a newline [\\n]');
      concurrentBulk += 1;
      maxConcurrentBulk = Math.max(maxConcurrentBulk, concurrentBulk);
      try {
        if (bulkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, bulkDelayMs));
        const scripted = bulkRequestStatuses.shift();
        if (scripted !== undefined && scripted !== 200)
          return { status: scripted, body: { error: { type: scripted === 429 ? 'es_rejected_execution_exception' : 'scripted_failure', reason: `scripted status ${scripted}` }, status: scripted } };
        const lines = body.split('\n').filter((line) => line.length > 0);
        if (lines.length % 2 !== 0) fail('bulk body must alternate action and source lines');
        const items: unknown[] = [];
        for (let line = 0; line < lines.length; line += 2) {
          const actionLine = object(JSON.parse(lines[line] as string), 'bulk action');
          checkKeys(actionLine, ['index'], 'bulk action');
          const meta = object(actionLine['index'], 'bulk index action');
          checkKeys(meta, ['_index', '_id'], 'bulk index action');
          if (meta['_index'] !== name || typeof meta['_id'] !== 'string') fail('bulk index action needs _index (this index) and a string _id');
          const id = meta['_id'];
          const source = object(JSON.parse(lines[line + 1] as string), 'bulk source');
          const attempt = (attempts.get(`${name}/${id}`) ?? 0) + 1;
          attempts.set(`${name}/${id}`, attempt);
          const status = bulkItemStatus?.({ id, attempt, source }) ?? 201;
          if (status === 429) {
            items.push({ index: { _index: name, _id: id, status, error: { type: flavor === 'elasticsearch' ? 'es_rejected_execution_exception' : 'rejected_execution_exception', reason: 'rejected execution of coordinating operation' } } });
            continue;
          }
          if (status >= 300) {
            items.push({ index: { _index: name, _id: id, status, error: { type: 'mapper_parsing_exception', reason: `scripted failure for [${id}]` } } });
            continue;
          }
          const properties = object(state.mappings['properties'], 'properties');
          const unknown = Object.keys(source).find((key) => !(key in properties));
          if (unknown !== undefined) {
            items.push({ index: { _index: name, _id: id, status: 400, error: { type: 'strict_dynamic_mapping_exception', reason: `mapping set to strict, dynamic introduction of [${unknown}] within [_doc] is not allowed` } } });
            continue;
          }
          const existed = state.documents.has(id);
          state.documents.set(id, { id, text: String(source['text'] ?? ''), sourceJson: source });
          items.push({ index: { _index: name, _id: id, _version: 1, result: existed ? 'updated' : 'created', status: existed ? 200 : 201 } });
        }
        return { status: 200, body: { took: 1, errors: items.some((item) => (item as { index: { status: number } }).index.status >= 300), items } };
      } finally {
        concurrentBulk -= 1;
      }
    }
    return fail(`no handler for ${method} ${url.pathname}`, 'no_handler_found_exception');
  };

  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      requests.push({ method: request.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers, body, receivedAt: performance.now() });
      handle(request, body).then(
        (reply) => send(response, reply.status, request.method === 'HEAD' ? undefined : reply.body),
        (error: unknown) => {
          const clusterError = error instanceof ClusterError ? error : new ClusterError(400, 'parse_exception', String((error as Error)?.message ?? error));
          send(response, clusterError.status, { error: { root_cause: [{ type: clusterError.type, reason: clusterError.message }], type: clusterError.type, reason: clusterError.message }, status: clusterError.status });
        },
      );
    });
  });
  // Node's default 5 s keep-alive closes idle sockets the clients then reuse (ECONNRESET); clusters keep them longer.
  server.keepAliveTimeout = 120_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxConcurrentBulk() {
      return maxConcurrentBulk;
    },
    storedIds: (index) => [...(indices.get(index)?.documents.keys() ?? [])],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
