import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './factkit-error.js';
import { assertFiniteNumber, assertIntegerInRange, assertNonEmptyString, assertNonNegativeInteger, assertNonNegativeNumber, assertNumberInRange, assertPositiveInteger, assertPositiveNumber, assertProbability } from './guards.js';

function thrown(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Any value at all, numbers weighted up (including NaN, ±Infinity, -0, fractions, huge integers). */
const anything = fc.oneof(
  fc.double(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 1, 0.5, Number.MAX_SAFE_INTEGER),
  fc.string(),
  fc.constantFrom(undefined, null, true, false, '3', [], {}),
);

/** Each guard beside an independent statement of what it accepts. */
const cases: ReadonlyArray<readonly [string, (argument: string, value: unknown, where?: string) => void, (value: unknown) => boolean, string]> = [
  ['assertPositiveInteger', assertPositiveInteger, (v) => typeof v === 'number' && Math.floor(v) === v && v >= 1 && v !== Infinity, 'an integer >= 1'],
  ['assertNonNegativeInteger', assertNonNegativeInteger, (v) => typeof v === 'number' && Math.floor(v) === v && v >= 0 && v !== Infinity, 'an integer >= 0'],
  ['assertFiniteNumber', assertFiniteNumber, (v) => typeof v === 'number' && !Number.isNaN(v) && Math.abs(v) !== Infinity, 'a finite number'],
  ['assertNonNegativeNumber', assertNonNegativeNumber, (v) => typeof v === 'number' && v >= 0 && v !== Infinity, 'a finite number >= 0'],
  ['assertPositiveNumber', assertPositiveNumber, (v) => typeof v === 'number' && v > 0 && v !== Infinity, 'a finite number > 0'],
  ['assertProbability', assertProbability, (v) => typeof v === 'number' && v >= 0 && v <= 1, 'a number in [0, 1]'],
  ['assertNonEmptyString', assertNonEmptyString, (v) => typeof v === 'string' && v !== '', 'a non-empty string'],
];

describe('argument guards', () => {
  for (const [name, guard, accepts, expected] of cases) {
    it(`${name} accepts exactly what it promises and names the argument otherwise`, () => {
      fc.assert(
        fc.property(anything, fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,10}$/), (value, argument) => {
          const error = thrown(() => guard(argument, value, 'caller'));
          if (accepts(value)) {
            expect(error).toBeUndefined();
          } else {
            expect(InvalidArgumentError.isInstance(error)).toBe(true);
            const invalid = error as InvalidArgumentError;
            expect(invalid.argument).toBe(argument);
            expect(invalid.message.startsWith(`caller: argument "${argument}" must be ${expected} (got `)).toBe(true);
          }
        }),
      );
    });
  }

  it('shows the value it got, strings quoted, and omits the prefix without `where`', () => {
    expect((thrown(() => assertPositiveInteger('topK', 0)) as Error).message).toBe('argument "topK" must be an integer >= 1 (got 0)');
    expect((thrown(() => assertPositiveInteger('topK', '3')) as Error).message).toBe('argument "topK" must be an integer >= 1 (got "3")');
    expect((thrown(() => assertNonEmptyString('id', '', 'f')) as Error).message).toBe('f: argument "id" must be a non-empty string (got "")');
    expect((thrown(() => assertFiniteNumber('x', Number.NaN)) as Error).message).toBe('argument "x" must be a finite number (got NaN)');
  });

  it('assertIntegerInRange and assertNumberInRange hold their bounds inclusively', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -60, max: 60 }), (a, b, value) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const inside = value >= min && value <= max;
        expect(thrown(() => assertIntegerInRange('k', value, min, max)) === undefined).toBe(inside);
        expect(thrown(() => assertNumberInRange('k', value, min, max)) === undefined).toBe(inside);
        expect(thrown(() => assertIntegerInRange('k', value + 0.5, min, max)) === undefined).toBe(false);
      }),
    );
    expect((thrown(() => assertIntegerInRange('n', 3, 4)) as Error).message).toBe('argument "n" must be an integer >= 4 (got 3)');
    expect((thrown(() => assertIntegerInRange('n', 65, 1, 64)) as Error).message).toBe('argument "n" must be an integer from 1 to 64 (got 65)');
    expect((thrown(() => assertNumberInRange('t', 2.5, 0, 2)) as Error).message).toBe('argument "t" must be a number in [0, 2] (got 2.5)');
  });
});
