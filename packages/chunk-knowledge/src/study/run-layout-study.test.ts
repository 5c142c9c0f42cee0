import type { Retriever } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createMockRetriever } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { PASSAGE_LAYOUTS } from '../indexing/layouts.js';
import type { AnnotatedChunk } from '../knowledge/types.js';
import { runLayoutStudy } from './run-layout-study.js';

const annotated = (id: string, documentId: string, text: string, title: string, questions: string[]): AnnotatedChunk => ({
  chunk: { id, documentId, ordinal: 0, text, start: 0, end: text.length },
  title,
  questions,
  titleSource: 'model',
  method: 'hand-made',
  problems: [],
});

// The chunk texts never name the topic; only titles and questions do, so layouts with them find more.
const items = [
  annotated('a#0', 'a', 'They purr and sleep a lot.', 'Cats', ['why do cats purr']),
  annotated('b#0', 'b', 'They bark at strangers.', 'Dogs', ['do dogs bark']),
  annotated('c#0', 'c', 'They sing at dawn and sleep a lot.', 'Birds', ['when do birds sing']),
];
const queries = [
  { id: 'q1', text: 'cats purr', documentIds: ['a'] },
  { id: 'q2', text: 'dogs', documentIds: ['b'] },
  { id: 'q3', text: 'sleep', documentIds: ['c'] },
];
const byName = (name: string) => PASSAGE_LAYOUTS.find((layout) => layout.name === name)!;

describe('runLayoutStudy', () => {
  it('Top@k, MRR and Avg per layout over the rendered passages (hand-checked)', async () => {
    const built: string[][] = [];
    const result = await runLayoutStudy({
      items,
      queries,
      layouts: [byName('case-1'), byName('case-2')],
      render: { open: '', close: '' },
      ks: [1, 2],
      createRetriever: (passages) => {
        built.push(passages.map((passage) => passage.text));
        return createMockRetriever(passages);
      },
    });
    // case-1 (chunk only): q1 "cats purr" → a#0 (purr) rank 1; q2 "dogs" → nothing; q3 "sleep" → a#0, c#0 tie → a#0 first (id order), c#0 rank 2.
    // case-2 (title only): q1 → a#0 (cats) rank 1; q2 → b#0 rank 1; q3 → nothing.
    expect(built[0]).toEqual(['They purr and sleep a lot.', 'They bark at strangers.', 'They sing at dawn and sleep a lot.']);
    expect(built[1]).toEqual(['Cats', 'Dogs', 'Birds']);
    const [chunkOnly, titleOnly] = result.rows;
    expect(chunkOnly).toMatchObject({ name: 'case-1', queries: 3, topK: { 1: 1 / 3, 2: 2 / 3 }, misses: [queries[1]] });
    expect(chunkOnly!.mrr).toBeCloseTo((1 + 0 + 1 / 2) / 3, 12);
    expect(chunkOnly!.average).toBeCloseTo((1 / 3 + 2 / 3) / 2, 12);
    expect(titleOnly).toMatchObject({ name: 'case-2', queries: 3, topK: { 1: 2 / 3, 2: 2 / 3 }, mrr: 2 / 3, misses: [queries[2]] });
    expect(result.ks).toEqual([1, 2]);
  });

  it('a failed retrieval leaves the query out of that row and reports it; a row with nothing scored has no numbers', async () => {
    const flaky: Retriever = {
      id: 'flaky',
      async retrieve({ query }) {
        if (query.id === 'q2') throw new Error('index offline');
        return { evidence: [{ documentId: 'a#0', text: '', score: 1 }] } as never;
      },
    };
    const broken: Retriever = { id: 'broken', retrieve: async () => Promise.reject(new Error('down')) };
    const result = await runLayoutStudy({
      items,
      queries,
      systems: [
        { name: 'flaky', retriever: flaky },
        { name: 'broken', retriever: broken },
      ],
      ks: [1],
    });
    expect(result.rows[0]).toMatchObject({ name: 'flaky', queries: 2, topK: { 1: 0.5 }, problems: [{ id: 'q2', code: 'retrieval-failed' }] });
    expect(result.rows[1]).toMatchObject({ name: 'broken', queries: 0 });
    expect(result.rows[1]!.topK).toBeUndefined();
    expect(result.rows[1]!.mrr).toBeUndefined();
  });

  it('rejects bad options', async () => {
    await expect(runLayoutStudy({ items, queries: [{ text: '', documentIds: [] }] })).rejects.toThrow(InvalidArgumentError);
    await expect(runLayoutStudy({ items, queries, ks: [0] })).rejects.toThrow(/ks/);
    await expect(runLayoutStudy({ items, queries, systems: [{ name: 'x', retriever: {} as Retriever }] })).rejects.toThrow(/systems/);
  });
});
