import { CASE_1_CHUNK, CASE_6_QUESTIONS_CHUNK, chunkDocuments, createOfflineAnnotator, createSentenceChunker } from '@factkit/chunk-knowledge';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { selectClaims, selectSubset, toChunkQrels } from '../src/scifact.js';
import { runLayoutStudy, scoreRun } from '../src/study.js';

const corpus = [
  { id: 'A', text: 'Aspirin lowers fever in adults. It is an old drug. Many trials confirm this effect on body temperature.' },
  { id: 'B', text: 'Statins reduce LDL cholesterol. Muscle pain is a known side effect of statins.' },
  { id: 'C', text: 'Vitamin D deficiency is common in northern countries during winter.' },
];
const data = { corpus, queries: [{ id: '1', text: 'aspirin reduces fever' }, { id: '2', text: 'statins cause muscle pain' }], qrels: { '1': { A: 1 }, '2': { B: 1 } } };

describe('chunk-level relevance', () => {
  it('marks every chunk of a gold abstract relevant', () => {
    const qrels = toChunkQrels({ q: { A: 1, C: 0 } }, [{ id: 'A#0', documentId: 'A' }, { id: 'A#1', documentId: 'A' }, { id: 'B#0', documentId: 'B' }, { id: 'C#0', documentId: 'C' }]);
    expect(qrels).toEqual({ q: { 'A#0': 1, 'A#1': 1 } });
  });

  it('scores Top@k as the share of claims with a right chunk in the top k, MRR over chunks (hand-checked)', () => {
    const qrels = { q1: { 'A#0': 1, 'A#1': 1 }, q2: { 'B#0': 1 } };
    const run = { q1: { 'C#0': 3, 'A#1': 2, 'A#0': 1 }, q2: { 'C#0': 2, 'A#0': 1.5, 'A#1': 1.2, 'B#0': 1 } };
    const row = scoreRun('s', 'v', 'l', qrels, run);
    expect([row.top1, row.top3, row.top5, row.top10]).toEqual([0, 50, 100, 100]);
    expect(row.mrr).toBeCloseTo(100 * (0.5 + 0.25) / 2, 10);
    expect(row.average).toBeCloseTo(62.5, 10);
  });

  it('builds a documented subset: all gold abstracts plus seeded distractors, the same for the same seed', () => {
    const big = { ...data, corpus: [...corpus, ...Array.from({ length: 10 }, (_, i) => ({ id: `X${i}`, text: `Filler ${i}.` }))] };
    const subset = selectSubset(big, { distractors: 3, seed: 7 });
    expect(subset.map((d) => d.id)).toEqual(expect.arrayContaining(['A', 'B']));
    expect(subset).toHaveLength(5);
    expect(selectSubset(big, { distractors: 3, seed: 7 })).toEqual(subset);
    expect(selectClaims(big, { count: 1, seed: 7 }).queries).toHaveLength(1);
  });
});

describe('runLayoutStudy', () => {
  it('runs BM25 and a dense encoder over layouts and finds the gold chunks of easy claims', async () => {
    const { chunks } = chunkDocuments(corpus, { chunker: createSentenceChunker({ maxTokens: 12 }) });
    const items = chunks.map((chunk) => createOfflineAnnotator().annotate(chunk));
    const rows = await runLayoutStudy({ items, variant: 'offline', queries: data.queries, qrels: toChunkQrels(data.qrels, chunks), layouts: [CASE_1_CHUNK, CASE_6_QUESTIONS_CHUNK], embedder: createMockEmbedder({ dimensions: 128 }) });
    expect(rows.map((row) => `${row.system}/${row.layout}`)).toEqual([
      'BM25/case-1', 'BM25/case-6', 'BM25/fielded(t1,q1,c1)',
      'mock:hash-embedder/case-1', 'mock:hash-embedder/case-6', 'mock:hash-embedder/multi-vector(max)', 'mock:hash-embedder/multi-vector(sum)',
    ]);
    const bm25 = rows[0]!;
    expect(bm25.top1).toBe(100);
    expect(bm25.queries).toBe(2);
  });
});
