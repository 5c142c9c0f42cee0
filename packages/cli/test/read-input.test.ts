import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { InvalidArgumentError } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { readJsonlCorpus, readJsonlInput, readTextInput } from '../src/read-input.js';

const flag = { command: 'trace', flag: '--corpus' };
const dir = mkdtempSync(join(tmpdir(), 'factkit-read-input-'));
let files = 0;
function file(content: string | Uint8Array): string {
  const path = join(dir, `f${files++}.jsonl`);
  writeFileSync(path, content);
  return path;
}
const keepAll = { read: (value: unknown) => ({ value }) };

describe('readJsonlInput: one problems policy', () => {
  it('a UTF-8 byte-order mark does not lose the first record', async () => {
    const { items, problems } = await readJsonlCorpus(file('\uFEFF{"id":"a","text":"first"}\n{"id":"b","text":"second"}\n'), flag);
    expect(items.map((document) => document.id)).toEqual(['a', 'b']);
    expect(problems).toEqual([]);
  });

  it('malformed lines are counted and named file:line with the reason; the readable ones are kept', async () => {
    const path = file('{"id":"a","text":"x"}\n{"id":\n{"text":"no id"}\n{"id":"a","text":"again"}\n{"id":"b","text":"y"}\n');
    const { items, problems } = await readJsonlCorpus(path, flag);
    expect(items.map((document) => document.id)).toEqual(['a', 'b']);
    expect(problems.map((problem) => problem.message)).toEqual([`${path}:2: not valid JSON`, `${path}:3: needs "id" (or "_id") and "text"`, `${path}:4: repeats document id "a" (first on line 1)`]);
  });

  it('an empty file (or only blank lines) is bad input naming the command and flag', async () => {
    for (const content of ['', '\n \n', '\uFEFF']) {
      const path = file(content);
      const error = await readJsonlInput(path, flag, keepAll).catch((caught: unknown) => caught);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(`factkit trace: argument "--corpus" "${path}" is empty`);
    }
  });

  it('a file with no readable line is bad input that names the first problems', async () => {
    const path = file('nope\n{"x":1}\n');
    const error = await readJsonlCorpus(path, flag).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`has no readable line (2 malformed: ${path}:1: not valid JSON; ${path}:2: needs "id"`);
  });

  it('binary input is refused: a NUL byte, or bytes that are not UTF-8', async () => {
    const nul = file(Uint8Array.from([0x7b, 0x7d, 0x0a, 0x00, 0x01]));
    await expect(readJsonlInput(nul, flag, keepAll)).rejects.toThrow(`factkit trace: argument "--corpus" "${nul}" is not a text file (NUL byte at offset 3)`);
    const latin1 = file(Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
    await expect(readJsonlInput(latin1, flag, keepAll)).rejects.toThrow(/is not a text file \(not valid UTF-8\)/);
  });

  it('a missing file names the command and flag it came from', async () => {
    await expect(readJsonlInput(join(dir, 'missing.jsonl'), { command: 'enrich', flag: '--input' }, keepAll)).rejects.toThrow(/^factkit enrich: argument "--input" cannot read ".*missing\.jsonl": ENOENT$/);
  });

  it('gzip input is decompressed (magic bytes), BOM included', async () => {
    const path = file(gzipSync(Buffer.from('\uFEFF{"_id":"z","contents":"zipped"}\n')));
    const { items } = await readJsonlCorpus(path, flag);
    // Without a "source" field the file's name is the typed Document.source.
    expect(items).toEqual([{ id: 'z', text: 'zipped', source: { name: basename(path) } }]);
    await expect(readTextInput(file(Uint8Array.from([0x1f, 0x8b, 0x00, 0x01])), flag)).rejects.toThrow(/is a damaged gzip file/);
  });
});
