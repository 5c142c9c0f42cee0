import { describe, expect, it } from 'vitest';
import { evaluateAveritec } from './averitec.js';

const whitespace = (text: string) => text.toLowerCase().split(/\s+/u).filter(Boolean);

describe('evaluateAveritec', () => {
  const gold = [
    { question: 'Who said it', answers: [{ answer: 'The mayor said it' }] },
    { question: 'When was it said', answers: [] },
  ];
  it('gates label accuracy at a Q+A score strictly above 0.25 and records unscorable items', () => {
    const result = evaluateAveritec(
      [
        // Perfect evidence, right label → counts.
        {
          id: 'good',
          predictedEvidence: [
            { question: 'Who said it', answer: 'The mayor said it' },
            { question: 'When was it said', answer: 'No answer could be found.' },
          ],
          predictedLabel: 'Refuted',
          referenceQuestions: gold,
          referenceLabel: 'Refuted',
        },
        // Unrelated evidence, right label → label correct but gated out.
        { id: 'weak', predictedEvidence: [{ question: 'zebra', answer: 'xylophone' }], predictedLabel: 'Refuted', referenceQuestions: gold, referenceLabel: 'Refuted' },
        // No reference questions → a problem, not a crash.
        { id: 'bad', predictedEvidence: [], predictedLabel: 'Refuted', referenceQuestions: [], referenceLabel: 'Refuted' },
      ],
      { tokenize: whitespace },
    );
    expect(result.perItem.map((item) => item.id)).toEqual(['good', 'weak']);
    expect(result.perItem[0]!.questionAnswer).toBeGreaterThan(0.9);
    expect(result.perItem[1]!.questionAnswer).toBe(0);
    expect(result.labelAccuracy).toBe(1);
    expect(result.averitecScore['0.25']).toBe(0.5);
    expect(result.problems).toEqual([expect.objectContaining({ index: 2, id: 'bad', code: 'unscorable-item' })]);
  });
});
