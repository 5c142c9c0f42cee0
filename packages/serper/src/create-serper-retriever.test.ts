import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderCallError, createMemoryCache } from '@factkit/core';
import { describeRetrieverContract } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SerperProblemCode, createSerperRetriever, parseSerperResponse } from './create-serper-retriever.js';

const organic = Array.from({ length: 12 }, (_, i) => ({ title: `T${i}`, link: `https://site${i}.example/page`, snippet: `snippet ${i}` }));
const KEY = 'sk-test-serper-key-1234567890';

// A scripted local Serper-compatible server on 127.0.0.1: replies by query text.
let server: Server;
let endpoint: string;
const requests: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body });
      const q = (JSON.parse(body) as { q: string }).q;
      if (q === 'rate limited') return response.writeHead(429).end(`{"message":"too many requests for ${KEY}"}`);
      if (q === 'nothing') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"organic":[]}');
      if (q === 'garbage') return response.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops');
      const reply =
        q === 'answer box'
          ? { answerBox: { answer: '1586', title: 'Acqua Felice', link: 'https://box.example' }, organic }
          : q === 'graph'
            ? { knowledgeGraph: { title: 'Rome', type: 'City', description: 'Capital of Italy', attributes: { Population: '2.8M' } }, organic }
            : { organic };
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('parseSerperResponse', () => {
  it('answer box alone (authors), else graph then organic, top 10', () => {
    expect(parseSerperResponse({ answerBox: { snippet: 'a\nb' }, organic })).toEqual([{ text: 'a b', source: 'answer-box', kind: 'answer-box' }]);
    expect(parseSerperResponse({ answerBox: { answer: 'x' }, organic }, { answerBoxOnly: false })).toHaveLength(10);
    const graph = parseSerperResponse({ knowledgeGraph: { title: 'Rome', type: 'City', attributes: { Mayor: 'X' } }, organic: organic.slice(0, 1) });
    expect(graph.map((s) => s.text)).toEqual(['Rome: City', 'Mayor: X', 'snippet 0']);
    expect(parseSerperResponse({ organic }).map((s) => s.text)).toEqual(organic.slice(0, 10).map((o) => o.snippet));
    expect(parseSerperResponse('nonsense')).toEqual([]);
    expect(parseSerperResponse({ organic: [{ link: 'x' }] })).toEqual([]);
  });
});

describe('createSerperRetriever (scripted local server)', () => {
  it('sends q/gl/hl with the key header, returns top-10 evidence with sources, and caches', async () => {
    const memory = createMemoryCache();
    const stored: string[] = [];
    const cache = {
      ...memory,
      id: 'recording',
      set: async (key: string, value: unknown) => {
        stored.push(key, JSON.stringify(value));
        await memory.set(key, value);
      },
    };
    const retriever = createSerperRetriever({ endpoint, apiKey: KEY, country: 'cn', language: 'zh-cn', cache });
    const first = await retriever.retrieve({ query: { text: 'plain' } });
    expect(first.evidence).toHaveLength(10);
    expect(first.evidence[0]).toEqual({
      documentId: 'https://site0.example/page',
      text: 'snippet 0',
      score: 10,
      rank: 1,
      origin: { documentId: 'https://site0.example/page', title: 'T0', source: { name: 'Google Search result (via Serper)', url: 'https://site0.example/page' } },
    });
    const sent = requests.at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({ q: 'plain', gl: 'cn', hl: 'zh-cn' });
    expect(sent.headers['x-api-key']).toBe(KEY);
    const before = requests.length;
    const again = await retriever.retrieve({ query: { text: 'plain' } });
    expect(requests.length).toBe(before);
    expect(again.evidence).toEqual(first.evidence);
    expect(stored.length).toBe(2);
    expect(stored.join('')).not.toContain(KEY);
    const box = await retriever.retrieve({ query: { text: 'answer box' } });
    expect(box.evidence.map((e) => e.text)).toEqual(['1586']);
    expect(box.evidence[0]?.origin).toEqual({ documentId: 'https://box.example', title: 'Acqua Felice', source: { name: 'Google Search answer box (via Serper)', url: 'https://box.example' } });
  });
  it('HTTP errors and garbage become ProviderCallErrors without the key', async () => {
    const retriever = createSerperRetriever({ endpoint, apiKey: KEY });
    const limited = await retriever.retrieve({ query: { text: 'rate limited' } }).catch((error: unknown) => error);
    expect(ProviderCallError.isInstance(limited)).toBe(true);
    expect((limited as ProviderCallError).isRetryable).toBe(true);
    expect(JSON.stringify({ ...(limited as object), message: (limited as Error).message })).not.toContain(KEY);
    const garbage = await retriever.retrieve({ query: { text: 'garbage' } }).catch((error: unknown) => error);
    expect((garbage as Error).message).toMatch(/not JSON/);
  });
  it('reads the key from SERPER_API_KEY at call time; without one it fails per call, not at construction', async () => {
    const saved = process.env['SERPER_API_KEY'];
    delete process.env['SERPER_API_KEY'];
    const retriever = createSerperRetriever({ endpoint });
    await expect(retriever.retrieve({ query: { text: 'plain' } })).rejects.toThrow(/SERPER_API_KEY/);
    process.env['SERPER_API_KEY'] = KEY;
    const graph = await retriever.retrieve({ query: { text: 'graph' } });
    expect(graph.evidence[0]?.text).toBe('Rome: City');
    // A knowledge-graph snippet without a link: the part's name is its id, and the source has no URL.
    expect(graph.evidence[0]?.origin).toEqual({ documentId: 'knowledge-graph', source: { name: 'Google Search knowledge graph (via Serper)' } });
    if (saved === undefined) delete process.env['SERPER_API_KEY'];
    else process.env['SERPER_API_KEY'] = saved;
  });
  it('SerperProblemCode is exactly the codes the retriever emits (each provoked here)', async () => {
    // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
    const codes = { 'empty-query': true, 'no-results': true } satisfies Record<SerperProblemCode, true>;
    const retriever = createSerperRetriever({ endpoint, apiKey: KEY });
    const emitted = new Set<SerperProblemCode>();
    for (const text of ['   ', 'nothing', 'plain']) {
      for (const problem of (await retriever.retrieve({ query: { text } })).problems ?? []) emitted.add(problem.code);
    }
    expect([...emitted].sort()).toEqual(Object.keys(codes).sort());
  });
  it('rejects a bad endpoint', () => {
    expect(() => createSerperRetriever({ endpoint: 'ftp://x' })).toThrow(/endpoint/);
  });
});

// The shared Retriever contract, against the scripted server (every query gets the 12 organic results).
describeRetrieverContract('serper (scripted server on 127.0.0.1)', () => createSerperRetriever({ endpoint, apiKey: KEY }), { query: 'plain', expectedId: 'https://site0.example/page' });
