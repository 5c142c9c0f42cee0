import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropReasoning, foldHomoglyphs, stripCodeFences, stripInvisible } from './reply-text.js';

describe('stripCodeFences', () => {
  it.each([
    ['```json\n{"a": 1}\n```', '{"a": 1}'],
    ['```\nneutral\n```', 'neutral'],
    ['~~~\nx\n~~~', 'x'],
    ['text before\n```python\nprint(1)\n```\ntext after', 'text before\nprint(1)\ntext after'],
    ['no fences here', 'no fences here'],
    ['inline ``` is kept', 'inline ``` is kept'],
    ['```', ''],
  ])('%j -> %j', (input, output) => {
    expect(stripCodeFences(input)).toBe(output);
  });
  it('never throws, removes every fence line and keeps every other line (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom('```', '```json', '~~~', '  ```ts'),
            fc.string({ maxLength: 30 }).filter((line) => !line.includes('\n') && !/^[ \t]*(?:```|~~~)/.test(line)),
          ),
          { maxLength: 12 },
        ),
        (lines) => {
          const kept = lines.filter((line) => !/^[ \t]*(?:```|~~~)/.test(line));
          expect(stripCodeFences(lines.join('\n'))).toBe(kept.join('\n').trim());
        },
      ),
      { numRuns: 300 },
    );
    expect(stripCodeFences(undefined as never)).toBe('');
  });
});

describe('reply text helpers', () => {
  it('drop invisible characters, fold look-alike letters and keep what follows a reasoning block', () => {
    expect(stripInvisible('en\u200btail\u202ement\ufeff')).toBe('entailment');
    expect(foldHomoglyphs('еntаilmеnt')).toBe('entailment');
    expect(dropReasoning('<think>neutral?</think> Entailment')).toBe(' Entailment');
    expect(dropReasoning('Entailment <think>unfinished')).toBe('Entailment ');
  });
});
