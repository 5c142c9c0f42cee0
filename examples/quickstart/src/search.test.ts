import { describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from '@factkit/use-lite';
import { loadWordNetDocuments } from '@factkit/retrieval/node';
import { QUICKSTART_QUESTIONS } from './questions.js';
import { buildRetrievers, denseCandidates } from './search.js';

describe('quickstart retrievers (WordNet 3.1 nouns, real USE-lite encoder and BM25)', () => {
  it('every recorded answer is a WordNet noun synset', async () => {
    const ids = new Set((await loadWordNetDocuments()).map((document) => document.id));
    for (const question of QUICKSTART_QUESTIONS) expect(ids.has(question.answer), question.text).toBe(true);
  });

  it('finds Canberra for "What is the capital of Australia?" with BM25, dense re-scoring of its candidates, and RRF', async () => {
    const documents = await loadWordNetDocuments({ instancesOnly: true }); // 7,742 synsets keep CI quick
    const question = QUICKSTART_QUESTIONS.find((q) => q.answer === 'wn:n:08851261')!;
    const bm25Only = (await buildRetrievers(createUseLiteEmbedder(), documents, { denseDocuments: documents.slice(0, 1) })).bm25;
    const pool = await denseCandidates(bm25Only, documents, [question.text], 20);
    expect(pool).toHaveLength(20);
    expect(pool.map((document) => document.id)).toContain(question.answer);
    const retrievers = await buildRetrievers(createUseLiteEmbedder(), documents, { denseDocuments: pool });
    for (const retriever of [retrievers.bm25, retrievers.dense, retrievers.hybrid]) {
      const { evidence } = await retriever.retrieve({ query: { text: question.text }, topK: 3 });
      expect(evidence).toHaveLength(3);
      expect(
        evidence.map((item) => item.documentId),
        retriever.id,
      ).toContain(question.answer);
    }
  });
});
