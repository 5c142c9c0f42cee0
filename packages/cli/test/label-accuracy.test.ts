import type { DetectionResult } from '@factkit/claim-query';
import { describe, expect, it } from 'vitest';
import { formatLabelAccuracy, parseSentenceLabels, scoreSentenceLabels } from '../src/check/label-accuracy.js';

/** A detection result with the given sentence verdicts (only the fields the scorer reads are meaningful). */
function result(id: string, sentences: [string, 'hallucinated' | 'not-hallucinated' | 'unverifiable', boolean?][], status: DetectionResult['status'] = 'ok'): DetectionResult {
  return {
    id,
    question: '',
    answer: sentences.map(([text]) => text).join(' '),
    language: 'en',
    status,
    mode: 'corpus',
    factualPrecision: null,
    claimCounts: { supported: 0, hallucinated: 0, unverifiable: 0, failed: 0 },
    noClaims: false,
    generatorId: 'g',
    retrieverId: 'r',
    verifierId: 'v',
    generation: {},
    problems: [],
    claims: [],
    sentences: sentences.map(([text, label, incomplete], index) => ({ index, text, start: 0, end: text.length, label, claimIds: [], ...(incomplete ? { incomplete } : {}) })),
  };
}

describe('sentence accuracy against a labels file', () => {
  it('scores a hand-checked case: 7 labels, 5 scored, 3 right', () => {
    const labels = parseSentenceLabels(
      [
        '{"id": "a", "sentence": "A1.", "label": "correct", "synset": "wn:n:1"}', // verdict not-hallucinated → right
        '{"id": "a", "sentence": "A2.", "label": "hallucinated"}', //            verdict hallucinated → right
        '{"id": "b", "sentence": " B1. ", "label": "hallucinated"}', //          verdict unverifiable → wrong (not flagged)
        '{"id": "b", "sentence": "B2.", "label": "correct"}', //                 verdict unverifiable → right (not flagged)
        '{"id": "b", "sentence": "B3.", "label": "correct"}', //                 verdict hallucinated → wrong
        '{"id": "b", "sentence": "B4.", "label": "correct"}', //                 undecided (failed verifier call) → not scored
        '{"id": "c", "sentence": "C1.", "label": "correct"}', //                 answer c failed → not scored
        '{"id": "b", "sentence": "B1.", "label": "maybe"}', //                   bad label
        'not json',
      ].join('\n'),
      'labels.jsonl',
    );
    expect(labels.problems.map((problem) => problem.code)).toEqual(['bad-label', 'bad-json']);
    expect(labels.problems[0]?.message).toBe('labels.jsonl:8: needs string "id" and "sentence" and "label" "correct" or "hallucinated"');
    const results = [
      result('a', [
        ['A1.', 'not-hallucinated'],
        ['A2.', 'hallucinated'],
      ]),
      result('b', [
        ['B1.', 'unverifiable'],
        ['B2.', 'unverifiable'],
        ['B3.', 'hallucinated'],
        ['B4.', 'not-hallucinated', true],
      ]),
      result('c', [['C1.', 'not-hallucinated']], 'failed'),
    ];
    const accuracy = scoreSentenceLabels(results, labels.labels);
    expect(accuracy).toMatchObject({ scored: 5, right: 3, accuracy: 0.6, hallucinated: { flagged: 1, total: 2 }, correct: { kept: 2, total: 3 }, unverifiable: 2 });
    expect(accuracy.problems.map((problem) => problem.code)).toEqual(['undecided', 'unmatched-label']);
    expect(formatLabelAccuracy(accuracy, 'labels.jsonl')).toBe('sentence accuracy on labels.jsonl: 0.600 (3/5); hallucinated flagged 1/2; correct not flagged 2/3; 2 called unverifiable; 2 label(s) not scored');
  });

  it('accuracy is absent when no label can be scored', () => {
    const accuracy = scoreSentenceLabels([], parseSentenceLabels('{"id": "x", "sentence": "X.", "label": "correct"}', 'l').labels);
    expect(accuracy.accuracy).toBeUndefined();
    expect(accuracy.scored).toBe(0);
    expect(formatLabelAccuracy(accuracy, 'l')).toBe('sentence accuracy on l: no labelled sentence could be scored (1 unmatched or undecided)');
  });

  it('the shipped demo labels name every demo sentence once, with a WordNet synset id', async () => {
    const { readFileSync } = await import('node:fs');
    const labels = parseSentenceLabels(readFileSync(new URL('../demo/labels.jsonl', import.meta.url), 'utf8'), 'demo/labels.jsonl');
    expect(labels.problems).toEqual([]);
    const answers = readFileSync(new URL('../demo/answers.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; answer: string });
    for (const label of labels.labels) {
      expect(answers.find((answer) => answer.id === label.id)?.answer, label.sentence).toContain(label.sentence);
      expect(label.synset).toMatch(/^wn:n:\d{8}$/);
    }
    expect(new Set(labels.labels.map((label) => `${label.id}/${label.sentence}`)).size).toBe(labels.labels.length);
    expect(labels.labels.filter((label) => label.label === 'hallucinated').length).toBeGreaterThan(0);
    expect(labels.labels.filter((label) => label.label === 'correct').length).toBeGreaterThan(0);
  });
});

describe('sentence accuracy: abstained answers', () => {
  it('a label of an answer that abstained is not scored and says why', () => {
    const labels = parseSentenceLabels('{"id": "x", "sentence": "I don\'t know.", "label": "correct"}\n{"id": "y", "sentence": "Y1.", "label": "correct"}', 'l');
    const abstained: DetectionResult = { ...result('x', []), responseLabel: 'abstained', abstention: { sentence: "I don't know.", kind: 'abstention' } };
    const accuracy = scoreSentenceLabels([abstained, result('y', [['Y1.', 'not-hallucinated']])], labels.labels);
    expect(accuracy.scored).toBe(1);
    expect(accuracy.problems).toEqual([{ code: 'abstained', message: 'labels line 1: answer "x" abstained (no claim checked): not scored' }]);
  });
});
