import { createMockNliModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { aggregateNliLabels, createNliVerifier, decideNliLabels } from './create-nli-verifier.js';
import { formatReference } from './format-reference.js';

describe('aggregateNliLabels', () => {
  it('decisive majority: neutral abstains, ties are conflicting', () => {
    expect(aggregateNliLabels(['neutral', 'entailment', 'neutral'], 'decisive-majority').label).toBe('correct');
    expect(aggregateNliLabels(['contradiction', 'contradiction', 'entailment'], 'decisive-majority').label).toBe('hallucinated');
    const tie = aggregateNliLabels(['contradiction', 'entailment'], 'decisive-majority');
    expect(tie.label).toBe('unverifiable');
    expect(tie.problems[0]?.code).toBe('conflicting-evidence');
    expect(aggregateNliLabels(['neutral', null], 'decisive-majority').label).toBe('unverifiable');
  });
  it('any-contradiction and any-entailment', () => {
    expect(aggregateNliLabels(['entailment', 'contradiction'], 'any-contradiction').label).toBe('hallucinated');
    expect(aggregateNliLabels(['entailment', 'contradiction'], 'any-entailment').label).toBe('correct');
  });
});

describe('createNliVerifier', () => {
  it('maps entailment/contradiction/neutral and judges only the top snippets', async () => {
    const nli = createMockNliModel({ label: (pair) => (pair.premise.includes('1586') ? 'entailment' : pair.premise.includes('1600') ? 'contradiction' : 'neutral') });
    const verifier = createNliVerifier({ nli, topSnippets: 2 });
    const [a, b, c] = await verifier.verify({
      items: [
        { claim: { text: 'Built in 1586.' }, evidence: [{ text: 'It was finished in 1586.' }] },
        { claim: { text: 'Built in 1586.' }, evidence: [{ text: 'unrelated' }, { text: 'in 1600' }, { text: 'in 1586' }] },
        { claim: { text: 'x' }, evidence: [] },
      ],
    });
    expect(a?.label).toBe('correct');
    expect(b?.label).toBe('hallucinated'); // third snippet (entailing) is beyond topSnippets = 2
    expect(b?.raw).toEqual(['neutral', 'contradiction']);
    expect(c).toMatchObject({ label: 'unverifiable', reason: 'no evidence' });
  });
  it('a failing NLI call is a failed verdict, not a label', async () => {
    const verifier = createNliVerifier({
      nli: {
        id: 'broken',
        classify: async () => {
          throw new Error('boom');
        },
      },
    });
    const [verdict] = await verifier.verify({ items: [{ claim: { text: 'x' }, evidence: [{ text: 'y' }] }] });
    expect(verdict?.status).toBe('failed');
    expect(verdict?.label).toBeUndefined();
    expect(verdict?.problems[0]?.code).toBe('call-failed');
  });
  it('snippets without an NLI label make the verdict failed when they could change it, and never a default label', async () => {
    expect(decideNliLabels(['neutral', null], 'decisive-majority')).toBeUndefined(); // the missing one could entail
    expect(decideNliLabels(['entailment', 'entailment', 'entailment', null], 'decisive-majority')?.label).toBe('correct');
    expect(decideNliLabels(['contradiction', null], 'any-contradiction')?.label).toBe('hallucinated');
    const unreadable = { id: 'half', classify: async ({ pairs }: { pairs: readonly unknown[] }) => ({ results: pairs.map((_, i) => ({ label: i === 0 ? ('neutral' as const) : null })) }) };
    const [verdict] = await createNliVerifier({ nli: unreadable }).verify({ items: [{ claim: { text: 'x' }, evidence: [{ text: 'a' }, { text: 'b' }] }] });
    expect(verdict?.status).toBe('failed');
    expect(verdict?.label).toBeUndefined();
    expect(verdict?.problems[0]?.code).toBe('nli-unreadable');
  });
  it('rejects bad options', () => {
    expect(() => createNliVerifier({ nli: createMockNliModel({ label: () => 'neutral' }), topSnippets: 0 })).toThrow(/topSnippets/);
  });
});

describe('formatReference', () => {
  it("builds the authors' reference block", () => {
    expect(formatReference('q?', [{ text: 'a\nb' }, { text: 'c' }])).toBe('Query: q?\n1. a b\n2. c');
    expect(formatReference('查询内容', [{ text: '甲' }], { language: 'zh' })).toBe('查询: 查询内容\n1. 甲');
    expect(formatReference('q', [{ text: 'x'.repeat(50) }, { text: 'y' }], { maxChars: 20 })).toBe('Query: q');
  });
});
