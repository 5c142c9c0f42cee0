import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRankGptPermutation } from './parse-rankgpt-permutation.js';

const codes = (outcome: { problems: readonly { code: string }[] }) => outcome.problems.map((problem) => problem.code);

describe('parseRankGptPermutation', () => {
  it('reads a clean permutation', () => {
    expect(parseRankGptPermutation('[3] > [1] > [2]', 3)).toEqual({ value: [2, 0, 1], problems: [] });
    expect(parseRankGptPermutation('Ranking: [2]>[1]>[3]', 3)).toEqual({ value: [1, 0, 2], problems: [] });
  });

  it('repairs as RankGPT does: first place of a repeat, unknown ids dropped, missing ones appended in order', () => {
    const outcome = parseRankGptPermutation('[2] > [2] > [9] > [0] > [4]', 5);
    expect(outcome.value).toEqual([1, 3, 0, 2, 4]);
    expect(codes(outcome)).toEqual(['duplicate-identifier', 'unknown-identifier', 'missing-identifier']);
    expect(outcome.problems[2]?.message).toContain('[1], [3], [5]');
  });

  it('reads digits anywhere, as RankGPT strips every non-digit', () => {
    expect(parseRankGptPermutation('Passage 2 is best, then 1.', 2).value).toEqual([1, 0]);
  });

  it('gives no value for an empty reply, a refusal, or a reply without an identifier in range', () => {
    expect(parseRankGptPermutation('', 3)).toEqual({ problems: [{ code: 'no-ranking', message: 'the reply is empty' }] });
    const refusal = parseRankGptPermutation("I'm sorry, but I can't help with that.", 3);
    expect(refusal.value).toBeUndefined();
    expect(codes(refusal)).toEqual(['refused']);
    expect(codes(parseRankGptPermutation('[7] > [8]', 3))).toEqual(['no-ranking', 'unknown-identifier']);
    expect(parseRankGptPermutation('no idea', 3).value).toBeUndefined();
  });

  // RankGPT's receive_permutation (rank_gpt.py), written out as the reference: clean_response keeps digits only,
  // remove_duplicate keeps first occurrences, out-of-range ids are dropped, the rest follow in order.
  function reference(reply: string, count: number): number[] {
    const ids = reply
      .replace(/\D/g, ' ')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((token) => Number(token) - 1);
    const unique = ids.filter((id, index) => ids.indexOf(id) === index).filter((id) => id >= 0 && id < count);
    return [...unique, ...Array.from({ length: count }, (_, index) => index).filter((index) => !unique.includes(index))];
  }

  it('never throws; any value is a permutation of 0..count-1 equal to RankGPT’s repair (fuzz)', () => {
    const reply = fc.oneof(
      fc.string(),
      fc.array(fc.integer({ min: -3, max: 40 }), { maxLength: 40 }).map((ids) => ids.map((id) => `[${id}]`).join(' > ')),
      fc.tuple(fc.array(fc.integer({ min: 1, max: 25 }), { maxLength: 30 }), fc.string()).map(([ids, junk]) => `${junk}${ids.map((id) => `[${id}]`).join(' > ')}${junk}`),
    );
    fc.assert(
      fc.property(reply, fc.integer({ min: 1, max: 25 }), (text, count) => {
        const outcome = parseRankGptPermutation(text, count);
        expect(Array.isArray(outcome.problems)).toBe(true);
        if (outcome.value === undefined) {
          expect(codes(outcome).some((code) => code === 'no-ranking' || code === 'refused')).toBe(true);
          return;
        }
        expect([...outcome.value].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, index) => index));
        if (!codes(outcome).includes('refused')) expect(outcome.value).toEqual(reference(text, count));
      }),
      { numRuns: 500 },
    );
  });

  it('reads any permutation written in RankGPT’s format back exactly, with no problem (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }).chain((count) =>
          fc.shuffledSubarray(
            Array.from({ length: count }, (_, index) => index),
            { minLength: count, maxLength: count },
          ),
        ),
        (permutation) => {
          const text = permutation.map((index) => `[${index + 1}]`).join(' > ');
          expect(parseRankGptPermutation(text, permutation.length)).toEqual({ value: permutation, problems: [] });
        },
      ),
    );
  });
});
