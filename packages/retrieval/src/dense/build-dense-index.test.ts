import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { buildDenseIndex } from './build-dense-index.js';
import { createDenseRetriever } from './dense-retriever.js';
import { deserializeDenseIndex, restoreDenseRetriever, serializeDenseIndex } from './dense-serialization.js';

const documents = [
  { id: 'd1', title: 'Vitamin D', text: 'Vitamin D deficiency is common in northern countries during winter.', source: { name: 'SciFact', license: 'CC BY 4.0' } },
  { id: 'd2', text: 'The Eiffel Tower is in Paris, the capital of France.', metadata: { year: 1889 } },
  { id: 'd3', text: '   ' },
  { id: 'd1', text: 'a duplicate id' },
  { id: 'd4', text: 'Aspirin reduces the risk of heart attack in some adults.' },
];

describe('buildDenseIndex', () => {
  it('saves and loads to the same retriever as indexing in memory: same hits, scores, text and origin', async () => {
    const embedder = createMockEmbedder({ dimensions: 32 });
    const progress: number[] = [];
    const { snapshot, problems } = await buildDenseIndex(documents, { embedder, batchSize: 2, onProgress: ({ completed }) => progress.push(completed) });
    expect(snapshot.ids).toEqual(['d1', 'd2', 'd4']);
    expect(snapshot.documents).toEqual([{ text: documents[0]!.text, title: 'Vitamin D', source: { name: 'SciFact', license: 'CC BY 4.0' } }, { text: documents[1]!.text, metadata: { year: 1889 } }, { text: documents[4]!.text }]);
    expect(problems.map((problem) => [problem.index, problem.code])).toEqual([
      [2, 'empty-text'],
      [3, 'duplicate-id'],
    ]);
    expect(progress.at(-1)).toBe(3);

    const loaded = await restoreDenseRetriever(deserializeDenseIndex(serializeDenseIndex(snapshot)), { embedder });
    const direct = createDenseRetriever({ embedder });
    await direct.index({ documents });
    for (const text of ['vitamin d in winter', 'paris tower', 'heart attack']) {
      const a = await loaded.retrieve({ query: { text }, topK: 3 });
      const b = await direct.retrieve({ query: { text }, topK: 3 });
      expect(a.evidence).toEqual(b.evidence);
    }
    const { evidence } = await loaded.retrieve({ query: { text: 'vitamin d deficiency in winter' }, topK: 1 });
    expect(evidence[0]?.origin).toEqual({ documentId: 'd1', title: 'Vitamin D', source: { name: 'SciFact', license: 'CC BY 4.0' } });
    // The vectors are the embedder's passage vectors of `title. text`, row by row.
    const { embeddings } = await embedder.embed({ texts: [`Vitamin D. ${documents[0]!.text}`], kind: 'passage' });
    expect(Array.from(snapshot.vectors.subarray(0, 32))).toEqual(Array.from(embeddings[0]!));
  });
  it('rejects a missing embedder', async () => {
    await expect(buildDenseIndex(documents, { embedder: undefined as never })).rejects.toThrow(/embedder/);
  });
});
