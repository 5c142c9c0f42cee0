import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { LEXICAL_FEATURE_NAMES, computeLexicalFeatures } from './lexical-features.js';
import { createLexicalNliModel } from './lexical-nli-model.js';

describe('computeLexicalFeatures (hand-checked)', () => {
  it('measures content-word coverage, negation, numbers and entities', () => {
    const same = computeLexicalFeatures('Paris is the capital of France.', 'Paris is the capital of France.');
    expect(same).toMatchObject({ hypothesisCoverage: 1, premiseCoverage: 1, jaccard: 1, bigramCoverage: 1, negationMismatch: 0, exactContainment: 1, entityMismatch: 0 });

    // Content words of the hypothesis: paris, capital, france, not -> 3 of 4 in the premise.
    const negated = computeLexicalFeatures('Paris is the capital of France.', 'Paris is not the capital of France.');
    expect(negated.hypothesisCoverage).toBe(0.75);
    expect(negated.negationMismatch).toBe(1);
    expect(negated.hypothesisNegations).toBe(1);

    const numbers = computeLexicalFeatures('The tower is 330 metres tall and opened in 1889.', 'The tower opened in 1889 and is 300 metres tall.');
    expect(numbers.numberMismatch).toBe(0.5);
    expect(numbers.hypothesisHasNumbers).toBe(1);

    // "Lyon" is a capitalised word missing from the premise; "Paris" is present.
    const entities = computeLexicalFeatures('The museum is in Paris.', 'The museum moved from Paris to Lyon.');
    expect(entities.entityMismatch).toBe(0.5);
  });

  it('returns finite values for any text, including empty and Chinese (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.string({ maxLength: 120 }), (premise, hypothesis) => {
        const features = computeLexicalFeatures(premise, hypothesis);
        expect(Object.keys(features)).toEqual([...LEXICAL_FEATURE_NAMES]);
        for (const value of Object.values(features)) expect(Number.isFinite(value)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(computeLexicalFeatures('北京是中国的首都', '北京不是中国的首都').negationMismatch).toBe(1);
  });
});

describe('createLexicalNliModel', () => {
  const model = createLexicalNliModel();
  it.each([
    ['Paris is the capital of France.', 'Paris is the capital of France.', 'entailment'],
    ['Soul Food is a 1997 film released by Fox 2000 Pictures.', 'Fox 2000 Pictures released Soul Food.', 'entailment'],
    ['Paris is the capital of France.', 'Paris is not the capital of France.', 'contradiction'],
    ['The tower is 330 metres tall.', 'The tower is 300 metres tall.', 'contradiction'],
    ['Bananas are yellow fruits.', 'The Eiffel Tower is in Rome.', 'neutral'],
  ] as const)('%s / %s -> %s', async (premise, hypothesis, label) => {
    const { results } = await model.classify({ pairs: [{ premise, hypothesis }] });
    expect(results).toEqual([{ label }]);
  });

  it('validates thresholds with typed errors', () => {
    expect(() => createLexicalNliModel({ entailmentThreshold: 1.5 })).toThrow(/entailmentThreshold/);
    let thrown: unknown;
    try {
      createLexicalNliModel({ contradictionThreshold: -1 });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
  });
});
