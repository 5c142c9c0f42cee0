import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CorruptDataError } from '../errors/factkit-error.js';
import { readTextFile } from './read-text-file.js';

const dir = mkdtempSync(join(tmpdir(), 'factkit-read-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readTextFile', () => {
  it('reads plain UTF-8 and gzip (by magic bytes, whatever the name) to the same text', async () => {
    const text = 'q1 0 d1 1\nq1 0 d2 0 — ünïcode\n';
    writeFileSync(join(dir, 'plain.txt'), text);
    writeFileSync(join(dir, 'packed.txt'), gzipSync(Buffer.from(text)));
    expect(await readTextFile(join(dir, 'plain.txt'))).toBe(text);
    expect(await readTextFile(join(dir, 'packed.txt'))).toBe(text);
  });

  it('a damaged gzip stream is a CorruptDataError naming the file; a missing file is the file system error', async () => {
    const truncated = gzipSync(Buffer.from('x'.repeat(1000))).subarray(0, 12);
    writeFileSync(join(dir, 'broken.gz'), truncated);
    const error = await readTextFile(join(dir, 'broken.gz')).catch((e: unknown) => e);
    expect(CorruptDataError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain('broken.gz');
    await expect(readTextFile(join(dir, 'missing.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
