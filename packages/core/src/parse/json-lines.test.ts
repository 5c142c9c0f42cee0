import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptDataError, InvalidArgumentError } from '../errors/factkit-error.js';
import { decodeTextFile, parseJsonLines, stripByteOrderMark } from './json-lines.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('parseJsonLines', () => {
  it('keeps valid lines with their line numbers and skips blank lines (CRLF too)', () => {
    const parsed = parseJsonLines('{"a":1}\r\n\r\n  \n[2]\n"x"\n', { source: 'f.jsonl' });
    expect(parsed.items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: [2] },
      { line: 5, value: 'x' },
    ]);
    expect(parsed.problems).toEqual([]);
    expect(parsed.lines).toBe(3);
  });

  it('strips a UTF-8 byte-order mark so the first record is kept', () => {
    const parsed = parseJsonLines('\uFEFF{"id":"first"}\n{"id":"second"}\n');
    expect(parsed.items.map((item) => (item.value as { id: string }).id)).toEqual(['first', 'second']);
    expect(parsed.problems).toEqual([]);
  });

  it('names every malformed line by source:line with its reason, and keeps going', () => {
    const parsed = parseJsonLines('{"id":1}\n{"id":\nnot json\n{"id":4}\n', { source: 'c.jsonl' });
    expect(parsed.items.map((item) => item.line)).toEqual([1, 4]);
    expect(parsed.problems).toEqual([
      { index: 1, line: 2, code: 'bad-json', reason: 'not valid JSON', message: 'c.jsonl:2: not valid JSON' },
      { index: 2, line: 3, code: 'bad-json', reason: 'not valid JSON', message: 'c.jsonl:3: not valid JSON' },
    ]);
  });

  it('drops the lines the row reader refuses, with its reason', () => {
    const parsed = parseJsonLines<string>('{"text":"a"}\n{"text":3}\n', {
      source: 'q.jsonl',
      read: (value) => {
        const text = (value as { text?: unknown }).text;
        return typeof text === 'string' ? { value: text } : { reason: 'needs a string "text"' };
      },
    });
    expect(parsed.items).toEqual([{ line: 1, value: 'a' }]);
    expect(parsed.problems).toEqual([{ index: 1, line: 2, code: 'bad-row', reason: 'needs a string "text"', message: 'q.jsonl:2: needs a string "text"' }]);
  });

  it('hands lines that are not JSON objects or arrays to readPlainLine when given', () => {
    const parsed = parseJsonLines<string>('plain statement\n{"query":"json statement"}\n', {
      readPlainLine: (text) => ({ value: text }),
      read: (value) => ({ value: String((value as { query: string }).query) }),
    });
    expect(parsed.items.map((item) => item.value)).toEqual(['plain statement', 'json statement']);
  });

  it('an empty text has no items, no problems and no lines', () => {
    expect(parseJsonLines('')).toEqual({ items: [], problems: [], lines: 0 });
    expect(parseJsonLines('\uFEFF\n \n')).toEqual({ items: [], problems: [], lines: 0 });
  });

  it('refuses a non-string text with a typed error', () => {
    expect(() => parseJsonLines(null as unknown as string)).toThrow(InvalidArgumentError);
  });

  it('property: every non-blank line is either kept or reported, exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.jsonValue().map((value) => JSON.stringify(value)),
            fc.string().filter((s) => !s.includes('\n')),
          ),
        ),
        (lines) => {
          const parsed = parseJsonLines(lines.join('\n'));
          // String.prototype.trim also removes U+FEFF, so a line of only a byte-order mark is blank too.
          const nonBlank = lines.flatMap((text, k) => (text.trim() === '' ? [] : [k + 1]));
          expect(parsed.items.length + parsed.problems.length).toBe(parsed.lines);
          expect([...parsed.items.map((item) => item.line), ...parsed.problems.map((problem) => problem.line)].sort((a, b) => a - b)).toEqual(nonBlank);
        },
      ),
    );
  });
});

describe('stripByteOrderMark', () => {
  it('removes one leading mark only', () => {
    expect(stripByteOrderMark('\uFEFFa')).toBe('a');
    expect(stripByteOrderMark('a\uFEFF')).toBe('a\uFEFF');
    expect(stripByteOrderMark('\uFEFF\uFEFFa')).toBe('\uFEFFa');
  });
});

describe('decodeTextFile', () => {
  it('decodes UTF-8 and strips the byte-order mark', () => {
    expect(decodeTextFile(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('{"a":"é"}')]))).toBe('{"a":"é"}');
  });

  it('refuses a NUL byte, naming the source and offset', () => {
    expect(() => decodeTextFile(Uint8Array.from([0x61, 0x00, 0x62]), 'x.txt')).toThrow(CorruptDataError);
    expect(() => decodeTextFile(Uint8Array.from([0x61, 0x00, 0x62]), 'x.txt')).toThrow('x.txt: is not a text file (NUL byte at offset 1)');
  });

  it('refuses bytes that are not valid UTF-8', () => {
    // 0xff never occurs in UTF-8; 0xc3 alone is a truncated two-byte sequence.
    expect(() => decodeTextFile(Uint8Array.from([0x61, 0xff]), 'y.bin')).toThrow('y.bin: is not a text file (not valid UTF-8)');
    expect(() => decodeTextFile(Uint8Array.from([0xc3]), 'z.bin')).toThrow(CorruptDataError);
  });

  it('refuses a PNG header (binary) and accepts any valid UTF-8 text without NUL (property)', () => {
    expect(() => decodeTextFile(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]))).toThrow(CorruptDataError);
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\0') && !s.startsWith('\uFEFF')),
        (text) => {
          expect(decodeTextFile(utf8(text))).toBe(text);
        },
      ),
    );
  });
});
