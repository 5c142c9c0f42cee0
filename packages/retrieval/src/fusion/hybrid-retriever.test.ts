import { InvalidArgumentError, type Evidence, type Retriever } from '@factkit/core';
import { createMockEmbedder, createMockRetriever } from '@factkit/core/testing';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createDenseRetriever } from '../dense/dense-retriever.js';
import { createHybridRetriever } from './hybrid-retriever.js';

const documents = [
  { id: 'd1', text: 'Vitamin D deficiency is common in northern countries during winter.' },
  { id: 'd2', text: 'The Eiffel Tower is in Paris, the capital of France.' },
  { id: 'd3', text: 'Aspirin reduces the risk of heart attack in some adults.' },
];

/** A retriever that returns a fixed ranking (and records the topK it was asked for). */
function fixed(id: string, ranking: [string, number][]): Retriever & { asked: number[] } {
  const asked: number[] = [];
  return {
    id,
    asked,
    async retrieve({ topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      asked.push(topK);
      const evidence: Evidence[] = ranking.slice(0, topK).map(([documentId, score], index) => ({ documentId, text: `${id}:${documentId}`, score, rank: index + 1, origin: { documentId } }));
      return { evidence, problems: [{ code: 'test-note', message: `${id} warned` }] };
    },
  };
}

describeRetrieverContract(
  'hybrid (overlap + dense, RRF)',
  async () => {
    const dense = createDenseRetriever({ embedder: createMockEmbedder() });
    await dense.index({ documents });
    return createHybridRetriever({ retrievers: [createMockRetriever(documents), dense] });
  },
  { query: 'vitamin d winter', expectedId: 'd1' },
);

describe('createHybridRetriever', () => {
  it('fuses with RRF (hand-checked), takes text from the first retriever that had the document', async () => {
    const lexical = fixed('lexical', [
      ['a', 12],
      ['b', 9],
      ['c', 3],
    ]);
    const dense = fixed('dense', [
      ['c', 0.9],
      ['a', 0.5],
      ['d', 0.1],
    ]);
    const hybrid = createHybridRetriever({ retrievers: [lexical, dense], candidateDepth: 50 });
    expect(hybrid.id).toBe('hybrid(lexical+dense)');
    const { evidence, problems } = await hybrid.retrieve({ query: { text: 'q' }, topK: 3 });
    expect(evidence.map((item) => [item.documentId, item.text, item.rank])).toEqual([
      ['a', 'lexical:a', 1],
      ['c', 'lexical:c', 2],
      ['b', 'lexical:b', 3],
    ]);
    expect(evidence[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 15);
    expect(lexical.asked).toEqual([50]);
    expect(problems).toEqual([
      { index: 0, code: 'test-note', message: 'lexical: lexical warned' },
      { index: 1, code: 'test-note', message: 'dense: dense warned' },
    ]);
  });

  it('applies weighted min-max fusion', async () => {
    const hybrid = createHybridRetriever({
      retrievers: [
        fixed('x', [
          ['a', 10],
          ['b', 0],
        ]),
        fixed('y', [
          ['b', 1],
          ['a', 0],
        ]),
      ],
      fusion: { method: 'min-max', weights: [0.3, 0.7] },
    });
    const { evidence } = await hybrid.retrieve({ query: { text: 'q' }, topK: 2 });
    expect(evidence.map((item) => [item.documentId, item.score])).toEqual([
      ['b', 0.7],
      ['a', 0.3],
    ]);
  });

  it('turns one failing retriever into a retriever-failed problem, and throws when all fail', async () => {
    const broken: Retriever = {
      id: 'broken',
      async retrieve() {
        throw new Error('index offline');
      },
    };
    const hybrid = createHybridRetriever({ retrievers: [broken, fixed('ok', [['a', 1]])] });
    const result = await hybrid.retrieve({ query: { text: 'q' } });
    expect(result.evidence.map((item) => item.documentId)).toEqual(['a']);
    expect(result.problems).toContainEqual({ index: 0, code: 'retriever-failed', message: 'broken failed: index offline' });
    await expect(createHybridRetriever({ retrievers: [broken] }).retrieve({ query: { text: 'q' } })).rejects.toThrow('index offline');
  });

  it('validates its options', () => {
    const error = (() => {
      try {
        createHybridRetriever({ retrievers: [] });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(InvalidArgumentError.isInstance(error) && error.argument).toBe('retrievers');
    expect(() => createHybridRetriever({ retrievers: [fixed('a', [])], fusion: { weights: [1, 2] } })).toThrow(/weights/);
    expect(() => createHybridRetriever({ retrievers: [fixed('a', [])], candidateDepth: 0 })).toThrow(/candidateDepth/);
  });
});
