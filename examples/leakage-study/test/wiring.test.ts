import { createBm25Retriever } from '@factkit/retrieval';
import { describe, expect, it } from 'vitest';
import { createSubQueryFusionRetriever } from '../src/wiring.js';

describe('createSubQueryFusionRetriever', () => {
  const corpus = [
    { id: 'd1', text: 'apple banana' },
    { id: 'd2', text: 'banana cherry' },
    { id: 'd3', text: 'cherry date fig' },
  ];

  it('fuses the BM25 rankings of the claim and every sub-query (query.subQueries) with RRF (k = 60, hand-computed)', async () => {
    const retriever = createSubQueryFusionRetriever(createBm25Retriever(corpus));
    // The claim itself repeated as a sub-query is searched once.
    const { evidence } = await retriever.retrieve({ query: { text: 'apple', subQueries: ['apple', 'cherry'] }, topK: 5 });
    // 'apple' ranks d1 first; 'cherry' ranks d2 (shorter) before d3. RRF: d1 = 1/61, d2 = 1/61, d3 = 1/62; ties by id.
    expect(evidence.map((item) => item.documentId)).toEqual(['d1', 'd2', 'd3']);
    expect(evidence.map((item) => item.score)).toEqual([1 / 61, 1 / 61, 1 / 62]);
    expect(evidence.map((item) => item.rank)).toEqual([1, 2, 3]);
    expect(evidence[2]?.text).toBe('cherry date fig');
  });

  it('searches a plain claim (the baseline) with BM25 as is', async () => {
    const bm25 = createBm25Retriever(corpus);
    const retriever = createSubQueryFusionRetriever(bm25);
    const { evidence } = await retriever.retrieve({ query: { text: 'cherry' }, topK: 1 });
    expect(evidence).toEqual((await bm25.retrieve({ query: { text: 'cherry' }, topK: 1 })).evidence);
    expect(evidence[0]?.documentId).toBe('d2');
  });
});
