import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClaimQueryReply } from '../generate/parse-claim-query-reply.js';
import { formatClaimQueryResponse, splitTrainTest, stratifyByClaimCount, toChatJsonl } from './training-data.js';

describe('formatClaimQueryResponse', () => {
  it("writes the authors' layout and parses back (EN and ZH)", () => {
    const pairs = [
      { claim: { id: '0:c0', text: 'A is B.' }, query: { text: 'what is A', claimId: '0:c0' } },
      { claim: { id: '0:c1', text: 'C is D.' }, query: { text: 'what is C', claimId: '0:c1' } },
    ];
    const text = formatClaimQueryResponse(pairs);
    expect(text).toBe('[Claims]\n1 A is B.\n2 C is D.\n[Queries]\n1 what is A\n2 what is C\n[End]');
    expect(parseClaimQueryReply(text).pairs.map((p) => ({ claim: p.claim, query: p.query }))).toEqual(pairs);
    expect(formatClaimQueryResponse([], 'zh')).toBe('[陈述]\n无陈述\n[查询]\n无查询\n[结束]');
    expect(parseClaimQueryReply(formatClaimQueryResponse([], 'zh')).noClaims).toBe(true);
  });
});

describe('stratifyByClaimCount', () => {
  const sample = (claims: number, id: number) => ({ id, pairs: Array.from({ length: claims }, () => ({})) });
  it('caps each claim-count group, then fills at random (hand-checked)', () => {
    // groups: 1 claim x 10, 2 claims x 2, 5 claims x 1; total 6, cap 2 -> 2 + 2 + 1 = 5, then 1 filler from group 1.
    const samples = [...Array.from({ length: 10 }, (_, i) => sample(1, i)), sample(2, 10), sample(2, 11), sample(5, 12)];
    const { selected, perGroup } = stratifyByClaimCount(samples, { total: 6, perGroupCap: 2, seed: 1 });
    expect(selected).toHaveLength(6);
    expect(perGroup).toEqual({ 1: 3, 2: 2, 5: 1 });
    expect(new Set(selected.map((s) => s.id)).size).toBe(6);
  });
  it('property: never more than total, no duplicates, all when total >= n', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 }), fc.integer({ min: 0, max: 80 }), (counts, total) => {
        const samples = counts.map((c, i) => sample(c, i));
        const { selected } = stratifyByClaimCount(samples, { total, seed: 3 });
        expect(selected.length).toBe(Math.min(total, samples.length));
        expect(new Set(selected.map((s) => s.id)).size).toBe(selected.length);
      }),
    );
  });
});

describe('splitTrainTest', () => {
  it('9:1, disjoint, complete, seeded', () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const { train, test } = splitTrainTest(items, { seed: 5 });
    expect([train.length, test.length]).toEqual([900, 100]);
    expect([...train, ...test].sort((a, b) => a - b)).toEqual(items);
    expect(splitTrainTest(items, { seed: 5 }).test).toEqual(test);
  });
});

describe('toChatJsonl', () => {
  it('one chat record per line with the Table 21 prompt and the response template', () => {
    const jsonl = toChatJsonl([{ id: 'x', language: 'en', question: 'Q?', answer: 'A.', pairs: [{ claim: { id: 'x:c0', text: 'c' }, query: { text: 'q', claimId: 'x:c0' } }] }]);
    const record = JSON.parse(jsonl.trim()) as { messages: { role: string; content: string }[] };
    expect(record.messages[0]?.content.endsWith('[Question]\nQ?\n[Answer]\nA.')).toBe(true);
    expect(record.messages[1]?.content).toBe('[Claims]\n1 c\n[Queries]\n1 q\n[End]');
  });
});
