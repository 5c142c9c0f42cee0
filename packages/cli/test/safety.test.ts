import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';

// Issue 21 §9-§11: no leaked key, no lost file.
const KEY = 'sk-inurl-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'factkit-safety-'));
const CORPUS = `${JSON.stringify({ id: 'a', text: 'Paris is the capital of France.' })}\n${JSON.stringify({ id: 'b', text: 'Rome is the capital of Italy.' })}\n`;

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, '--no-config'], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), progress: () => {}, env, cwd: dir });
  return { code, stdout, stderr };
}

function file(name: string, content = CORPUS): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('a key inside --base-url (issue 21 §9)', () => {
  const url = `http://user:${KEY}@127.0.0.1:9/v1`;
  const corpus = file('corpus.jsonl');
  const commands: Record<string, string[]> = {
    check: ['check', '--answer', 'Paris is in France.', '--corpus', corpus, '--out', join(dir, 'k-check.json'), '--html', join(dir, 'k-check.html'), '--model', 'm'],
    enrich: ['enrich', '--input', corpus, '--out', join(dir, 'k-enrich.jsonl'), '--model', 'm'],
    trace: ['trace', '--corpus', corpus, '--query', 'Paris', '--out', join(dir, 'k-trace.json'), '--model', 'm'],
    expand: ['expand', '--query', 'Paris', '--method', 'query2doc', '--model', 'm'],
    models: ['models', '--model', 'm'],
    audit: ['audit', '--beir', dir, '--model', 'm', '--out', join(dir, 'k-audit.md')],
  };
  for (const [name, args] of Object.entries(commands)) {
    it(`${name}: refused (exit 2) naming --base-url / OPENAI_BASE_URL, the key never printed or written`, async () => {
      const flag = await cli([...args, '--base-url', url]);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toBe(`factkit ${name}: argument "--base-url" must not contain credentials (user:key@host): pass the key with --api-key or OPENAI_API_KEY (got http://127.0.0.1:9/v1)\n`);
      const fromEnv = await cli(args, { OPENAI_BASE_URL: url });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toMatch(/argument "OPENAI_BASE_URL" must not contain credentials/);
      for (const text of [flag.stdout, flag.stderr, fromEnv.stdout, fromEnv.stderr]) expect(text).not.toContain(KEY);
      for (const written of readdirSync(dir)) if (!written.endsWith('.jsonl')) expect(readFileSync(join(dir, written), 'utf8'), written).not.toContain(KEY);
      expect(readdirSync(dir).filter((written) => written.startsWith('k-'))).toEqual([]);
    });
  }
});

describe('an output path equal to an input (issue 21 §10)', () => {
  it('index --jsonl c.jsonl --out c.jsonl and enrich --input d.jsonl --out d.jsonl are refused; the data is unchanged', async () => {
    const corpus = file('same.jsonl');
    const index = await cli(['index', '--jsonl', corpus, '--out', corpus]);
    expect(index).toMatchObject({ code: 2, stderr: `factkit index: argument "--out" is the input file of --jsonl ("${corpus}"): writing it would replace your data; choose another output path\n` });
    const enrich = await cli(['enrich', '--input', corpus, '--out', corpus]);
    expect(enrich).toMatchObject({ code: 2, stderr: expect.stringMatching(/^factkit enrich: argument "--out" is the input file of --input/) });
    expect(readFileSync(corpus, 'utf8')).toBe(CORPUS);
  });

  it('a hard link of the input and another spelling of its path are the same file', async () => {
    const corpus = file('linked.jsonl');
    const link = join(dir, 'linked-hard.jsonl');
    linkSync(corpus, link);
    expect((await cli(['enrich', '--input', corpus, '--out', link])).code).toBe(2);
    expect((await cli(['trace', '--corpus', corpus, '--query', 'Paris', '--md', `${dir}/sub/../linked.jsonl`])).stderr).toMatch(/^factkit trace: argument "--md" is the input file of --corpus/);
    expect((await cli(['check', '--answer', 'x', '--corpus', corpus, '--out', link, '--no-html'])).stderr).toMatch(/^factkit check: argument "--out" is the input file of --corpus/);
    expect(readFileSync(corpus, 'utf8')).toBe(CORPUS);
  });

  it('a different output path still works', async () => {
    const corpus = file('fine.jsonl');
    expect((await cli(['index', '--jsonl', corpus, '--out', join(dir, 'fine.bm25')])).code).toBe(0);
  });
});

describe('index --out <existing directory> (issue 21 §11)', () => {
  it('is refused before indexing, and no temporary file is left behind', async () => {
    const folder = join(dir, 'out-folder');
    mkdirSync(folder);
    const result = await cli(['index', '--jsonl', file('dir.jsonl'), '--out', folder]);
    expect(result).toMatchObject({ code: 2, stderr: `factkit index: argument "--out" is a directory ("${folder}"); --kind bm25 writes one file\n` });
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(folder, 'index.bm25'))).toBe(false);
  });
});
