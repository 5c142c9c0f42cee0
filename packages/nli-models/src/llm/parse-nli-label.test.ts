import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NliLabel } from '@factkit/core';
import { NLI_LABELS } from '@factkit/core';
import { parseNliLabel } from './parse-nli-label.js';

describe('parseNliLabel', () => {
  it.each([
    ['entailment', 'entailment'],
    ['Entailment.', 'entailment'],
    ['  NEUTRAL\n', 'neutral'],
    ['**Contradiction**', 'contradiction'],
    ['Label: entailment', 'entailment'],
    ['The answer is: neutral.', 'neutral'],
    ['Entailed', 'entailment'],
    ['S2 contradicts S1.', 'contradiction'],
    ['"entailment"', 'entailment'],
    ['Entailment. The premise clearly states the same fact, so it is not a contradiction.', 'entailment'],
    ['It is neither entailment nor contradiction: neutral', 'neutral'],
    ['蕴含', 'entailment'],
    ['矛盾。', 'contradiction'],
  ] as const)('reads %j as %s', (answer, label) => {
    expect(parseNliLabel(answer)).toEqual({ label, raw: answer });
  });

  it.each([
    ['', 'empty answer'],
    ['   ', 'empty answer'],
    ['I cannot determine that.', 'none'],
    ['Yes', 'none'],
    ['maybe entailment or maybe contradiction', 'several'],
  ])('gives null with a problem for %j', (answer, kind) => {
    const parsed = parseNliLabel(answer);
    expect(parsed.label).toBeNull();
    expect(parsed.raw).toBe(answer);
    expect(parsed.problem).toMatch(kind === 'empty answer' ? /empty/ : kind === 'none' ? /none/ : /several/);
  });

  it('never throws and always returns a known label or null with a problem (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const parsed = parseNliLabel(text);
        expect(parsed.raw).toBe(text);
        if (parsed.label === null) expect(typeof parsed.problem).toBe('string');
        else expect(NLI_LABELS).toContain(parsed.label);
      }),
      { numRuns: 500 },
    );
  });

  it('reads any label under random casing, punctuation, markdown and trailing words', () => {
    const decoration = fc.constantFrom('', ' ', '\n', '**', '"', "'", '`', '.', '!', ':', '  ', '\t');
    const label = fc.constantFrom<NliLabel>(...NLI_LABELS);
    const casing = fc.array(fc.boolean(), { minLength: 13, maxLength: 13 });
    const tail = fc.constantFrom('', '.', ' (the premise says so)', '. S2 restates S1.', '\nExplanation: same facts.');
    fc.assert(
      fc.property(label, casing, decoration, decoration, tail, fc.boolean(), (name, upper, before, after, rest, prefix) => {
        const cased = [...name].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join('');
        const answer = `${prefix ? 'Label: ' : ''}${before}${cased}${after}${rest}`;
        expect(parseNliLabel(answer).label).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('returns null for text that names no label (fuzz over label-free words)', () => {
    const word = fc.constantFrom('yes', 'no', 'maybe', 'the', 'premise', 'hypothesis', 'true', 'false', 'unknown', 'S1', 'S2', '.', ',');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (words) => {
        expect(parseNliLabel(words.join(' ')).label).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
