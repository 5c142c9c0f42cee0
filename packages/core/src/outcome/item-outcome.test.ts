import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countFailed, itemFailed, itemOk, type ItemOutcome } from './item-outcome.js';

describe('ItemOutcome', () => {
  it('itemOk keeps the value and drops an empty problem list', () => {
    expect(itemOk(3)).toEqual({ status: 'ok', value: 3 });
    expect(itemOk('x', [{ code: 'extra-text', message: 'ignored' }])).toEqual({ status: 'ok', value: 'x', problems: [{ code: 'extra-text', message: 'ignored' }] });
  });

  it('itemFailed keeps problems and the raw reply only when given', () => {
    const problems = [{ code: 'call-failed', message: 'boom' }];
    expect(itemFailed(problems)).toEqual({ status: 'failed', problems });
    expect(itemFailed(problems, 'reply')).toEqual({ status: 'failed', problems, raw: 'reply' });
    expect('raw' in itemFailed(problems)).toBe(false);
  });

  it('narrows on status', () => {
    const outcomes: ItemOutcome<number>[] = [itemOk(1), itemFailed([{ code: 'x', message: 'y' }])];
    const values = outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
    expect(values).toEqual([1]);
  });

  it('countFailed counts exactly the failed outcomes', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean()), (flags) => {
        const outcomes = flags.map((ok, index) => (ok ? itemOk(index) : itemFailed([{ code: 'x', message: String(index) }])));
        expect(countFailed(outcomes)).toBe(flags.filter((ok) => !ok).length);
      }),
    );
  });
});
