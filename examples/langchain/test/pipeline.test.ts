import { describe, expect, it } from 'vitest';
import { buildPipeline } from '../src/pipeline.js';

describe('langchain example', () => {
  it('runs a factkit retriever in a LangChain chain, a LangChain store as a factkit retriever, and the checker runnable', async () => {
    const { corpus, searchChain, storeRetriever, checkChain } = await buildPipeline({ limit: 400 });
    const target = corpus[123]!;
    // BM25 on a document's own full text ranks that document first.
    const lines = (await searchChain.invoke(target.text)).split('\n');
    expect(lines[0]).toContain(`[${target.id}]`);
    expect(lines).toHaveLength(3);
    // The LangChain store returns the document itself (cosine 1) for its own text, with a typed origin.
    const { evidence } = await storeRetriever.retrieve({ query: { text: target.text }, topK: 2 });
    expect(evidence[0]?.documentId).toBe(target.id);
    expect(evidence[0]?.score).toBeCloseTo(1, 5);
    expect(evidence[0]?.origin).toEqual({ documentId: target.id, title: target.title, source: { name: 'WordNet 3.1' } });
    const [summary] = await checkChain.batch([{ id: 'x', question: `What is ${target.title}?`, answer: target.text }]);
    expect(['hallucinated', 'not-hallucinated', 'unverifiable']).toContain(summary?.label);
    expect(summary?.claims.length).toBeGreaterThan(0);
  });
});
