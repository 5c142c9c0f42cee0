import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedder, EMPTY_USAGE, type Evidence, type ItemProblem, type LanguageModel, type Retriever } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { createOpenAICompatible } from '@factkit/openai';
import { compareProblemCodes, type ScriptedRequest, startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createBm25Index } from './bm25/bm25-index.js';
import { createBm25Retriever } from './bm25/bm25-retriever.js';
import { createDenseRetriever } from './dense/dense-retriever.js';
import { createDenseRetrieverFactory } from './dense/dense-retriever-factory.js';
import { createRocchioExpander } from './feedback/rocchio-expander.js';
import { createHybridRetriever } from './fusion/hybrid-retriever.js';
import { createMultiQueryRetriever } from './fusion/multi-query-retriever.js';
import { findUnknownQrelsDocuments, loadBeirDataset } from './io/beir.js';
import type { RetrievalProblemCode } from './problem-codes.js';
import { createRankGptReranker } from './rerank/rankgpt-reranker.js';

// Both directions at compile time: `satisfies Record<RetrievalProblemCode, true>` fails when a union member is missing
// here and when a key here is not in the union.
const EVERY_CODE = {
  'invalid-document': true,
  'duplicate-id': true,
  'empty-text': true,
  'empty-field': true,
  'embedding-failed': true,
  'bad-embedding': true,
  'empty-query': true,
  'no-searchable-terms': true,
  'empty-index': true,
  'retriever-failed': true,
  'search-failed': true,
  'no-feedback-documents': true,
  refused: true,
  'no-ranking': true,
  'duplicate-identifier': true,
  'unknown-identifier': true,
  'missing-identifier': true,
  'missing-reply': true,
  'unknown-query': true,
  'unknown-document': true,
} as const satisfies Record<RetrievalProblemCode, true>;

/** A user's exhaustive switch: does not compile when the union gains a code this switch does not handle. */
function describeCode(code: RetrievalProblemCode): string {
  switch (code) {
    case 'invalid-document':
    case 'duplicate-id':
    case 'empty-text':
    case 'empty-field':
    case 'embedding-failed':
    case 'bad-embedding':
      return 'document';
    case 'empty-query':
    case 'no-searchable-terms':
    case 'empty-index':
      return 'query';
    case 'retriever-failed':
    case 'search-failed':
      return 'fusion';
    case 'no-feedback-documents':
      return 'feedback';
    case 'refused':
    case 'no-ranking':
    case 'duplicate-identifier':
    case 'unknown-identifier':
    case 'missing-identifier':
    case 'missing-reply':
      return 'rerank';
    case 'unknown-query':
    case 'unknown-document':
      return 'files';
    default: {
      const unhandled: never = code;
      return unhandled;
    }
  }
}

/** An embedder that fails on texts containing FAIL and returns NaN for texts containing BAD (the rest: the mock's). */
function faultyEmbedder(dimensions: number): Embedder {
  const inner = createMockEmbedder({ dimensions });
  return {
    id: 'faulty',
    dimensions,
    async embed(request) {
      if (request.texts.some((text) => text.includes('FAIL'))) throw new Error('embedding service down');
      const { embeddings } = await inner.embed(request);
      return { embeddings: embeddings.map((vector, index) => (request.texts[index]?.includes('BAD') ? new Float32Array(dimensions).fill(Number.NaN) : vector)) };
    },
  };
}

const failing: Retriever = {
  id: 'failing',
  async retrieve() {
    throw new Error('backend down');
  },
};

