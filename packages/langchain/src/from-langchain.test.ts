import { InvalidArgumentError } from '@factkit/core';
import { Document, type DocumentInterface } from '@langchain/core/documents';
import { BaseRetriever } from '@langchain/core/retrievers';
import { FakeVectorStore } from '@langchain/core/utils/testing';
import type { VectorStoreInterface } from '@langchain/core/vectorstores';
import { describe, expect, it } from 'vitest';
import { TermCountEmbeddings } from '../test/term-embeddings.js';
import { type LangChainProblemCode, fromLangChainRetriever, fromLangChainVectorStore } from './from-langchain.js';

const vocabulary = ['mammals', 'pets', 'drink', 'leaves', 'beans'];
const documents = [
  new Document({ pageContent: 'Tea is a drink made from leaves.', id: 'tea', metadata: { title: 'Tea', source: 'https://en.wikipedia.org/wiki/Tea', lang: 'en' } }),
  new Document({ pageContent: 'Coffee is a drink made from beans.', id: 'coffee', metadata: { source: 'notes/coffee.md' } }),
  new Document({ pageContent: 'Cats are mammals kept as pets.', id: 'cats' }),
];

async function store(): Promise<FakeVectorStore> {
  const fake = await FakeVectorStore.fromDocuments(documents, new TermCountEmbeddings(vocabulary));
  // FakeVectorStore keeps metadata but not Document.id: keep the id in metadata as most LangChain stores do.
  fake.memoryVectors = fake.memoryVectors.map((vector, index) => ({ ...vector, metadata: { ...vector.metadata, id: documents[index]?.id } }));
  return fake;
}

describe('fromLangChainVectorStore', () => {
  it("keeps the store's cosine similarities (worked by hand) and fills typed origins from LangChain's metadata", async () => {
    const retriever = fromLangChainVectorStore(await store());
    expect(retriever.id).toBe('langchain-vector-store(memory)');
    const { evidence, problems } = await retriever.retrieve({ query: { text: 'a drink of leaves' }, topK: 2 });
    expect(problems).toBeUndefined();
    // query = (drink 1, leaves 1); tea = (drink 1, leaves 1) → cos 1; coffee = (drink 1, beans 1) → cos 1/2.
    expect(evidence.map((item) => [item.documentId, item.rank])).toEqual([
      ['tea', 1],
      ['coffee', 2],
    ]);
    expect(evidence[0]?.score).toBeCloseTo(1, 10);
    expect(evidence[1]?.score).toBeCloseTo(0.5, 10);
    expect(evidence[0]?.origin).toEqual({ documentId: 'tea', title: 'Tea', source: { name: 'en.wikipedia.org', url: 'https://en.wikipedia.org/wiki/Tea' } });
    expect(evidence[1]?.origin).toEqual({ documentId: 'coffee', source: { name: 'notes/coffee.md' } });
    expect(evidence[0]?.metadata).toMatchObject({ lang: 'en' });
  });

  it('turns a distance store (lower is closer) into descending scores', async () => {
    const distanceStore = {
      _vectorstoreType: () => 'faiss-like',
      similaritySearchWithScore: async (): Promise<[DocumentInterface, number][]> => [
        [new Document({ pageContent: 'far', id: 'far' }), 0.9],
        [new Document({ pageContent: 'near', id: 'near' }), 0.2],
      ],
    } as unknown as VectorStoreInterface;
    const { evidence } = await fromLangChainVectorStore(distanceStore, { scoreKind: 'distance' }).retrieve({ query: { text: 'x' }, topK: 2 });
    expect(evidence.map((item) => [item.documentId, item.score, item.rank])).toEqual([
      ['near', -0.2, 1],
      ['far', -0.9, 2],
    ]);
  });

  it('gives a document without an id a stable content id, and reports duplicates and non-finite scores', async () => {
    const reply: [DocumentInterface, number][] = [
      [new Document({ pageContent: 'same text' }), 0.9],
      [new Document({ pageContent: 'same text' }), 0.8],
      [new Document({ pageContent: 'other text' }), Number.NaN],
      [new Document({ pageContent: 'third text' }), 0.1],
    ];
    const odd = { similaritySearchWithScore: async () => reply } as unknown as VectorStoreInterface;
    const retriever = fromLangChainVectorStore(odd, { id: 'odd' });
    const first = await retriever.retrieve({ query: { text: 'x' }, topK: 4 });
    const second = await retriever.retrieve({ query: { text: 'x' }, topK: 4 });
    expect(first.evidence).toHaveLength(2);
    expect(first.evidence[0]?.documentId).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(first.evidence[1]?.documentId).not.toBe(first.evidence[0]?.documentId);
    expect(second.evidence.map((item) => item.documentId)).toEqual(first.evidence.map((item) => item.documentId));
    expect(first.problems?.map((problem) => [problem.index, problem.code])).toEqual([
      [1, 'duplicate-document'],
      [2, 'invalid-score'],
    ]);
  });

  it('LangChainProblemCode is exactly the codes the adapters emit (each provoked here)', async () => {
    // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
    const codes = { 'duplicate-document': true, 'invalid-score': true, 'empty-query': true } satisfies Record<LangChainProblemCode, true>;
    const reply: [DocumentInterface, number][] = [
      [new Document({ pageContent: 'a', id: 'a' }), 0.9],
      [new Document({ pageContent: 'a', id: 'a' }), 0.8],
      [new Document({ pageContent: 'b', id: 'b' }), Number.POSITIVE_INFINITY],
    ];
    const retriever = fromLangChainVectorStore({ similaritySearchWithScore: async () => reply } as unknown as VectorStoreInterface);
    const emitted = new Set<LangChainProblemCode>();
    for (const text of ['x', '  ']) for (const problem of (await retriever.retrieve({ query: { text }, topK: 3 })).problems ?? []) emitted.add(problem.code);
    expect([...emitted].sort()).toEqual(Object.keys(codes).sort());
  });

  it('rejects what is not a vector store, and an unknown scoreKind', () => {
    expect(() => fromLangChainVectorStore({} as VectorStoreInterface)).toThrow(InvalidArgumentError);
    expect(() => fromLangChainVectorStore({ similaritySearchWithScore: async () => [] } as unknown as VectorStoreInterface, { scoreKind: 'cosine' as 'distance' })).toThrow(/scoreKind/);
  });
});

class SlowRetriever extends BaseRetriever {
  lc_namespace = ['test'];
  override async _getRelevantDocuments(): Promise<DocumentInterface[]> {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return documents;
  }
}

describe('fromLangChainRetriever', () => {
  it("keeps LangChain's order with score 1/rank and cuts at topK", async () => {
    const retriever = fromLangChainRetriever((await store()).asRetriever(3));
    expect(retriever.id).toBe('langchain(VectorStoreRetriever)');
    const { evidence } = await retriever.retrieve({ query: { text: 'mammals kept as pets' }, topK: 2 });
    expect(evidence.map((item) => [item.documentId, item.score, item.rank])).toEqual([
      ['cats', 1, 1],
      ['tea', 0.5, 2],
    ]);
  });

  it('rejects with the abort reason, unchanged, when aborted during the LangChain call', async () => {
    const retriever = fromLangChainRetriever(new SlowRetriever());
    const controller = new AbortController();
    const reason = new Error('stop now');
    const pending = retriever.retrieve({ query: { text: 'tea' }, abortSignal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects what is not a LangChain retriever', () => {
    expect(() => fromLangChainRetriever(undefined as never)).toThrow(/argument "retriever"/);
  });
});
