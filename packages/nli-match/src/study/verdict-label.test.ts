import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLabel } from '@factkit/core';

// The test cases of the former parseVerdictLabel, now run against core parseLabel as the leakage study calls it
// (labels = the verdict labels offered to the model).
const FEVER = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] as const;
const parse = (reply: string, labels: readonly string[] = FEVER) => parseLabel(reply, { labels });

describe('verdict replies read with core parseLabel', () => {
  it.each([
    ['SUPPORTS', 'SUPPORTS'],
    ['supports.', 'SUPPORTS'],
    ['**Refutes**', 'REFUTES'],
    ['Label: NOT ENOUGH INFO', 'NOT ENOUGH INFO'],
    ['not enough info', 'NOT ENOUGH INFO'],
    ['The verdict is REFUTES because evidence 2 says otherwise.', 'REFUTES'],
  ])('reads %j as %s', (answer, label) => {
    expect(parse(answer).label).toBe(label);
  });

  it('matches longer labels first so a label inside another is not misread', () => {
    expect(parse('Not Supported', ['Supported', 'Not Supported']).label).toBe('Not Supported');
    expect(parse('Supported', ['Supported', 'Not Supported']).label).toBe('Supported');
  });

  it('gives no label with a problem for no label, several labels, or a negated / hedged label', () => {
    expect(parse('').problems.map((problem) => problem.code)).toEqual(['empty-reply']);
    expect(parse('I am not sure').problems.map((problem) => problem.code)).toEqual(['no-label']);
    expect(parse('either supports or refutes').problems.map((problem) => problem.code)).toEqual(['ambiguous-label']);
    // Used to be read as a label by the old parser; a negated label is never that label.
    expect(parse('NOT SUPPORTS').label).toBeUndefined();
    expect(parse('It does not support the claim; possibly refutes').label).toBeUndefined();
  });

  it('never throws on any text and only returns given labels (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.uniqueArray(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,18}[A-Za-z]$/), { minLength: 1, maxLength: 5 }), (text, labels) => {
        let parsed: ReturnType<typeof parse>;
        try {
          parsed = parse(text, labels);
        } catch {
          // Invalid label sets (a surface form meaning two labels) throw InvalidArgumentError by design; replies never do.
          return;
        }
        if (parsed.label === undefined) expect(parsed.problems.length).toBeGreaterThan(0);
        else expect(labels).toContain(parsed.label);
      }),
      { numRuns: 500 },
    );
  });
});
