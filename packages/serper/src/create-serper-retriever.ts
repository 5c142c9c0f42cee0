import type { Cache, DocumentSource, Evidence, ItemProblem, Retriever } from '@factkit/core';
import { InvalidArgumentError, evidenceOrigin, ProviderCallError, isRetryableStatus, redactSecrets, sha256Hex, stableStringify } from '@factkit/core';

export interface SerperRetrieverOptions {
  /** API key; read at call time, falling back to the `SERPER_API_KEY` environment variable. Never logged or cached. */
  readonly apiKey?: string;
  /** Serper-compatible search endpoint. @default 'https://google.serper.dev/search' */
  readonly endpoint?: string;
  /** Country (`gl`); the authors use 'us' for English and 'cn' for Chinese. @default 'us' */
  readonly country?: string;
  /** Interface language (`hl`); the authors use 'en' / 'zh-cn'. @default 'en' */
  readonly language?: string;
  /** Injectable fetch (tests, proxies). @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch;
  /** Cache of parsed results keyed by endpoint + query + gl + hl (never the key). @default none */
  readonly cache?: Cache;
  /**
   * When the response has an answer box, return only it (the authors' `_parse_results`), else answer box, knowledge
   * graph and organic snippets together. @default true
   */
  readonly answerBoxOnly?: boolean;
}

/** Every problem code a Serper retriever puts in `RetrieveResult.problems`: an empty query (no call), or no result. */
export type SerperProblemCode = 'empty-query' | 'no-results';

interface SerperResponse {
  readonly answerBox?: { answer?: string; snippet?: string; snippetHighlighted?: string | string[]; title?: string; link?: string };
  readonly knowledgeGraph?: { title?: string; type?: string; description?: string; descriptionLink?: string; attributes?: Record<string, unknown> };
  readonly organic?: ReadonlyArray<{ title?: string; link?: string; snippet?: string; attributes?: Record<string, unknown> }>;
}

/** One snippet of a Serper response: its text, URL (or the part's name when it has none), part of the page and title. */
export interface ParsedSnippet {
  readonly text: string;
  readonly source: string;
  readonly kind: 'answer-box' | 'knowledge-graph' | 'organic';
  readonly title?: string;
}

/**
 * Snippets of a Serper response in the authors' order: answer box (answer, else snippet, else highlighted snippet;
 * alone when `answerBoxOnly`), then knowledge graph ("title: type", description, "attribute: value"), then organic
 * results (snippet and "attribute: value" lines), cut at `topK`. Pure; unknown shapes give no snippets.
 */
export function parseSerperResponse(body: unknown, options: { topK?: number; answerBoxOnly?: boolean } = {}): ParsedSnippet[] {
  const { topK = 10, answerBoxOnly = true } = options;
  if (typeof body !== 'object' || body === null) return [];
  const results = body as SerperResponse;
  const snippets: ParsedSnippet[] = [];
  const box = results.answerBox;
  if (box && typeof box === 'object') {
    const highlighted = Array.isArray(box.snippetHighlighted) ? box.snippetHighlighted.join(' ') : box.snippetHighlighted;
    const text = box.answer ?? (box.snippet ? box.snippet.replace(/\n/g, ' ') : undefined) ?? highlighted;
    if (typeof text === 'string' && text.trim()) {
      snippets.push({ text: text.trim(), source: box.link ?? 'answer-box', kind: 'answer-box', ...(box.title ? { title: box.title } : {}) });
      if (answerBoxOnly) return snippets;
    }
  }
  const graph = results.knowledgeGraph;
  if (graph && typeof graph === 'object') {
    const source = graph.descriptionLink ?? 'knowledge-graph';
    if (graph.type) snippets.push({ text: `${graph.title ?? ''}: ${graph.type}`, source, kind: 'knowledge-graph' });
    if (graph.description) snippets.push({ text: graph.description, source, kind: 'knowledge-graph' });
    for (const [attribute, value] of Object.entries(graph.attributes ?? {})) snippets.push({ text: `${attribute}: ${String(value)}`, source, kind: 'knowledge-graph' });
  }
  if (Array.isArray(results.organic)) {
    for (const result of results.organic.slice(0, topK)) {
      const source = result.link ?? 'organic';
      if (typeof result.snippet === 'string' && result.snippet.trim()) snippets.push({ text: result.snippet, source, kind: 'organic', ...(result.title ? { title: result.title } : {}) });
      for (const [attribute, value] of Object.entries(result.attributes ?? {})) snippets.push({ text: `${attribute}: ${String(value)}`, source, kind: 'organic' });
    }
  }
  return snippets.slice(0, topK);
}

