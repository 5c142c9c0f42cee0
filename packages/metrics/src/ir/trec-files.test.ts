import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptDataError } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { readQrelsFile, readRunFile, writeTrecQrelsFile, writeTrecRunFile } from './trec-files.js';

const directory = mkdtempSync(join(tmpdir(), 'factkit-trec-files-'));

describe('TREC run and qrels files', () => {
  it('writes a run in trec_eval order and reads it back', async () => {
    const path = join(directory, 'run.trec');
    // d2 and d3 tie: trec_eval breaks score ties by docno descending.
    await writeTrecRunFile(path, { q1: { d1: 2.5, d2: 1, d3: 1 } }, { runId: 'test' });
    expect(readFileSync(path, 'utf8')).toBe('q1 Q0 d1 1 2.5 test\nq1 Q0 d3 2 1 test\nq1 Q0 d2 3 1 test\n');
    expect(await readRunFile(path)).toEqual({ q1: { d1: 2.5, d2: 1, d3: 1 } });
  });
  it('writes qrels sorted and reads them back', async () => {
    const path = join(directory, 'qrels.txt');
    await writeTrecQrelsFile(path, { q2: { b: 0 }, q1: { z: 2, a: 1 } });
    expect(readFileSync(path, 'utf8')).toBe('q1 0 a 1\nq1 0 z 2\nq2 0 b 0\n');
    expect(await readQrelsFile(path)).toEqual({ q1: { a: 1, z: 2 }, q2: { b: 0 } });
  });
  it('names the file and line of a malformed row', async () => {
    const path = join(directory, 'bad.trec');
    writeFileSync(path, 'q1 Q0 d1 1 2.5 test\nq1 Q0 d2 2 high test\n');
    const error = await readRunFile(path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(CorruptDataError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${path}:2`);
    expect((error as Error).message).toMatch(/score "high" is not a finite number/);
  });
});
