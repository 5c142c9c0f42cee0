import type { Run } from '@factkit/core';
import { evaluateRun } from '@factkit/metrics';
import { describeWithData } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { createBm25Retriever } from '../src/index.js';
import { buildBm25IndexFromJsonl, loadBeirDataset } from '../src/node.js';

// Anserini's BEIR regression for SciFact "flat" (title + text, Lucene English analyzer, k1 = 0.9, b = 0.4) reports
// nDCG@10 = 0.6789 and R@100 = 0.9253 over all 300 test queries. The data root's scifact/ holds 240 of the 300,
// so those figures cannot be matched exactly; a ±0.03 window around them was too loose to catch real mistakes
// (b = 0, Robertson's idf, BM25+ and no stemming all landed inside it). The values below are pinned to 1e-5: they are
// this implementation's output on the 240 queries, which is Lucene's arithmetic (see bm25-index.test.ts), and each of
// those four mistakes moves nDCG@10, R@100 or MAP by far more than 1e-5 (checked by mutating the source; see docs/retrieval.md).
const PINNED = { ndcg_cut_10: 0.696649, recall_100: 0.917083, map: 0.659107 } as const;

describeWithData('scifact', 'BM25 on BEIR SciFact (240 of the 300 test queries), through the public Bm25Retriever', (folder) => {
  it('gives the pinned nDCG@10, R@100 and MAP, near Anserini on the full 300', async () => {
    const dataset = await loadBeirDataset(folder, { split: 'test' });
    const { index, problems } = await buildBm25IndexFromJsonl(dataset.corpusPath, { storeDocuments: false });
    expect(problems).toEqual([]);
    expect(dataset.queries).toHaveLength(240);
    expect(index.documentCount).toBe(5183);
    const retriever = createBm25Retriever(index);
    const run: Record<string, Record<string, number>> = {};
    for (const query of dataset.queries) {
      const { evidence } = await retriever.retrieve({ query, topK: 1000 });
      run[query.id as string] = Object.fromEntries(evidence.map((item) => [item.documentId, item.score]));
    }
    const { aggregate } = evaluateRun(dataset.qrels, run as Run, { metrics: ['ndcg_cut_10', 'recall_100', 'map'] });
    expect(aggregate.ndcg_cut_10).toBeCloseTo(PINNED.ndcg_cut_10, 5);
    expect(aggregate.recall_100).toBeCloseTo(PINNED.recall_100, 5);
    expect(aggregate.map).toBeCloseTo(PINNED.map, 5);
    // The subset mean stays near Anserini's full-set figures.
    expect(Math.abs((aggregate.ndcg_cut_10 as number) - 0.6789)).toBeLessThan(0.03);
    expect(retriever.id).toBe('bm25(k1=0.9,b=0.4)');
  });
});