const KIND_NAMES: Readonly<Record<ParsedSnippet['kind'], string>> = {
  'answer-box': 'Google Search answer box (via Serper)',
  'knowledge-graph': 'Google Search knowledge graph (via Serper)',
  organic: 'Google Search result (via Serper)',
};

/** The evidence source of a snippet: which part of the results page it came from, and its URL when it has one. */
function serperSource(snippet: ParsedSnippet): DocumentSource {
  return { name: KIND_NAMES[snippet.kind], ...(/^https?:\/\//.test(snippet.source) ? { url: snippet.source } : {}) };
}

/**
 * A core `Retriever` over a Serper-compatible web-search JSON API (the paper's searcher): POST `{ q, gl, hl }` with the
 * `X-API-KEY` header, top-10 snippets as evidence (`origin.source` = which part of the results page, with the result's URL). Results are cached when
 * a cache is given. HTTP failures throw a ProviderCallError (retryable for 408/429/5xx) with the key redacted; the
 * detection pipeline turns them into an unverifiable claim with the reason.
 * @example createSerperRetriever({ country: 'cn', language: 'zh-cn', cache: createFileCache({ directory: '.cache/serper' }) })
 */
export function createSerperRetriever(options: SerperRetrieverOptions = {}): Retriever<SerperProblemCode> {
  const { endpoint = 'https://google.serper.dev/search', country = 'us', language = 'en', cache, answerBoxOnly = true } = options;
  if (typeof endpoint !== 'string' || !/^https?:\/\//.test(endpoint)) {
    throw new InvalidArgumentError({ where: 'createSerperRetriever', argument: 'endpoint', message: `must be an http(s) URL (got ${String(endpoint)})` });
  }
  const provider = 'serper';
  return {
    id: `serper(${country},${language})`,
    async retrieve({ query, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (!Number.isInteger(topK) || topK < 0) throw new InvalidArgumentError({ where: 'SerperRetriever.retrieve', argument: 'topK', message: `must be an integer >= 0 (got ${String(topK)})` });
      const text = typeof query?.text === 'string' ? query.text.trim() : '';
      if (!text) return { evidence: [], problems: [{ code: 'empty-query', message: 'the query is empty' }] };
      if (topK === 0) return { evidence: [] };
      const cacheKey = `serper:${await sha256Hex(stableStringify({ endpoint, q: text, gl: country, hl: language, answerBoxOnly, topK }))}`;
      let snippets = cache ? ((await cache.get(cacheKey)) as ParsedSnippet[] | undefined) : undefined;
      const problems: ItemProblem<SerperProblemCode>[] = [];
      if (!snippets) {
        const apiKey = options.apiKey ?? (typeof process !== 'undefined' ? process.env['SERPER_API_KEY'] : undefined);
        if (!apiKey) throw new ProviderCallError({ provider, message: 'no API key: pass apiKey or set SERPER_API_KEY', isRetryable: false });
        const fetchImplementation = options.fetch ?? globalThis.fetch;
        let response: Response;
        try {
          response = await fetchImplementation(endpoint, {
            method: 'POST',
            headers: { 'X-API-KEY': apiKey, 'Content-Type': 'application/json' },
            body: JSON.stringify({ q: text, gl: country, hl: language }),
            ...(abortSignal ? { signal: abortSignal } : {}),
          });
        } catch (error) {
          if (abortSignal?.aborted) throw abortSignal.reason;
          throw new ProviderCallError({ provider, message: redactSecrets(`network error: ${error instanceof Error ? error.message : String(error)}`, [apiKey]), isRetryable: true });
        }
        const body = await response.text();
        if (!response.ok) {
          throw new ProviderCallError({
            provider,
            message: `HTTP ${response.status}`,
            statusCode: response.status,
            isRetryable: isRetryableStatus(response.status),
            responseBody: redactSecrets(body.slice(0, 500), [apiKey]),
          });
        }
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          throw new ProviderCallError({ provider, message: 'response is not JSON', statusCode: response.status, isRetryable: false, responseBody: redactSecrets(body.slice(0, 200), [apiKey]) });
        }
        snippets = parseSerperResponse(json, { topK, answerBoxOnly });
        if (cache) await cache.set(cacheKey, snippets);
      }
      if (snippets.length === 0) problems.push({ code: 'no-results', message: 'no good search result was found' });
      const evidence: Evidence[] = snippets.map((snippet, index) => ({
        documentId: snippet.source,
        text: snippet.text,
        score: snippets!.length - index,
        rank: index + 1,
        origin: evidenceOrigin({ id: snippet.source, ...(snippet.title ? { title: snippet.title } : {}), source: serperSource(snippet) }),
      }));
      return { evidence, problems };
    },
  };
}
