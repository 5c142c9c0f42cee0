import { InvalidArgumentError, type Embedder } from '@factkit/core';
import { createMockRetriever } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { createDenseRetriever } from '../dense/dense-retriever.js';
import { createInMemoryVectorStore } from '../stores/in-memory-vector-store.js';
import { createRocchioExpander } from './rocchio-expander.js';

const table: Record<string, number[]> = {
  query: [1, 0, 0],
  near: [0.9, 0.3, 0],
  close: [0.7, 0, 0.7],
  mid: [0.5, 0.5, 0.5],
  far: [0, 0, 1],
};

function createTableEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: 'table',
    dimensions: 3,
    calls,
    async embed({ texts }) {
      calls.push([...texts]);
      return { embeddings: texts.map((text) => Float32Array.from(table[text] ?? [0, 1, 0])) };
    },
  };
}

async function setup() {
  const embedder = createTableEmbedder();
  const store = createInMemoryVectorStore({ dimensions: 3 });
  const retriever = createDenseRetriever({ embedder, store });
  await retriever.index({ documents: ['near', 'close', 'mid', 'far'].map((text) => ({ id: text, text })) });
  return { embedder, store, retriever };
}

describe('createRocchioExpander', () => {
  it('computes alpha·q + beta·mean(top k) − gamma·mean(next n) (hand-checked)', async () => {
    const { embedder, store, retriever } = await setup();
    // ranking for query (1,0,0): near (cos .949), close (.707), mid (.577), far (0)
    const rocchio = createRocchioExpander({ embedder, retriever, alpha: 1, beta: 0.5, gamma: 0.25, feedbackDocuments: 2, nonRelevantDocuments: 1, getVector: store.getVector });
    expect(rocchio.usesLanguageModel).toBe(false);
    const expanded = await rocchio.expand({ query: { id: 'q1', text: 'query' } });
    // mean(near, close) = (0.8, 0.15, 0.35); mid = (0.5, 0.5, 0.5)
    // 1·(1,0,0) + 0.5·(0.8,0.15,0.35) − 0.25·(0.5,0.5,0.5) = (1.275, −0.05, 0.05)
    expect(Array.from(expanded.vector!).map((value) => Number(value.toFixed(6)))).toEqual([1.275, -0.05, 0.05]);
    expect(expanded.text).toBe('query');
    expect(expanded.id).toBe('q1');
    expect(expanded.original).toEqual({ id: 'q1', text: 'query' });
    expect(expanded.provenance).toBeUndefined();
    expect(expanded.feedback).toMatchObject({ method: 'rocchio', documentIds: ['near', 'close'], nonRelevantDocumentIds: ['mid'] });
    expect(expanded.metadata).toBeUndefined();
    // vectors came from the store: only the query was embedded during expand
    expect(embedder.calls.at(-1)).toEqual(['query']);
  });

  it('re-embeds feedback documents when no vector lookup is given (works over any retriever)', async () => {
    const embedder = createTableEmbedder();
    const lexical = createMockRetriever([
      { id: 'n', text: 'near' },
      { id: 'f', text: 'far' },
    ]);
    const rocchio = createRocchioExpander({ embedder, retriever: lexical, beta: 1, feedbackDocuments: 1 });
    const expanded = await rocchio.expand({ query: { text: 'near' } });
    // query 'near' = (0.9,0.3,0); top document 'near' = same → 2×
    expect(Array.from(expanded.vector!).map((value) => Number(value.toFixed(6)))).toEqual([1.8, 0.6, 0]);
    expect(embedder.calls).toEqual([['near'], ['near']]);
  });

  it('moves the dense ranking toward the feedback documents', async () => {
    const { embedder, store, retriever } = await setup();
    const rocchio = createRocchioExpander({ embedder, retriever, beta: 4, feedbackDocuments: 2, getVector: store.getVector });
    const expanded = await rocchio.expand({ query: { text: 'query' } });
    const before = await retriever.retrieve({ query: { text: 'query' }, topK: 4 });
    const after = await retriever.retrieve({ query: expanded, topK: 4 });
    expect(before.evidence.map((item) => item.documentId)).toEqual(['near', 'close', 'mid', 'far']);
    // q' = (1,0,0) + 4·(0.8,0.15,0.35) = (4.2, 0.6, 1.4); cos(q', close) = 3.92 / (‖q'‖·‖close‖)
    const score = (result: typeof after, id: string) => result.evidence.find((item) => item.documentId === id)!.score;
    expect(score(before, 'close')).toBeCloseTo(Math.SQRT1_2, 6);
    expect(score(after, 'close')).toBeCloseTo(3.92 / (Math.hypot(4.2, 0.6, 1.4) * Math.hypot(0.7, 0.7)), 6);
    expect(score(after, 'far')).toBeGreaterThan(score(before, 'far'));
  });

  it('reports a problem when no feedback document comes back, and validates options', async () => {
    const embedder = createTableEmbedder();
    const empty = createDenseRetriever({ embedder });
    const expanded = await createRocchioExpander({ embedder, retriever: empty }).expand({ query: { text: 'query' } });
    expect(Array.from(expanded.vector!)).toEqual([1, 0, 0]);
    expect(expanded.problems?.[0]?.code).toBe('no-feedback-documents');
    const argumentOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return InvalidArgumentError.isInstance(error) ? error.argument : 'not-invalid-argument';
      }
      return undefined;
    };
    expect(argumentOf(() => createRocchioExpander({ embedder, retriever: empty, beta: -1 }))).toBe('beta');
    expect(argumentOf(() => createRocchioExpander({ embedder, retriever: empty, gamma: 0.2 }))).toBe('gamma');
    expect(argumentOf(() => createRocchioExpander({ embedder, retriever: empty, feedbackDocuments: 0 }))).toBe('feedbackDocuments');
    await expect(createRocchioExpander({ embedder, retriever: empty }).expand({ query: { text: ' ' } })).rejects.toThrow(/query.text/);
  });

  it('rethrows the abort reason unchanged', async () => {
    const { embedder, retriever } = await setup();
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createRocchioExpander({ embedder, retriever }).expand({ query: { text: 'query' }, abortSignal: controller.signal })).rejects.toBe(reason);
  });
});