describe('RetrievalProblemCode', () => {
  it('is exactly the set of codes the package emits: each provoked here', async () => {
    const seen = new Set<string>();
    const note = (problems: readonly ItemProblem[] | undefined) => {
      for (const problem of problems ?? []) seen.add(problem.code);
    };

    // BM25 documents and queries
    const index = createBm25Index();
    note(index.addDocuments([{ id: 'a', text: 'cats purr' }, { id: 'a', text: 'again' }, { id: 'b' } as never], { onDuplicate: 'skip' }).problems);
    const bm25 = createBm25Retriever(index);
    note((await bm25.retrieve({ query: { text: 'the of and' } })).problems);
    note((await createBm25Retriever([]).retrieve({ query: { text: 'cats' } })).problems);

    // dense documents and queries
    const dense = createDenseRetriever({ embedder: faultyEmbedder(8), batchSize: 1 });
    note(
      (
        await dense.index({
          documents: [
            { id: 'ok', text: 'fine' },
            { id: 'ok', text: 'twice' },
            { id: 'blank', text: '  ' },
            { id: 'f', text: 'FAIL' },
            { id: 'n', text: 'BAD' },
            { id: '', text: 'x' },
          ],
        })
      ).problems,
    );
    note((await dense.retrieve({ query: { text: '' } })).problems);
    const fielded = await createDenseRetrieverFactory({ embedder: createMockEmbedder({ dimensions: 8 }) }).createRetriever({
      documents: [{ id: 'd', fields: { title: '', chunk: 'body' }, text: 'body', origin: { documentId: 'd' } }],
      fields: { title: 1, chunk: 1 },
    });
    note(fielded.problems);

    // fusion
    note((await createHybridRetriever({ retrievers: [bm25, failing] }).retrieve({ query: { text: 'cats' } })).problems);
    const failsOnDogs: Retriever = { id: 'fails-on-dogs', retrieve: (request) => (request.query.text === 'dogs' ? failing.retrieve(request) : bm25.retrieve(request)) };
    note((await createMultiQueryRetriever({ retriever: failsOnDogs }).retrieve({ query: { text: 'cats', subQueries: ['dogs'] } })).problems);
    note((await createMultiQueryRetriever({ retriever: bm25 }).retrieve({ query: { text: ' ' } })).problems);

    // Rocchio: the retriever finds nothing, so there is no feedback
    const rocchio = createRocchioExpander({ embedder: createMockEmbedder({ dimensions: 8 }), retriever: createDenseRetriever({ embedder: createMockEmbedder({ dimensions: 8 }) }) });
    note((await rocchio.expand({ query: { text: 'cats' } })).problems);

    // RankGPT through a scripted OpenAI-protocol server: a refusal, an unreadable reply, a repaired one, no reply
    const replies: Record<string, { content: string }> = {
      refuse: { content: "I'm sorry, but I can't help with ranking these passages." },
      garble: { content: 'these all look relevant' },
      repair: { content: '[1] > [1] > [9]' },
    };
    const server = await startScriptedOpenAIServer({ script: (request: ScriptedRequest) => replies[/Search Query: (\w+)/.exec(JSON.stringify(request.body))?.[1] ?? 'garble'] ?? { content: 'these all look relevant' } });
    try {
      const reranker = createRankGptReranker({ model: createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-test-not-real' }).languageModel('ranker') });
      const evidence: Evidence[] = ['x', 'y', 'z'].map((id, i) => ({ documentId: id, text: `passage ${id}`, score: 3 - i, rank: i + 1, origin: { documentId: id } }));
      for (const query of ['refuse', 'garble', 'repair', '']) note((await reranker.rerank({ query: { text: query }, evidence })).problems);
      // An OpenAI-compatible server cannot send zero choices (the provider rejects that); another LanguageModel can.
      const silent: LanguageModel = { id: 'silent', generate: async () => ({ texts: [], usage: EMPTY_USAGE }) };
      note((await createRankGptReranker({ model: silent }).rerank({ query: { text: 'cats' }, evidence })).problems);
    } finally {
      await server.close();
    }

    // BEIR files: judged query without text, judged document outside the corpus
    const folder = mkdtempSync(join(tmpdir(), 'factkit-problem-codes-'));
    try {
      mkdirSync(join(folder, 'qrels'));
      writeFileSync(join(folder, 'corpus.jsonl'), `${JSON.stringify({ _id: 'd1', text: 'one' })}\n`);
      writeFileSync(join(folder, 'queries.jsonl'), `${JSON.stringify({ _id: 'q1', text: 'first' })}\n`);
      writeFileSync(join(folder, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td1\t1\n');
      note((await loadBeirDataset(folder)).problems);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    note(findUnknownQrelsDocuments({ q1: { d1: 1, d9: 1 } }, (id) => id === 'd1'));

    expect(compareProblemCodes(EVERY_CODE, seen)).toEqual({ outside: [], notEmitted: [] });
    expect(new Set(Object.keys(EVERY_CODE).map((code) => describeCode(code as RetrievalProblemCode)))).toEqual(new Set(['document', 'query', 'fusion', 'feedback', 'rerank', 'files']));
  });
});
