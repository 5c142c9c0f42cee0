import { CorruptDataError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTrecQrels, formatTrecRun, parseTrecQrels, parseTrecRun } from './trec-format.js';

const id = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,8}$/);

describe('TREC parsers (fast-check)', () => {
  it('never throw anything but CorruptDataError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('q', '1', ' ', '\t', '\n', 'Q0', '0', '.', 'e', '-', 'x', 'd'), maxLength: 80 }), (text) => {
        // Either a CorruptDataError, or a table that survives formatting and parsing again unchanged.
        for (const [parse, format] of [
          [parseTrecQrels, formatTrecQrels],
          [parseTrecRun, formatTrecRun],
        ] as const) {
          let parsed: Record<string, Record<string, number>> | undefined;
          try {
            parsed = parse(text);
          } catch (error) {
            expect(CorruptDataError.isInstance(error)).toBe(true);
            continue;
          }
          expect(parse(format(parsed))).toEqual(parsed);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('round-trip: parse(format(x)) = x for qrels and runs', () => {
    const table = <T>(value: fc.Arbitrary<T>) => fc.dictionary(id, fc.dictionary(id, value, { minKeys: 1 }));
    fc.assert(
      fc.property(table(fc.integer({ min: -1, max: 4 })), table(fc.double({ noNaN: true, noDefaultInfinity: true })), (qrels, run) => {
        expect(parseTrecQrels(formatTrecQrels(qrels))).toEqual(qrels);
        const parsed = parseTrecRun(formatTrecRun(run));
        expect(Object.keys(parsed).sort()).toEqual(
          Object.keys(run)
            .filter((queryId) => Object.keys(run[queryId]!).length > 0)
            .sort(),
        );
        for (const [queryId, scores] of Object.entries(parsed)) for (const [documentId, score] of Object.entries(scores)) expect(Object.is(score, run[queryId]![documentId]) || score === run[queryId]![documentId]).toBe(true);
      }),
    );
  });
});

describe('ids that collide with Object.prototype', () => {
  it('keeps __proto__, valueOf and constructor as ordinary query and document ids', async () => {
    const { evaluateRun } = await import('./evaluate-run.js');
    const qrels = parseTrecQrels('__proto__ 0 valueOf 1\nconstructor 0 d 1\n');
    const run = parseTrecRun('__proto__ Q0 valueOf 1 2 r\nconstructor Q0 x 1 1 r\n');
    expect(Object.keys(qrels).sort()).toEqual(['__proto__', 'constructor']);
    const result = evaluateRun(qrels, run, { metrics: ['P_1'], completeQueries: true });
    expect(Object.keys(result.perQuery).sort()).toEqual(['__proto__', 'constructor']);
    expect(result.aggregate.P_1).toBe(0.5);
  });
});
