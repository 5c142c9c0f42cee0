import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../analysis/analyzer.js';
import { createBm25Index } from '../bm25/bm25-index.js';
import { createBm25Retriever } from '../bm25/bm25-retriever.js';
import { computeRm3Model, createRm3Expander } from './rm3-expander.js';

const whitespace: Analyzer = { id: 'whitespace', analyze: (text) => text.split(/\s+/).filter(Boolean) };
const documents = [
  { id: 'd1', text: 'apple apple banana cherry' },
  { id: 'd2', text: 'apple date date' },
  { id: 'd3', text: 'fig grape' },
  { id: 'd4', text: 'kiwi lemon' },
];

describe('RM3', () => {
  it("computes Anserini's relevance model by hand on a tiny corpus", () => {
    const index = createBm25Index({ analyzer: whitespace, documents });
    const [s1, s2] = index.search('apple').hits.map((hit) => hit.score) as [number, number];
    const model = computeRm3Model(index, { text: 'apple' }, { fbDocs: 2, fbTerms: 3, filterTerms: false });
    // d1 vector pruned to 3 terms by tf: apple 2, banana 1, cherry 1 (ties by term) → norm 4; d2: date 2, apple 1 → norm 3.
    const raw = new Map([
      ['apple', (2 / 4) * s1 + (1 / 3) * s2],
      ['banana', (1 / 4) * s1],
      ['cherry', (1 / 4) * s1],
      ['date', (2 / 3) * s2],
    ]);
    const kept = [...raw].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
    const total = kept.reduce((sum, [, value]) => sum + value, 0);
    expect(model.relevanceModel.map((entry) => entry.term)).toEqual(kept.map(([term]) => term));
    model.relevanceModel.forEach((entry, position) => expect(entry.weight).toBeCloseTo((kept[position]?.[1] as number) / total, 12));
    const apple = model.terms.find((entry) => entry.term === 'apple')?.weight as number;
    expect(apple).toBeCloseTo(0.5 * 1 + 0.5 * ((raw.get('apple') as number) / total), 12);
    expect(model.terms.reduce((sum, entry) => sum + entry.weight, 0)).toBeCloseTo(1, 12);
    expect(model.feedbackDocumentIds).toEqual(['d1', 'd2']);
  });
  it("drops short, non-alphanumeric and too-common terms (Anserini's filter)", () => {
    const many = Array.from({ length: 30 }, (_, index) => ({ id: `f${index}`, text: `common filler${index}` }));
    const index = createBm25Index({ analyzer: whitespace, documents: [{ id: 'x', text: 'target common a b-c rare' }, ...many] });
    const model = computeRm3Model(index, { text: 'target' }, { fbDocs: 1 });
    expect(model.relevanceModel.map((entry) => entry.term).sort()).toEqual(['rare', 'target']);
  });
  it('is a QueryExpander whose output the BM25 retriever scores with the weighted terms', async () => {
    const index = createBm25Index({ analyzer: whitespace, documents });
    const expander = createRm3Expander({ index, fbDocs: 2, fbTerms: 3, filterTerms: false });
    expect(expander).toMatchObject({ usesLanguageModel: false, id: 'rm3(fbDocs=2,fbTerms=3,originalQueryWeight=0.5)' });
    // (filterTerms off: in a 4-document corpus every term is in > 10% of documents)
    const expanded = await expander.expand({ query: { id: 'q', text: 'apple' } });
    expect(expanded.original).toEqual({ id: 'q', text: 'apple' });
    expect(expanded.provenance).toBeUndefined();
    expect(expanded.text.startsWith('apple ')).toBe(true);
    // The interpolated model travels in the typed channel; nothing generated, no "term:weight" text anywhere.
    const model = computeRm3Model(index, { text: 'apple' }, { fbDocs: 2, fbTerms: 3, filterTerms: false });
    expect(expanded.weightedTerms).toEqual(model.terms);
    expect(expanded.generations).toEqual([]);
    expect(expanded.feedback).toEqual({ method: 'rm3', documentIds: ['d1', 'd2'], parameters: { fbDocs: 2, fbTerms: 3, originalQueryWeight: 0.5 } });
    expect(expanded.metadata).toBeUndefined();
    expect(JSON.stringify(expanded)).not.toMatch(/[a-z]:\d\.\d{4}/);
    const { evidence } = await createBm25Retriever(index).retrieve({ query: expanded, topK: 4 });
    expect(evidence.map((item) => [item.documentId, item.score])).toEqual(index.search({ terms: model.terms }, { topK: 4 }).hits.map((hit) => [hit.id, hit.score]));
    // Only the feedback documents share terms with the expanded query.
    expect(evidence.map((item) => item.documentId).sort()).toEqual(['d1', 'd2']);
  });
  it('validates options and rethrows abort reasons', async () => {
    const index = createBm25Index({ analyzer: whitespace, documents });
    expect(() => createRm3Expander({ index, fbDocs: 0 })).toThrow(/"fbDocs"/);
    expect(() => createRm3Expander({ index, originalQueryWeight: 2 })).toThrow(/"originalQueryWeight"/);
    const controller = new AbortController();
    controller.abort('why');
    await expect(createRm3Expander({ index }).expand({ query: { text: 'apple' }, abortSignal: controller.signal })).rejects.toBe('why');
  });
});
