import { createMockNliModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { aggregateSnippets, createNliVerifier, decideSnippets, explainNliVerdict, type JudgedSnippet } from './create-nli-verifier.js';
import { claimTerms, snippetRelevance } from './relevance.js';

const snippet = (label: JudgedSnippet['label'], rank: number, overlap: number, relevant = true, scores?: JudgedSnippet['scores']): JudgedSnippet => ({ label, rank, overlap, relevant, ...(scores ? { scores } : {}) });

describe('claimTerms / snippetRelevance', () => {
  it('entity words are capitalised words and numbers, not sentence-initial function words; relevance needs one of them', () => {
    const terms = claimTerms('The Nile flows into the Indian Ocean in 2001.');
    expect([...terms.entities].sort()).toEqual(['2001', 'indian', 'nile', 'ocean']);
    expect(snippetRelevance(terms, 'The Nile empties into the Mediterranean.')).toEqual({ overlap: 1 / 5, relevant: true }); // content words: nile, flows, indian, ocean, 2001
    expect(snippetRelevance(terms, 'A river flows somewhere.').relevant).toBe(false);
    // Without entities: at least half of the content words.
    const plain = claimTerms('photosynthesis takes place in chloroplasts');
    expect(plain.entities.size).toBe(0);
    expect(snippetRelevance(plain, 'photosynthesis happens in chloroplasts').relevant).toBe(true);
    expect(snippetRelevance(plain, 'photosynthesis is old').relevant).toBe(false);
  });
});

describe('aggregateSnippets (hand-checked)', () => {
  // "Japan is in Africa.": eight off-topic snippets about the Africa Cup of Nations entail "in Africa" loosely; the one
  // snippet naming Japan contradicts it.
  const japan = [...Array.from({ length: 8 }, (_, i) => snippet('entailment', i + 1, 0.5, false)), snippet('contradiction', 9, 1, true)];
  it('majority over all snippets lets off-topic snippets outvote the relevant one; the relevance-aware rules do not', () => {
    expect(aggregateSnippets(japan, 'decisive-majority').label).toBe('correct');
    expect(aggregateSnippets(japan, 'majority')).toEqual({ label: 'hallucinated', problems: [], decisive: [8] });
    expect(aggregateSnippets(japan, 'strict')).toEqual({ label: 'hallucinated', problems: [], decisive: [8] });
    expect(aggregateSnippets(japan, 'top-decisive')).toEqual({ label: 'hallucinated', problems: [], decisive: [8] });
    expect(aggregateSnippets(japan, 'soft').label).toBe('hallucinated'); // only the relevant snippet counts: -1/3 <= -0.25
  });
  it('top-decisive: largest overlap wins, then the better rank; neutral snippets never decide', () => {
    expect(aggregateSnippets([snippet('neutral', 1, 1), snippet('entailment', 2, 0.5), snippet('contradiction', 3, 0.5)], 'top-decisive')).toEqual({ label: 'correct', problems: [], decisive: [1] });
    expect(aggregateSnippets([snippet('neutral', 1, 1)], 'top-decisive').label).toBe('unverifiable');
  });
  it('strict: any relevant contradiction beats entailments; irrelevant ones are ignored', () => {
    expect(aggregateSnippets([snippet('entailment', 1, 1), snippet('contradiction', 2, 0.2)], 'strict').label).toBe('hallucinated');
    expect(aggregateSnippets([snippet('entailment', 1, 1), snippet('contradiction', 2, 0.2, false)], 'strict')).toEqual({ label: 'correct', problems: [], decisive: [0] });
  });
  it('soft: Σ overlap × (P(e) − P(c)) / √rank against the threshold', () => {
    const two = [snippet('entailment', 1, 1, true, { entailment: 0.6, contradiction: 0.3, neutral: 0.1 }), snippet('contradiction', 4, 1, true, { entailment: 0.1, contradiction: 0.5, neutral: 0.4 })];
    // 0.3 / 1 + (-0.4) / 2 = 0.1
    expect(aggregateSnippets(two, 'soft', 0.05)).toEqual({ label: 'correct', problems: [], decisive: [0] });
    expect(aggregateSnippets(two, 'soft', 0.2).label).toBe('unverifiable');
  });
  it('majority ties are conflicting evidence', () => {
    const tie = aggregateSnippets([snippet('entailment', 1, 1), snippet('contradiction', 2, 1)], 'majority');
    expect(tie.label).toBe('unverifiable');
    expect(tie.problems[0]?.code).toBe('conflicting-evidence');
  });
  it('a missing label that could change the verdict leaves it undecided', () => {
    expect(decideSnippets([snippet(null, 1, 1), snippet('entailment', 2, 0.5)], 'top-decisive')).toBeUndefined();
    expect(decideSnippets([snippet('contradiction', 1, 1), snippet(null, 2, 0.5)], 'top-decisive')?.label).toBe('hallucinated');
    expect(decideSnippets([snippet('contradiction', 1, 1), snippet(null, 2, 0.5, false)], 'strict')?.label).toBe('hallucinated');
  });
});

describe('createNliVerifier explanations', () => {
  it('each verdict carries every snippet with rank, origin, label, score and the deciding mark, and a one-line why', async () => {
    const nli = createMockNliModel({ label: (pair) => (pair.premise.includes('Ocean') ? 'contradiction' : pair.premise.includes('Nile') ? 'entailment' : 'neutral') });
    const verifier = createNliVerifier({ nli });
    const origin = { documentId: 'wn:1' };
    const [verdict] = await verifier.verify({
      items: [{ claim: { text: 'The Nile flows into the Indian Ocean.' }, evidence: [{ text: 'The Nile is a river.', origin }, { text: 'The Nile empties into the Mediterranean, not the Indian Ocean.' }, { text: 'Cats purr.' }] }],
    });
    expect(verdict?.label).toBe('hallucinated');
    expect(verdict?.snippets?.map((s) => [s.rank, s.label, s.decisive, s.relevant])).toEqual([
      [1, 'entailment', false, true],
      [2, 'contradiction', true, true],
      [3, 'neutral', false, false],
    ]);
    expect(verdict?.snippets?.[0]?.origin).toEqual(origin);
    expect(verdict?.why).toBe('hallucinated: decided by #2 contradiction (top-decisive; 1 entail, 1 contradict, 1 neutral of 3)');
  });
  it('explains an undecided claim', () => {
    expect(explainNliVerdict('unverifiable', 'strict', [{ rank: 1, text: 'x', label: 'entailment', overlap: 0, relevant: false, decisive: false }])).toBe(
      'unverifiable: no snippet names the claim’s entities (strict; 0 entail, 0 contradict, 0 neutral of 0 relevant (1 judged))',
    );
  });
  it('rejects an unknown aggregation and a negative soft threshold', () => {
    const nli = createMockNliModel({ label: () => 'neutral' });
    expect(() => createNliVerifier({ nli, aggregation: 'vote' as never })).toThrow(/aggregation/);
    expect(() => createNliVerifier({ nli, softThreshold: -1 })).toThrow(/softThreshold/);
  });
});
