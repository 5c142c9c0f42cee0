import type { Embedder, FieldedDocument, Progress, VectorMatch, VectorStore } from '@factkit/core';
import { createMockEmbedder, createMockVectorStore } from '@factkit/core/testing';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createDenseRetrieverFactory } from './dense-retriever-factory.js';

const documents: FieldedDocument[] = [
  {
    id: 'a',
    fields: { title: 'Vitamin D in winter', questions: ['When is vitamin D low?', ''], chunk: 'Vitamin D deficiency is common in winter.' },
    text: 'Vitamin D deficiency is common in winter.',
    origin: { documentId: 'A', chunkId: 'a' },
  },
  {
    id: 'b',
    fields: { title: 'Statins', questions: ['What do statins reduce?'], chunk: 'Statins reduce cholesterol levels.' },
    text: 'Statins reduce cholesterol levels.',
    origin: { documentId: 'B', chunkId: 'b' },
    metadata: { shelf: 'cardio' },
  },
  { id: 'c', fields: { title: '', chunk: 'Aspirin lowers fever in adults.' }, text: 'Aspirin lowers fever in adults.', origin: { documentId: 'C', chunkId: 'c' } },
];

describeRetrieverContract(
  'dense factory (title, questions, chunk; max fold)',
  () => createDenseRetrieverFactory({ embedder: createMockEmbedder({ dimensions: 64 }) }).createRetriever({ documents, fields: { title: 1, questions: 1, chunk: 1 } }),
  { query: 'vitamin D deficiency in winter', expectedId: 'a' },
);

describe('createDenseRetrieverFactory', () => {
  it('one vector per non-empty field text, ids <id>::<field>[i]; empty texts reported', async () => {
    const store = createMockVectorStore({ dimensions: 64 });
    const retriever = await createDenseRetrieverFactory({ embedder: createMockEmbedder({ dimensions: 64 }), createStore: () => store }).createRetriever({ documents, fields: { title: 1, questions: 1, chunk: 1 } });
    expect(retriever.vectorCount).toBe(3 + 3 + 1);
    expect(await store.count()).toBe(7);
    expect(retriever.problems.map((problem) => [problem.id, problem.code])).toEqual([
      ['a', 'empty-field'],
      ['c', 'empty-field'],
    ]);
    const { evidence } = await retriever.retrieve({ query: { text: 'What do statins reduce?' }, topK: 1 });
    expect(evidence).toEqual([{ documentId: 'b', text: 'Statins reduce cholesterol levels.', score: expect.closeTo(1, 5), rank: 1, origin: { documentId: 'B', chunkId: 'b' }, metadata: { shelf: 'cardio' } }]);
  });
  it('folds vector hits to their document by max or sum of weight × score (hand-checked)', async () => {
    const matches: VectorMatch[] = [
      { id: 'a::title', score: 0.9 },
      { id: 'b::questions0', score: 0.8 },
      { id: 'b::questions1', score: 0.7 },
      { id: 'a::chunk', score: 0.1 },
    ];
    const scripted: VectorStore = { id: 'scripted', dimensions: 2, metric: 'cosine', upsert: async () => {}, delete: async () => {}, count: async () => 4, query: async () => ({ matches }) };
    const embedder: Embedder = { id: 'e', dimensions: 2, embed: async ({ texts }) => ({ embeddings: texts.map(() => new Float32Array([1, 0])) }) };
    const two: FieldedDocument[] = [
      { id: 'a', fields: { title: 't', chunk: 'c' }, text: 'A', origin: { documentId: 'a' } },
      { id: 'b', fields: { questions: ['q0', 'q1'] }, text: 'B', origin: { documentId: 'b' } },
    ];
    const make = (fold: 'max' | 'sum', fields: Record<string, number>) => createDenseRetrieverFactory({ embedder, fold, createStore: () => scripted }).createRetriever({ documents: two, fields });
    const byMax = await (await make('max', { title: 1, questions: 1, chunk: 1 })).retrieve({ query: { text: 'q' } });
    expect(byMax.evidence.map((e) => [e.documentId, e.score])).toEqual([
      ['a', 0.9],
      ['b', 0.8],
    ]);
    const bySum = await (await make('sum', { title: 1, questions: 1, chunk: 1 })).retrieve({ query: { text: 'q' } });
    expect(bySum.evidence.map((e) => e.documentId)).toEqual(['b', 'a']);
    expect(bySum.evidence[0]!.score).toBeCloseTo(1.5);
    expect(bySum.evidence[1]!.score).toBeCloseTo(1.0);
    // A weight scales that field's hits: title at 0.5 makes a = max(0.45, 0.1).
    const weighted = await (await make('max', { title: 0.5, questions: 1, chunk: 1 })).retrieve({ query: { text: 'q' } });
    expect(weighted.evidence.map((e) => [e.documentId, e.score])).toEqual([
      ['b', 0.8],
      ['a', 0.45],
    ]);
  });
  it('rejects bad options, a store of other dimensions and no positive weight', async () => {
    const embedder = createMockEmbedder({ dimensions: 8 });
    expect(() => createDenseRetrieverFactory({ embedder, fold: 'mean' as never })).toThrow(/fold/);
    expect(() => createDenseRetrieverFactory({ embedder, fanOut: 0 })).toThrow(/fanOut/);
    await expect(createDenseRetrieverFactory({ embedder, createStore: () => createMockVectorStore({ dimensions: 4 }) }).createRetriever({ documents, fields: { chunk: 1 } })).rejects.toThrow(/4 dimensions/);
    await expect(createDenseRetrieverFactory({ embedder }).createRetriever({ documents, fields: { chunk: 0 } })).rejects.toThrow(/at least one field/);
  });
  it('reports core Progress after each embedded batch: completed / total vectors', async () => {
    const calls: Progress[] = [];
    const three = ['a', 'b', 'c'].map((id): FieldedDocument => ({ id, fields: { chunk: `text of ${id}` }, text: `text of ${id}`, origin: { documentId: id } }));
    await createDenseRetrieverFactory({ embedder: createMockEmbedder({ dimensions: 8 }), batchSize: 2, onProgress: (progress) => calls.push(progress) }).createRetriever({ documents: three, fields: { chunk: 1 } });
    expect(calls).toEqual([
      { completed: 2, total: 3 },
      { completed: 3, total: 3 },
    ]);
  });
});
