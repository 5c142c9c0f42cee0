import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFuzzCounter } from './fuzz-counter.fixture.js';
import { parseListItems } from './parse-list-items.js';

const counter = createFuzzCounter('parseListItems');
const { counts } = counter;
const parse = (reply: string) => counter.run(parseListItems, reply) ?? { items: [], problems: [] };

describe('parseListItems', () => {
  it('strips list markers, bold and quotes, and drops remarks around the list', () => {
    const reply = [
      'Sure! Here are 6 alternative queries:',
      '',
      '**1.** What lowers fever?',
      '(2) Does aspirin reduce temperature?',
      '3 - "Is aspirin an antipyretic?"',
      '4) **How do NSAIDs work?**',
      '- aspirin fever dose',
      '• fever medicine',
      '',
      'Hope this helps! Let me know if you need more.',
    ].join('\n');
    expect(parse(reply)).toEqual({
      items: ['What lowers fever?', 'Does aspirin reduce temperature?', 'Is aspirin an antipyretic?', 'How do NSAIDs work?', 'aspirin fever dose', 'fever medicine'],
      problems: [],
    });
  });
  it.each([
    ['1. a\n2. b', ['a', 'b']],
    ['1) a\n2) b', ['a', 'b']],
    ['1 - a\n2 - b', ['a', 'b']],
    ['(1) a\n(2) b', ['a', 'b']],
    ['**1.** a\n**2.** b', ['a', 'b']],
    ['Q1: a\nQ2: b', ['a', 'b']],
    ['* a\n* b', ['a', 'b']],
    ['a\nb\nc', ['a', 'b', 'c']],
    ['```\n1. a\n2. b\n```', ['a', 'b']],
    ['<think>list two</think>\n1. a\n2. b', ['a', 'b']],
    ['### Queries\n1. a\n2. b\n\nThese queries cover different angles.', ['a', 'b']],
    ['1. 1.5 million people\n2. -5 degrees', ['1.5 million people', '-5 degrees']],
    ['Here are 2 queries:\na\nb\nHope this helps!', ['a', 'b']],
    ['1、阿司匹林退烧\n2、退烧药物\n希望这对您有帮助', ['阿司匹林退烧', '退烧药物']],
  ])('reads %j', (reply, items) => {
    expect(parse(reply).items).toEqual(items);
  });
  it('reports an empty reply', () => {
    expect(parse('').problems[0]?.code).toBe('empty-reply');
    expect(parse('Hope this helps!').problems[0]?.code).toBe('empty-reply');
    expect(parse(undefined as never).problems[0]?.code).toBe('empty-reply');
  });
  it('recovers the items of a numbered list under any marker style, zero-width characters and closing remarks (property)', () => {
    const item = fc.stringMatching(/^[a-z][a-z ]{0,20}[a-z?]$/).filter((text) => !/^(?:sure|ok|okay|great|absolutely|certainly)\b/.test(text));
    const marker = fc.constantFrom('{n}. ', '{n}) ', '({n}) ', '{n} - ', '**{n}.** ', '- ', '* ', '• ', 'Q{n}: ');
    const remark = fc.constantFrom('', 'Hope this helps!', 'Let me know if you need more.', 'Here are the queries:', 'I hope these help!');
    fc.assert(
      fc.property(fc.array(item, { minLength: 2, maxLength: 6 }), marker, remark, remark, fc.constantFrom('', '\u200b', '\u200e'), (items, style, before, after, invisible) => {
        const lines = items.map((text, index) => `${style.replace('{n}', String(index + 1))}${invisible}${text}`);
        const parsed = parse([before, ...lines, after].join('\n'));
        if (JSON.stringify(parsed.items) !== JSON.stringify(items)) counts.wrong += 1;
        expect(parsed.items).toEqual(items);
      }),
      { numRuns: 500 },
    );
  });
  it('never throws on arbitrary text and 1 MB replies; items are never blank', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        for (const item of parse(text).items) expect(item.trim().length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
    expect(parse(`1. ${'a'.repeat(1 << 20)}\n2. b`).items).toHaveLength(2);
    expect(parse('- \n'.repeat(1 << 18)).items).toEqual([]);
    expect(parse(`${'1. x\n'.repeat(1 << 17)}`).items).toHaveLength(1 << 17);
  });
});
