import type { Document } from '@factkit/core';
import { compareProblemCodes } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import type { SearchClusterClient } from './search-cluster-client.js';
import type { SearchClusterProblemCode } from './search-cluster-options.js';
import { createSearchClusterRetriever } from './search-cluster-retriever.js';

/**
 * An in-memory stand-in for an Elasticsearch client that answers each bulk item by the document id, so every problem
 * code can be provoked without a server (the protocol tests drive the real clients).
 */
function scriptedClient(): SearchClusterClient {
  const bulk = async (request: { operations: Record<string, unknown>[] }) => {
    const id = (request.operations[1] as { id: string }).id;
    if (id === 'fatal') throw Object.assign(new Error('security_exception'), { meta: { statusCode: 401 } });
    if (id === 'malformed') return { items: [] };
    const status = id === 'rejected' ? 400 : id === 'busy' ? 429 : 201;
    const error = status === 400 ? { type: 'mapper_parsing_exception', reason: 'bad field' } : status === 429 ? { type: 'es_rejected_execution_exception' } : undefined;
    return { items: [{ index: { status, ...(error ? { error } : {}) } }] };
  };
  const client = {
    search: async () => ({ hits: { hits: [] } }),
    bulk,
    indices: {
      create: async () => ({}),
      exists: async () => true,
      get: async () => ({ scripted: { settings: { index: {} }, mappings: {} } }),
      refresh: async () => {
        throw new Error('refresh refused');
      },
      delete: async () => ({}),
    },
  };
  return client as unknown as SearchClusterClient;
}

describe('SearchClusterProblemCode', () => {
  it('is exactly the codes retrieve, ensureIndex and indexDocuments emit (each provoked here)', async () => {
    // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
    const codes = {
      'no-searchable-terms': true,
      'index-settings-mismatch': true,
      'invalid-document': true,
      'item-rejected': true,
      'retries-exhausted': true,
      'bulk-request-failed': true,
      'malformed-bulk-response': true,
      stopped: true,
      'refresh-failed': true,
    } satisfies Record<SearchClusterProblemCode, true>;
    const retriever = createSearchClusterRetriever({ client: scriptedClient(), flavor: 'elasticsearch', index: 'scripted', batchSize: 1, concurrency: 1, maxAttempts: 1 });
    const emitted = new Set<SearchClusterProblemCode>();
    for (const problem of (await retriever.retrieve({ query: { text: '  ' } })).problems ?? []) emitted.add(problem.code);
    for (const problem of (await retriever.ensureIndex()).problems) emitted.add(problem.code);
    const documents = [{ id: '', text: 'no id' }, ...['ok', 'rejected', 'busy', 'malformed', 'fatal'].map((id) => ({ id, text: `document ${id}` }))] as Document[];
    const indexing = await retriever.indexDocuments(documents);
    for (const problem of indexing.problems) emitted.add(problem.code);
    expect(indexing).toMatchObject({ read: 6, indexed: 1, failed: 5, complete: false });
    expect(compareProblemCodes(codes, emitted)).toEqual({ outside: [], notEmitted: [] });
  });
});
