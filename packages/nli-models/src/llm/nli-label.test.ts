import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NliLabel } from '@factkit/core';
import { NLI_LABELS, parseLabel } from '@factkit/core';
import { NLI_LABEL_PARSE_OPTIONS } from './nli-label.js';

// The test cases of the former parseNliLabel, now run against core parseLabel with the judge's options.
const parse = (reply: string) => parseLabel<NliLabel>(reply, NLI_LABEL_PARSE_OPTIONS);

describe('NLI replies read with core parseLabel (NLI_LABEL_PARSE_OPTIONS)', () => {
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
    ['Entailment is not correct here; it is neutral', 'neutral'],
    ['蕴含', 'entailment'],
    ['矛盾。', 'contradiction'],
  ] as const)('reads %j as %s', (answer, label) => {
    expect(parse(answer)).toMatchObject({ label, problems: [] });
  });

  it.each([
    ['', 'empty-reply'],
    ['   ', 'empty-reply'],
    ['I cannot determine that.', 'no-label'],
    ['Yes', 'no-label'],
    ['maybe entailment or maybe contradiction', 'ambiguous-label'],
    // Negated or hedged labels are never read as that label.
    ['not entailed', 'ambiguous-label'],
    ['entailment or neutral', 'ambiguous-label'],
    ['It cannot be entailed from S1.', 'ambiguous-label'],
  ])('gives no label with problem %j -> %s', (answer, code) => {
    const parsed = parse(answer);
    expect(parsed.label).toBeUndefined();
    expect(parsed.problems.map((problem) => problem.code)).toEqual([code]);
  });

  it('never throws and always returns a known label or a problem (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const parsed = parse(text);
        if (parsed.label === undefined) expect(parsed.problems.length).toBeGreaterThan(0);
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
        expect(parse(answer).label).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('returns no label for text that names no label (fuzz over label-free words)', () => {
    const word = fc.constantFrom('yes', 'no', 'maybe', 'the', 'premise', 'hypothesis', 'true', 'false', 'unknown', 'S1', 'S2', '.', ',');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (words) => {
        expect(parse(words.join(' ')).label).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
