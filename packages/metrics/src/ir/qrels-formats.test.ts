import { CorruptDataError } from '@factkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QRELS_FORMATS, detectQrelsFormat, formatQrels, parseBeirQrelsTsv, parseQrels, parseRun } from './qrels-formats.js';

// Ids as the three layouts allow them: no whitespace (TREC splits on it), not the BEIR header word.
const id = fc.stringMatching(/^[A-Za-z0-9_.:\-/#]{1,12}$/).filter((value) => value !== 'query-id');
const qrels = fc.dictionary(id, fc.dictionary(id, fc.integer({ min: -1, max: 4 }), { minKeys: 1, maxKeys: 5 }), { maxKeys: 6 });

describe('qrels in TREC, BEIR TSV and pytrec_eval JSON', () => {
  it('round-trips every layout through auto-detection', () => {
    fc.assert(
      fc.property(qrels, fc.constantFrom(...QRELS_FORMATS), (table, format) => {
        const text = formatQrels(table, format);
        if (Object.keys(table).length > 0) expect(detectQrelsFormat(text)).toBe(format);
        expect(parseQrels(text)).toEqual(table);
        expect(parseQrels(text, { format })).toEqual(table);
      }),
    );
  });

  it('reads the same judgments from the three layouts of one hand-written file', () => {
    const expected = { '1': { '31715818': 1 }, '36': { '5152028': 1, '11705328': 2 } };
    expect(parseQrels('query-id\tcorpus-id\tscore\n1\t31715818\t1\n36\t5152028\t1\n36\t11705328\t2\n')).toEqual(expected);
    expect(parseQrels('1 0 31715818 1\n36 0 5152028 1\n36\tQ0\t11705328\t2\n')).toEqual(expected);
    expect(parseQrels('{"1": {"31715818": 1}, "36": {"5152028": 1, "11705328": 2}}')).toEqual(expected);
    // BEIR without its header, CRLF line ends and a byte-order mark.
    expect(parseQrels('\uFEFF1\t31715818\t1\r\n36\t5152028\t1\r\n36\t11705328\t2\r\n')).toEqual(expected);
  });

  it('names the source and line of malformed text', () => {
    expect(() => parseQrels('q1 d1\n', { source: 'x.txt' })).toThrow(/x\.txt.*neither TREC/);
    expect(() => parseBeirQrelsTsv('q1\td1\t1\nq1\td2\n', { source: 'x.tsv' })).toThrow(/x\.tsv:2.*2 tab-separated columns/);
    expect(() => parseBeirQrelsTsv('q1\td1\thigh\n')).toThrow(/score "high" is not an integer/);
    expect(() => parseBeirQrelsTsv('q1\td1\t1\nq1\td1\t0\n')).toThrow(/judged twice/);
    let error: unknown;
    try {
      parseQrels('q1 0 d1 1\nq1 0 d2\n', { source: 'y' });
    } catch (caught) {
      error = caught;
    }
    expect(CorruptDataError.isInstance(error)).toBe(true);
    expect(() => parseQrels('', { format: 'xml' as 'trec' })).toThrow(/argument "format"/);
  });

  it('reads runs as TREC or JSON', () => {
    expect(parseRun('q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1 t\n')).toEqual({ q1: { d1: 2.5, d2: 1 } });
    expect(parseRun(' {"q1": {"d1": 2.5, "d2": 1}}')).toEqual({ q1: { d1: 2.5, d2: 1 } });
  });
});
