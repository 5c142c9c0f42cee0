import { describe, expect, it } from 'vitest';
import type { Evidence, Reranker } from '../index.js';

type Factory<T> = () => T | Promise<T>;

export interface RerankerContractOptions {
  /** A query the candidates are ranked for. */
  readonly query: string;
  /** Candidates (unique ids, non-empty text), at least 3. */
  readonly candidates: readonly Evidence[];
  /** The candidate id a good reranker puts first for `query` (checked when given). */
  readonly expectedFirstId?: string;
}

/** Checks any Reranker: a reordering of the candidates (no new or repeated ids), descending scores, ranks, topK, abort. */
export function describeRerankerContract(name: string, factory: Factory<Reranker>, options: RerankerContractOptions): void {
  const { query, candidates, expectedFirstId } = options;
  const byId = new Map(candidates.map((item) => [item.documentId, item]));
  describe(`Reranker contract: ${name}`, () => {
    it('has a non-empty string id', async () => {
      const reranker = await factory();
      expect(typeof reranker.id === 'string' && reranker.id.length > 0).toBe(true);
    });
    it('returns every candidate once, sorted by descending finite score, with 1-based ranks and the candidates’ fields', async () => {
      const reranker = await factory();
      const { evidence } = await reranker.rerank({ query: { text: query }, evidence: candidates });
      expect(evidence.map((item) => item.documentId).sort()).toEqual(candidates.map((item) => item.documentId).sort());
      evidence.forEach((item, index) => {
        expect(Number.isFinite(item.score)).toBe(true);
        if (index > 0) expect(evidence[index - 1]!.score).toBeGreaterThanOrEqual(item.score);
        expect(item.rank).toBe(index + 1);
        const candidate = byId.get(item.documentId)!;
        expect(item.text).toBe(candidate.text);
        expect(item.origin).toEqual(candidate.origin);
      });
    });
    it('keeps the first topK of its full ordering, and nothing for topK 0 or no candidates', async () => {
      const reranker = await factory();
      const full = await reranker.rerank({ query: { text: query }, evidence: candidates });
      const top = await reranker.rerank({ query: { text: query }, evidence: candidates, topK: 2 });
      expect(top.evidence.map((item) => item.documentId)).toEqual(full.evidence.slice(0, 2).map((item) => item.documentId));
      expect((await reranker.rerank({ query: { text: query }, evidence: candidates, topK: 0 })).evidence).toEqual([]);
      expect((await reranker.rerank({ query: { text: query }, evidence: [] })).evidence).toEqual([]);
    });
    it.runIf(expectedFirstId !== undefined)('puts the expected candidate first', async () => {
      const reranker = await factory();
      const { evidence } = await reranker.rerank({ query: { text: query }, evidence: candidates });
      expect(evidence[0]?.documentId).toBe(expectedFirstId);
    });
    it('rejects with the abort reason, unchanged', async () => {
      const reranker = await factory();
      const controller = new AbortController();
      const reason = new DOMException('contract-test-abort', 'AbortError');
      controller.abort(reason);
      await expect(reranker.rerank({ query: { text: query }, evidence: candidates, abortSignal: controller.signal })).rejects.toBe(reason);
    });
  });
}
