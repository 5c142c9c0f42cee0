import { describe, expect, it } from 'vitest';
import type { MetricsProblemCode } from '../index.js';
import { evaluateAveritec } from './averitec.js';

/** Every member of MetricsProblemCode, checked both ways at compile time (a code added to or dropped from the union fails typecheck). */
const METRICS_PROBLEM_CODES = ['unscorable-item'] as const satisfies readonly MetricsProblemCode[];
const everyCodeListed: [Exclude<MetricsProblemCode, (typeof METRICS_PROBLEM_CODES)[number]>] extends [never] ? true : false = true;

/** What a user's switch on `problem.code` looks like: exhaustive only because `problems` is typed by the union. */
function describeProblem(problem: ReturnType<typeof evaluateAveritec>['problems'][number]): string {
  switch (problem.code) {
    case 'unscorable-item':
      return `item ${problem.index} left out`;
    default: {
      const unreachable: never = problem.code;
      return unreachable;
    }
  }
}

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

  it('emits exactly the codes of MetricsProblemCode, each provoked here', () => {
    const result = evaluateAveritec(
      [
        { id: 'no-references', predictedEvidence: [{ question: 'q', answer: 'a' }], predictedLabel: 'Refuted', referenceQuestions: [], referenceLabel: 'Refuted' },
        { id: 'malformed', predictedEvidence: undefined as unknown as [], predictedLabel: 'Refuted', referenceQuestions: gold, referenceLabel: 'Refuted' },
      ],
      { tokenize: whitespace },
    );
    expect(everyCodeListed).toBe(true);
    expect(result.problems.map((problem) => [problem.id, problem.code])).toEqual([
      ['no-references', 'unscorable-item'],
      ['malformed', 'unscorable-item'],
    ]);
    expect(new Set(result.problems.map((problem) => problem.code))).toEqual(new Set(METRICS_PROBLEM_CODES));
    expect(result.problems.map(describeProblem)).toEqual(['item 0 left out', 'item 1 left out']);
  });

  it('reports every mean as null (absent, not 0) when no item could be scored', () => {
    const none = evaluateAveritec([], { tokenize: whitespace });
    expect(none).toMatchObject({ questionOnly: null, questionAnswer: null, labelAccuracy: null, averitecScore: { '0.25': null }, perItem: [], problems: [] });
    const allBad = evaluateAveritec([{ id: 'bad', predictedEvidence: [], predictedLabel: 'Refuted', referenceQuestions: [], referenceLabel: 'Refuted' }], { tokenize: whitespace, levels: [0.25, 0.5] });
    expect(allBad).toMatchObject({ questionOnly: null, questionAnswer: null, labelAccuracy: null, averitecScore: { '0.25': null, '0.5': null } });
    expect(allBad.problems).toHaveLength(1);
  });
});
