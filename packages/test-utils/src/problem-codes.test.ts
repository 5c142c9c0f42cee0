import { describe, expect, it } from 'vitest';
import { compareProblemCodes } from './problem-codes.js';

describe('compareProblemCodes', () => {
  it('is empty on both sides when exactly the members were emitted, in any order and with repeats', () => {
    expect(compareProblemCodes(['a', 'b', 'c'], ['c', 'a', 'b', 'a'])).toEqual({ outside: [], notEmitted: [] });
    expect(compareProblemCodes({ a: true, b: true }, new Set(['b', 'a']))).toEqual({ outside: [], notEmitted: [] });
  });

  it('names the emitted codes outside the union (sorted) and the members never emitted (in list order)', () => {
    expect(compareProblemCodes(['z-last', 'b', 'a-first'], ['y', 'b', 'x', 'y'])).toEqual({ outside: ['x', 'y'], notEmitted: ['z-last', 'a-first'] });
    expect(compareProblemCodes({ 'call-failed': true, 'parse-failed': true }, [])).toEqual({ outside: [], notEmitted: ['call-failed', 'parse-failed'] });
    expect(compareProblemCodes([], ['a'])).toEqual({ outside: ['a'], notEmitted: [] });
  });
});
