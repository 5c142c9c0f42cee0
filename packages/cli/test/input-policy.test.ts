import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';

// The bad-input matrix of the JSONL readers: every subcommand that reads a JSONL file, under one policy —
// missing 2, empty 2, binary 2, nothing readable 2, a malformed line 3 (named file:line), a byte-order mark 0.

const dir = mkdtempSync(join(tmpdir(), 'factkit-input-policy-'));
const env = { OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), progress: () => {}, env, cwd: dir });
  return { code, stdout, stderr };
}

const CORPUS = [
  { id: 'aq-0', text: 'The Acqua Felice aqueduct was completed in 1586.' },
  { id: 'aq-1', text: 'The aqueduct was commissioned by Pope Sixtus V.' },
  { id: 'fr-0', text: 'Paris is the capital of France.' },
  { id: 'fr-1', text: 'The Seine flows through Paris.' },
];
const jsonl = (rows: readonly object[]) => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';

/** Per input: its good content, and the args with the file under test as `path`. */
const INPUTS: Record<string, { good: string; args: (path: string) => string[] }> = {
  'check --input': { good: jsonl([{ id: 'q', question: 'Who built it?', answer: 'Pope Sixtus V built the aqueduct.' }]), args: (path) => ['check', '--input', path, '--corpus', join(dir, 'corpus.jsonl'), '--no-html'] },
  'check --corpus': { good: jsonl(CORPUS), args: (path) => ['check', '--answer', 'Paris is the capital of France.', '--corpus', path, '--no-html'] },
  'expand --input': { good: jsonl([{ id: 'q1', text: 'aqueduct pope' }]), args: (path) => ['expand', '--input', path, '--method', 'rm3', '--index', join(dir, 'corpus.bm25')] },
  'enrich --input': { good: jsonl(CORPUS), args: (path) => ['enrich', '--input', path, '--out', join(dir, 'out', 'chunks.jsonl')] },
  'enrich --queries': {
    good: jsonl([{ query: 'Who commissioned the aqueduct?', documentId: 'aq-1' }]),
    args: (path) => ['enrich', '--input', join(dir, 'corpus.jsonl'), '--queries', path, '--out', join(dir, 'out', 'chunks.jsonl'), '--md', join(dir, 'out', 'r.md')],
  },
  'trace --corpus': { good: jsonl(CORPUS), args: (path) => ['trace', '--corpus', path, '--query', 'The aqueduct was built in 1586.', '--k', '2', '--leaf-size', '2'] },
  'trace --queries': {
    good: 'The aqueduct was built in 1586.\n' + jsonl([{ query: 'Paris is in France.', supporting: ['fr-0'] }]),
    args: (path) => ['trace', '--corpus', join(dir, 'corpus.jsonl'), '--queries', path, '--k', '2', '--leaf-size', '2'],
  },
  'index --jsonl': { good: jsonl(CORPUS), args: (path) => ['index', '--jsonl', path, '--out', join(dir, 'out', 'i.bm25')] },
};

let cases = 0;
function write(name: string, content: string | Uint8Array): string {
  const path = join(dir, `${cases++}-${name.replace(/\W+/g, '_')}.jsonl`);
  writeFileSync(path, content);
  return path;
}

beforeAll(async () => {
  mkdirSync(join(dir, 'out'), { recursive: true });
  writeFileSync(join(dir, 'corpus.jsonl'), jsonl(CORPUS));
  expect((await cli(['index', '--jsonl', join(dir, 'corpus.jsonl'), '--out', join(dir, 'corpus.bm25')])).code).toBe(0);
}, 60_000);

describe.each(Object.entries(INPUTS))('%s', (name, { good, args }) => {
  it('missing → 2, naming the command and flag', async () => {
    const result = await cli(args(join(dir, 'missing.jsonl')));
    const [command, flag] = name.split(' ');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`factkit ${command}: argument "${flag}" cannot read "${join(dir, 'missing.jsonl')}": ENOENT\n`);
  });

  it('empty → 2', async () => {
    const result = await cli(args(write(name, '\n')));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/" is empty\n$/);
  });

  it('binary → 2', async () => {
    const result = await cli(args(write(name, Uint8Array.from([...Buffer.from(good), 0x00, 0xff]))));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a text file \(NUL byte at offset \d+\)\n$/);
  });

  it('nothing readable → 2', async () => {
    const result = await cli(args(write(name, '{"broken":\n')));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/has no readable line \(1 malformed: .*:1: not valid JSON\)\n$/);
  });

  it('a malformed line → 3, named file:line, the rest is used', async () => {
    const path = write(name, `${good}{"broken":\n`);
    const result = await cli(args(path));
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(`warning: ${path}:${good.trimEnd().split('\n').length + 1}: not valid JSON\n`);
  }, 60_000);

  it('a byte-order mark → 0, first record kept', async () => {
    const result = await cli([...args(write(name, `\uFEFF${good}`))]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  }, 60_000);
});

describe('index --folder', () => {
  it('refuses a binary .txt (2) and an empty folder (2); indexes a text file with a byte-order mark (0)', async () => {
    const binary = join(dir, 'folder-binary');
    mkdirSync(binary);
    writeFileSync(join(binary, 'a.txt'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]));
    const refused = await cli(['index', '--folder', binary, '--out', join(dir, 'out', 'f.bm25')]);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/^factkit index: argument "--folder" ".*a\.txt" is not a text file \(NUL byte at offset 4\)\n$/) });
    const empty = join(dir, 'folder-empty');
    mkdirSync(empty);
    expect(await cli(['index', '--folder', empty, '--out', join(dir, 'out', 'f.bm25')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/no \.txt or \.md file below/) });
    const text = join(dir, 'folder-text');
    mkdirSync(text);
    writeFileSync(join(text, 'a.txt'), '\uFEFFThe aqueduct was completed in 1586.');
    expect(await cli(['index', '--folder', text, '--out', join(dir, 'out', 'f.bm25'), '--json'])).toMatchObject({ code: 0, stdout: expect.stringContaining('"documents":1') });
  });
});
