import { chunkDocuments, getPassageLayout, createOfflineAnnotator, createSentenceChunker } from '@factkit/chunk-knowledge';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { selectClaims, selectSubset } from '../src/scifact.js';
import { runTable7 } from '../src/study.js';

const corpus = [
  { id: 'A', text: 'Aspirin lowers fever in adults. It is an old drug. Many trials confirm this effect on body temperature.' },
  { id: 'B', text: 'Statins reduce LDL cholesterol. Muscle pain is a known side effect of statins.' },
  { id: 'C', text: 'Vitamin D deficiency is common in northern countries during winter.' },
];
const data = {
  corpus,
  queries: [
    { id: '1', text: 'aspirin reduces fever' },
    { id: '2', text: 'statins cause muscle pain' },
  ],
  qrels: { '1': { A: 1 }, '2': { B: 1 } },
};

describe('SciFact subsets', () => {
  it('builds a documented subset: all gold abstracts plus seeded distractors, the same for the same seed', () => {
    const big = { ...data, corpus: [...corpus, ...Array.from({ length: 10 }, (_, i) => ({ id: `X${i}`, text: `Filler ${i}.` }))] };
    const subset = selectSubset(big, { distractors: 3, seed: 7 });
    expect(subset.map((d) => d.id)).toEqual(expect.arrayContaining(['A', 'B']));
    expect(subset).toHaveLength(5);
    expect(selectSubset(big, { distractors: 3, seed: 7 })).toEqual(subset);
    expect(selectClaims(big, { count: 1, seed: 7 }).queries).toHaveLength(1);
  });
});

describe('runTable7 (through @factkit/chunk-knowledge runLayoutStudy)', () => {
  it('runs BM25 and a dense encoder over layouts and finds the gold chunks of easy claims', async () => {
    const { chunks } = chunkDocuments(corpus, { chunker: createSentenceChunker({ maxTokens: 12 }) });
    const items = chunks.map((chunk) => createOfflineAnnotator().annotate(chunk));
    const rows = await runTable7({ items, variant: 'offline', queries: data.queries, qrels: data.qrels, layouts: [getPassageLayout('case-1'), getPassageLayout('case-6')], embedder: createMockEmbedder({ dimensions: 128 }) });
    expect(rows.map((row) => `${row.system}/${row.layout}`)).toEqual([
      'BM25/case-1',
      'BM25/case-6',
      'BM25/fielded(t1,q1,c1)',
      'mock:hash-embedder/case-1',
      'mock:hash-embedder/case-6',
      'mock:hash-embedder/multi-vector(max)',
      'mock:hash-embedder/multi-vector(sum)',
    ]);
    const bm25 = rows[0]!;
    expect(bm25.top1).toBe(100);
    expect(bm25.queries).toBe(2);
  });
});
