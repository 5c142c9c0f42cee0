import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION, runCli } from '../src/run-cli.js';

// Issue 21, "Smaller": one prefix per error line, the right command and flag named, duplicate ids treated alike.
const dir = mkdtempSync(join(tmpdir(), 'factkit-messages-'));
const corpus = join(dir, 'corpus.jsonl');
const duplicates = join(dir, 'dup.jsonl');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, '--no-config'], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), progress: () => {}, env: {}, cwd: dir });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  writeFileSync(corpus, `${JSON.stringify({ id: 'a', text: 'Paris is the capital of France.' })}\n${JSON.stringify({ id: 'b', text: 'Rome is the capital of Italy.' })}\n`);
  writeFileSync(duplicates, `${JSON.stringify({ id: 'a', text: 'Paris is the capital of France.' })}\n${JSON.stringify({ id: 'a', text: 'Rome is the capital of Italy.' })}\n`);
  expect((await cli(['index', '--jsonl', corpus, '--out', join(dir, 'c.dense'), '--kind', 'dense'])).code).toBe(0);
}, 60_000);

describe('error messages (issue 21, smaller)', () => {
  it('never double their prefix, and name the command and flag the input came from', async () => {
    const cases: [string[], string][] = [
      [['enrich', '--input', join(dir, 'nope.jsonl'), '--out', join(dir, 'x.jsonl')], `factkit enrich: argument "--input" cannot read "${join(dir, 'nope.jsonl')}": ENOENT`],
      [['trace', '--corpus', join(dir, 'nope.jsonl'), '--query', 'x'], `factkit trace: argument "--corpus" cannot read "${join(dir, 'nope.jsonl')}": ENOENT`],
      [['check', '--answer', 'x', '--corpus', join(dir, 'nope.jsonl'), '--no-html'], `factkit check: argument "--corpus" cannot read "${join(dir, 'nope.jsonl')}": ENOENT`],
      [['search', '--index', join(dir, 'c.dense'), '--query', 'x', '--top-k', '-1'], 'factkit search: argument "--top-k" must be a positive integer (got "-1")'],
      [['check', '--answer', 'x', '--top-k', '-1', '--corpus', corpus, '--no-html'], 'factkit check: argument "--top-k" must be a positive integer (got "-1")'],
      [['expand', '--query', 'x', '--method', 'rm3', '--index', join(dir, 'c.dense')], `factkit expand: argument "--index" is a dense index ("${join(dir, 'c.dense')}"); rm3 needs a BM25 index (factkit index --kind bm25)`],
    ];
    for (const [args, line] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(`${line}\n`);
      expect(result.stderr).not.toMatch(/^factkit(?: [\w-]+)?: factkit/m);
    }
  });

  it('a dense file given to search is searched as a dense index, not described as BM25', async () => {
    const result = await cli(['search', '--index', join(dir, 'c.dense'), '--query', 'capital of France', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'dense', hits: [{ id: 'a' }, { id: 'b' }] });
  });

  it('duplicate corpus ids: check, index and enrich all drop the repeat with the same named warning (no API advice) and exit 3', async () => {
    const warning = `warning: ${duplicates}:2: repeats document id "a" (first on line 1)\n`;
    for (const args of [
      ['check', '--answer', 'Paris is the capital of France.', '--corpus', duplicates, '--no-html'],
      ['index', '--jsonl', duplicates, '--out', join(dir, 'dup.bm25')],
      ['enrich', '--input', duplicates, '--out', join(dir, 'dup-chunks.jsonl')],
      ['trace', '--corpus', duplicates, '--query', 'Paris'],
    ]) {
      const result = await cli(args);
      expect(result.code, args[0]).toBe(3);
      expect(result.stderr, args[0]).toContain(warning);
      expect(result.stderr).not.toMatch(/option|dedupe/i);
    }
  }, 60_000);

  it('factkit --version prints the version', async () => {
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });
});
