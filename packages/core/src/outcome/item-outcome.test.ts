import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { countFailed, type ItemOk, itemFailed, itemOk, type ItemOutcome } from './item-outcome.js';

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

  it('types the problems of both sides with the code union (checked by tsc)', () => {
    type Code = 'late' | 'partial';
    type CodeOf<Status extends 'ok' | 'failed'> = NonNullable<Extract<ItemOutcome<number, Code>, { status: Status }>['problems']>[number]['code'];
    expectTypeOf<CodeOf<'ok'>>().toEqualTypeOf<Code>();
    expectTypeOf<CodeOf<'failed'>>().toEqualTypeOf<Code>();
    // Without problems an ok outcome has no code and fits any union; with problems the code is inferred from them.
    expectTypeOf(itemOk(1)).toEqualTypeOf<ItemOk<number, never>>();
    expectTypeOf(itemOk(1, [{ code: 'late' as const, message: 'm' }])).toEqualTypeOf<ItemOk<number, 'late'>>();
    const outcomes: ItemOutcome<number, Code>[] = [itemOk(1), itemOk(2, [{ code: 'partial', message: 'm' }])];
    // @ts-expect-error an ok outcome's problem outside the union is a compile error
    const outside: ItemOutcome<number, Code> = { status: 'ok', value: 3, problems: [{ code: 'other', message: 'm' }] };
    // The default keeps plain strings: existing `ItemOutcome<T>` code compiles unchanged.
    const loose: ItemOutcome<number> = { status: 'ok', value: 4, problems: [{ code: 'anything', message: 'm' }] };
    expect([...outcomes, outside, loose].map((outcome) => outcome.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
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
