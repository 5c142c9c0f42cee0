import type { Document as FactkitDocument } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createBm25Retriever } from '@factkit/retrieval';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, it } from 'vitest';
import { fromLangChainRetriever } from './from-langchain.js';
import { toLangChainRetriever } from './to-langchain-retriever.js';

const corpus: FactkitDocument[] = [
  { id: 'cats', title: 'Cats', text: 'Cats are small mammals kept as pets.', source: { name: 'notes', url: 'https://example.org/cats' }, metadata: { shelf: 3 } },
  { id: 'dogs', title: 'Dogs', text: 'Dogs are mammals descended from wolves.' },
  { id: 'tea', text: 'Tea is a drink made from leaves.' },
];

describe('toLangChainRetriever', () => {
  it("returns the factkit ranking as LangChain documents (text, id, the user's metadata, score, rank, origin)", async () => {
    const bm25 = createBm25Retriever(corpus);
    const expected = (await bm25.retrieve({ query: { text: 'mammals pets' }, topK: 2 })).evidence;
    const documents = await toLangChainRetriever(bm25, { topK: 2 }).invoke('mammals pets');
    expect(documents.map((document) => document.id)).toEqual(['cats', 'dogs']);
    expect(documents[0]?.pageContent).toBe('Cats are small mammals kept as pets.');
    expect(documents[0]?.metadata).toEqual({
      shelf: 3,
      factkit: { documentId: 'cats', score: expected[0]?.score, rank: 1, origin: { documentId: 'cats', title: 'Cats', source: { name: 'notes', url: 'https://example.org/cats' } } },
    });
    expect(documents[1]?.metadata.factkit.rank).toBe(2);
  });

  it('composes in a LangChain chain (pipe) and round-trips origins back to factkit', async () => {
    const chain = toLangChainRetriever(createBm25Retriever(corpus)).pipe(RunnableLambda.from((documents: { id?: string }[]) => documents.map((document) => document.id).join(',')));
    expect(await chain.invoke('wolves')).toBe('dogs');
    const back = fromLangChainRetriever(toLangChainRetriever(createBm25Retriever(corpus)));
    const { evidence } = await back.retrieve({ query: { text: 'pets' }, topK: 1 });
    expect(evidence[0]?.origin).toEqual({ documentId: 'cats', title: 'Cats', source: { name: 'notes', url: 'https://example.org/cats' } });
  });

  it('rejects a non-retriever and a bad topK', () => {
    expect(() => toLangChainRetriever({} as never)).toThrow(InvalidArgumentError);
    expect(() => toLangChainRetriever(createBm25Retriever(corpus), { topK: -1 })).toThrow(/topK/);
  });
});
