import { detectHallucinations, formatDetectionText } from '@factkit/claim-query';
import { segmentSentences } from '@factkit/core';
import { describeWithData } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { composeFeverResponses, detokenizeFever, poolEvidence, type FeverClaim } from '../src/fever-compose.js';
import { createOfflineComponents } from '../src/offline-components.js';
import { readJsonl } from '../src/shared.js';

describe('FEVER text', () => {
  it('detokenises FEVER text', () => {
    expect(detokenizeFever("Kenneth `` Babyface '' Edmonds -LRB- born 1958 -RRB- , a singer .")).toBe('Kenneth "Babyface" Edmonds (born 1958), a singer.');
  });
});

describeWithData('fever-lite', 'FEVER composition', () => {
  const claims = readJsonl<FeverClaim>('fever-lite', 'validation.jsonl');
  it('builds 1-4 sentence responses whose gold follows the FEVER labels, deterministically', () => {
    const { responses } = composeFeverResponses(claims, { count: 200, seed: 7 });
    expect(responses).toHaveLength(200);
    const byId = new Map(claims.map((c) => [c.id, c]));
    for (const response of responses) {
      expect(response.sentenceGold.length).toBeGreaterThanOrEqual(1);
      expect(response.sentenceGold.length).toBeLessThanOrEqual(4);
      expect(segmentSentences(response.answer)).toHaveLength(response.sentenceGold.length);
      expect(response.sentenceGold).toEqual(response.claimIds.map((id) => byId.get(id)?.label === 'REFUTES'));
      expect(response.responseGold).toBe(response.sentenceGold.some(Boolean));
    }
    expect(composeFeverResponses(claims, { count: 200, seed: 7 }).responses).toEqual(responses);
  });
  it('pools each distinct evidence sentence once', () => {
    const pooled = poolEvidence(claims.slice(0, 50));
    expect(new Set(pooled.map((d) => d.text)).size).toBe(pooled.length);
  });
});

describeWithData(['fever-lite', 'halluqa'], 'offline hallucination check (example default path)', () => {
  const components = createOfflineComponents();
  it('English: keeps the chain sentence → claim → query → snippets with source → verdict', async () => {
    const [result] = await detectHallucinations({
      items: [{ id: 'en', question: 'Which company released the film Soul Food?', answer: 'Soul Food was released by Fox 2000 Pictures. It is a comedy-drama film.' }],
      ...components,
    });
    expect(result?.status).toBe('ok');
    expect(result?.sentences).toHaveLength(2);
    expect(result?.claims[1]?.claim.text).toBe('Soul Food is a comedy-drama film.');
    expect(result?.claims[0]?.evidence[0]?.text).toContain('Fox 2000 Pictures');
    expect(result?.claims[0]?.evidence[0]?.origin.documentId).toMatch(/^fever-ev-/);
    expect(['hallucinated', 'not-hallucinated', 'unverifiable']).toContain(result?.responseLabel);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(formatDetectionText(result!)).toContain('[S2]');
  });
  it('Chinese: searches the Chinese index and keeps the URL sources', async () => {
    const [result] = await detectHallucinations({ items: [{ id: 'zh', question: '鲁迅的代表作有哪些？', answer: '鲁迅的代表作有《狂人日记》。' }], ...components });
    expect(result?.language).toBe('zh');
    expect(result?.claims[0]?.evidence.some((e) => e.text.includes('狂人日记'))).toBe(true);
    expect(result?.claims[0]?.evidence.every((e) => e.origin.source?.name === 'HalluQA' && (e.origin.source.url === undefined || /^https?:\/\//.test(e.origin.source.url)))).toBe(true);
  });
  it('empty and non-factual answers give problems, not crashes', async () => {
    const results = await detectHallucinations({
      items: [
        { id: 'empty', question: 'q', answer: '' },
        { id: 'refusal', question: '你是谁？', answer: '对不起，我不能回答。' },
      ],
      ...components,
    });
    // An answer that refuses is an abstention (counted apart), not an unverifiable answer.
    expect(results.map((r) => r.responseLabel)).toEqual(['unverifiable', 'abstained']);
    expect(results[1]?.abstention).toEqual({ sentence: '对不起，我不能回答。', kind: 'refusal' });
  });
});
