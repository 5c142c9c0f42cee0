import fc from 'fast-check';
import { InvalidArgumentError } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { parseSupportScores } from './parse-support-scores.js';

describe('parseSupportScores', () => {
  it('refuses a bad `expected` with a typed error naming it, before any allocation (issue 21 §8)', () => {
    for (const expected of [Number.NaN, -1, 1.5, 1e9, Number.POSITIVE_INFINITY, '3' as unknown as number]) {
      let error: unknown;
      try {
        parseSupportScores('#scores: 1, 0', expected);
      } catch (caught) {
        error = caught;
      }
      expect(InvalidArgumentError.isInstance(error), String(expected)).toBe(true);
      expect((error as Error).message).toMatch(/^parseSupportScores: argument "expected" must be an integer from 0 to 100000/);
    }
    expect(parseSupportScores('#scores: 1, 0', 0).scores).toEqual([]);
    expect(parseSupportScores('#scores: 1, 0', 2).scores).toEqual([1, 0]);
  });

  it('reads the paper format', () => {
    const parsed = parseSupportScores('#analysis: Text1 supports it. Text2 does not.\n#scores: 1, 0', 2);
    expect(parsed).toMatchObject({ analysis: 'Text1 supports it. Text2 does not.', scores: [1, 0], aligned: true, problems: [] });
  });

  it('reads per-line, markdown, "Text N:" and 1.0 forms, and takes the last #scores section', () => {
    expect(parseSupportScores('**#analysis:** ...\n**#scores:**\nText 1: 1\nText 2: 0\nText 3: 1.0', 3).scores).toEqual([1, 0, 1]);
    expect(parseSupportScores('#analysis: x\n#scores: 1 0 1', 3).scores).toEqual([1, 0, 1]);
    expect(parseSupportScores('#scores: your scores here.\n#analysis: y\n#scores: 0, 1 (supports)', 2).scores).toEqual([0, 1]);
    expect(parseSupportScores('#analysis: z\n#scores: Text 1: 1, Text 2: 0', 2).scores).toEqual([1, 0]);
    expect(parseSupportScores('#analysis: z\n#scores: Text 1: 1 Text 2: 0', 2).scores).toEqual([1, 0]);
    expect(parseSupportScores('analysis: the scores: below are final\nScores: 1, 1', 2).scores).toEqual([1, 1]);
  });

  it('marks missing and extra scores as a count mismatch (unaligned, every score null)', () => {
    const fewer = parseSupportScores('#analysis: a\n#scores: 1, 0', 3);
    expect(fewer.aligned).toBe(false);
    expect(fewer.scores).toEqual([null, null, null]);
    expect(fewer.problems.map((problem) => problem.code)).toEqual(['count-mismatch']);
    const more = parseSupportScores('#analysis: a\n#scores: 1, 0, 1, 1', 3);
    expect(more.aligned).toBe(false);
    expect(more.problems.map((problem) => problem.code)).toEqual(['count-mismatch']);
  });

  it('leaves non-numeric and out-of-range scores null with a problem, never guessing', () => {
    const parsed = parseSupportScores('#analysis: a\n#scores: 1, yes, 0.5, not supported', 4);
    expect(parsed.scores).toEqual([1, null, null, null]);
    expect(parsed.problems.map((problem) => problem.code)).toEqual(['non-numeric-score', 'out-of-range-score', 'non-numeric-score']);
    expect(parseSupportScores('The texts do not support the claim.', 2).problems.map((problem) => problem.code)).toEqual(['missing-section']);
    expect(parseSupportScores('', 2).problems.map((problem) => problem.code)).toEqual(['empty-reply']);
  });

  it('never throws, returns `expected` entries, and a 1 only where the reply holds a 1 (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 20 }), (text, expected) => {
        const parsed = parseSupportScores(text, expected);
        expect(parsed.scores).toHaveLength(expected);
        if (parsed.scores.includes(1)) expect(text).toMatch(/1/);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom<0 | 1>(0, 1), { minLength: 1, maxLength: 15 }), fc.constantFrom(', ', ',', ' ', '\n', ';'), (scores, separator) => {
        const parsed = parseSupportScores(`#analysis: whatever\n#scores: ${scores.join(separator)}`, scores.length);
        expect(parsed.scores).toEqual(scores);
      }),
    );
    const started = performance.now();
    parseSupportScores(`#scores:${' '.repeat(200_000)}x`, 3);
    parseSupportScores(`${'scores '.repeat(30_000)}${'1 '.repeat(30_000)}x`, 3);
    parseSupportScores(`#scores: ${'1 '.repeat(50_000)}x`, 3);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
