import { describe, expect, it } from 'vitest';
import type { DetectionResult } from './detect-hallucinations.js';
import { formatDetectionText } from './format-detection-text.js';

const evidence = (id: string, text: string) => ({ documentId: id, text, score: 1, origin: { documentId: id } });

describe('formatDetectionText', () => {
  it('prints the why line and every shown snippet with rank, label, score; a deciding snippet beyond the top ones is shown too', () => {
    const result: DetectionResult = {
      id: 'r',
      question: 'Where is Japan?',
      answer: 'Japan is in Africa.',
      language: 'en',
      status: 'ok',
      responseLabel: 'hallucinated',
      noClaims: false,
      generatorId: 'g',
      retrieverId: 'b',
      verifierId: 'v',
      mode: 'corpus',
      factualPrecision: 0,
      claimCounts: { supported: 0, hallucinated: 1, unverifiable: 0, failed: 0 },
      generation: {},
      problems: [],
      sentences: [{ index: 0, text: 'Japan is in Africa.', start: 0, end: 19, label: 'hallucinated', claimIds: ['r:c0'] }],
      claims: [
        {
          claim: { id: 'r:c0', text: 'Japan is in Africa.' },
          query: { text: 'Japan Africa', claimId: 'r:c0' },
          evidence: [evidence('cup', 'The Africa Cup of Nations.'), evidence('lake', 'Lake Victoria is in Africa.'), evidence('japan', 'Japan is an island country in East Asia.')],
          verdict: {
            status: 'ok',
            label: 'hallucinated',
            raw: ['entailment', 'neutral', 'contradiction'],
            verifier: 'v',
            problems: [],
            why: 'hallucinated: decided by #3 contradiction 0.81 (top-decisive; 1 entail, 1 contradict, 1 neutral of 3)',
            snippets: [
              { rank: 1, text: 'The Africa Cup of Nations.', label: 'entailment', score: 0.4, overlap: 0.5, relevant: true, decisive: false },
              { rank: 2, text: 'Lake Victoria is in Africa.', label: 'neutral', overlap: 0.5, relevant: true, decisive: false },
              { rank: 3, text: 'Japan is an island country in East Asia.', label: 'contradiction', score: 0.812, overlap: 1, relevant: true, decisive: true },
            ],
          },
          sentenceIndex: 0,
          problems: [],
        },
      ],
    };
    const lines = formatDetectionText(result, 1).split('\n');
    expect(lines).toContain('      why:     hallucinated: decided by #3 contradiction 0.81 (top-decisive; 1 entail, 1 contradict, 1 neutral of 3)');
    expect(lines).toContain('      #1 entailment 0.40 - The Africa Cup of Nations.  <cup>');
    expect(lines).toContain('      #3 contradiction 0.81 (deciding) - Japan is an island country in East Asia.  <japan>');
    expect(lines).toContain('      (+1 more snippets in the report)');
    expect(lines.some((line) => line.includes('Lake Victoria'))).toBe(false);
  });
});
