import type { Document as FactkitDocument } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { describeRetrieverContract } from '@factkit/test-utils';
import { Document } from '@langchain/core/documents';
import { FakeVectorStore } from '@langchain/core/utils/testing';
import { fromLangChainRetriever, fromLangChainVectorStore, toLangChainRetriever } from '../src/index.js';
import { TermCountEmbeddings } from './term-embeddings.js';

const corpus: FactkitDocument[] = [
  { id: 'cats', title: 'Cats', text: 'Cats are small carnivorous mammals kept as pets.' },
  { id: 'dogs', title: 'Dogs', text: 'Dogs are domesticated mammals descended from wolves.' },
  { id: 'tea', title: 'Tea', text: 'Tea is a drink made by pouring hot water over cured leaves.' },
  { id: 'coffee', text: 'Coffee is a drink brewed from roasted coffee beans.' },
];

// factkit → LangChain → factkit: a BM25 retriever through both adapters still meets the contract.
describeRetrieverContract('fromLangChainRetriever(toLangChainRetriever(bm25))', () => fromLangChainRetriever(toLangChainRetriever(createBm25Retriever(corpus), { topK: 10 })), {
  query: 'mammals kept as pets',
  expectedId: 'cats',
});

// A LangChain vector store (LangChain's own in-memory store) as a factkit Retriever.
describeRetrieverContract(
  'fromLangChainVectorStore(FakeVectorStore)',
  async () => {
    const embeddings = new TermCountEmbeddings(['mammals', 'pets', 'drink', 'leaves', 'beans', 'wolves', 'cats', 'dogs']);
    const store = await FakeVectorStore.fromDocuments(
      corpus.map((document) => new Document({ pageContent: document.text, metadata: { id: document.id } })),
      embeddings,
    );
    return fromLangChainVectorStore(store);
  },
  { query: 'mammals kept as pets', expectedId: 'cats' },
);
