import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

interface Failure {
  code: number;
  stdout: string;
  stderr: string;
}

async function searchHits(cwd: string, extra: string[], index: string): Promise<number> {
  const { stdout } = await run(process.execPath, [bin, 'search', '--index', index, '--query', 'cats dogs birds fish', '--json', ...extra], { env, cwd });
  return (JSON.parse(stdout) as { hits: unknown[] }).hits.length;
}

describe('factkit config file (built bin)', () => {
  it('is found up the tree (factkit.config.json or .factkitrc.json); flags beat it; --no-config and --config choose', async () => {
    const root = mkdtempSync(join(tmpdir(), 'factkit-config-'));
    const index = join(root, 'tiny.bm25');
    await run(process.execPath, [bin, 'index', '--beir', beir, '--out', index], { env, cwd: root });
    expect(await searchHits(root, [], index)).toBe(4); // no config: default top-k 10, 4 documents match
    writeFileSync(join(root, 'factkit.config.json'), JSON.stringify({ search: { topK: 2 } }));
    const deeper = join(root, 'a', 'b');
    mkdirSync(deeper, { recursive: true });
    expect(await searchHits(deeper, [], index)).toBe(2); // found two folders up
    expect(await searchHits(deeper, ['--top-k', '3'], index)).toBe(3); // the flag wins
    expect(await searchHits(deeper, ['--no-config'], index)).toBe(4);
    const other = join(root, 'other.json');
    writeFileSync(other, JSON.stringify({ search: { topK: 1 } }));
    expect(await searchHits(deeper, ['--config', other], index)).toBe(1);
    expect(await searchHits(deeper, [`--config=${other}`], index)).toBe(1);
    // .factkitrc.json works too; both in one folder is ambiguous.
    const rcRoot = mkdtempSync(join(tmpdir(), 'factkit-config-'));
    writeFileSync(join(rcRoot, '.factkitrc.json'), JSON.stringify({ search: { topK: 3 } }));
    expect(await searchHits(rcRoot, [], index)).toBe(3);
    writeFileSync(join(rcRoot, 'factkit.config.json'), '{}');
    const both = (await run(process.execPath, [bin, 'search', '--index', index, '--query', 'cats'], { env, cwd: rcRoot }).catch((error: Failure) => error)) as Failure;
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/factkit\.config\.json: and \.factkitrc\.json are both in .*; keep one\n$/);
  }, 120_000);

  it('endpoint keys: env beats the file, the file beats defaults; apiKey comes from the named variable and never reaches output', async () => {
    const server = await startScriptedOpenAIServer({ script: () => ({ content: '{"title": "T", "questions": ["Q?"]}' }) });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-config-'));
      const input = join(dir, 'docs.jsonl');
      writeFileSync(input, `${JSON.stringify({ _id: 'd', text: 'Paris is in France.' })}\n`);
      const secret = 'sk-config-secret-0123456789abcdef';
      // A base URL that nothing listens on: the run only works if OPENAI_BASE_URL (env) wins over it.
      writeFileSync(join(dir, 'factkit.config.json'), JSON.stringify({ baseURL: 'http://127.0.0.1:9/v1', model: 'config-model', apiKey: '$env:MY_FACTKIT_KEY', cacheDir: 'cache', enrich: { questions: 1 } }));
      const runEnrich = (extraEnv: Record<string, string>) => run(process.execPath, [bin, 'enrich', '--input', input, '--out', join(dir, 'out.jsonl'), '--json'], { env: { ...env, ...extraEnv }, cwd: dir });
      const first = await runEnrich({ OPENAI_BASE_URL: server.url, MY_FACTKIT_KEY: secret });
      const chat = () => server.requests.filter((request) => request.path === '/v1/chat/completions');
      expect(chat()).toHaveLength(1);
      expect((chat()[0]!.body as { model: string }).model).toBe('config-model');
      expect(chat()[0]!.headers['authorization']).toBe(`Bearer ${secret}`);
      expect(existsSync(join(dir, 'cache'))).toBe(true); // cacheDir from the file
      expect(JSON.parse(first.stdout)).toMatchObject({ annotated: 1, method: 'model config-model' });
      // FACTKIT_MODEL beats the file's model.
      const second = await runEnrich({ OPENAI_BASE_URL: server.url, MY_FACTKIT_KEY: secret, FACTKIT_MODEL: 'env-model' });
      expect((chat()[1]!.body as { model: string }).model).toBe('env-model');
      for (const output of [first, second]) expect(`${output.stdout}${output.stderr}`).not.toContain(secret);
      expect(readFileSync(join(dir, 'out.jsonl'), 'utf8')).not.toContain(secret);
      // The variable unset: a warning naming it, no key sent (the scripted server accepts that).
      const unset = await runEnrich({ OPENAI_BASE_URL: server.url, FACTKIT_MODEL: 'env-model-2' });
      expect(unset.stderr).toMatch(/key "apiKey" refers to \$MY_FACTKIT_KEY, which is not set/);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('outDir puts relative outputs under it (relative to the config file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-config-'));
    writeFileSync(join(dir, 'factkit.config.json'), JSON.stringify({ outDir: 'results', index: { k1: 1.2 } }));
    const { stdout } = await run(process.execPath, [bin, 'index', '--beir', beir, '--out', 'tiny.bm25', '--json'], { env, cwd: dir });
    expect(JSON.parse(stdout)).toMatchObject({ out: join(dir, 'results', 'tiny.bm25'), documents: 4 });
    expect(existsSync(join(dir, 'results', 'tiny.bm25'))).toBe(true);
  });

  it('a bad file is one line on stderr naming the file, the key and what is wrong (exit 2); a literal key is refused unseen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-config-'));
    const file = join(dir, 'factkit.config.json');
    const secret = 'sk-literal-secret-abcdef0123456789';
    const cases: [string, RegExp][] = [
      [JSON.stringify({ index: { embeder: 'glove' } }), /^factkit \w+: .*factkit\.config\.json: unknown key "index\.embeder" \(did you mean "embedder"\?\)\n$/],
      [JSON.stringify({ index: { kind: 'sparse' } }), /: key "index\.kind" must be one of bm25, dense, hybrid \(got "sparse"\)\n$/],
      [JSON.stringify({ search: { topK: 0 } }), /: key "search\.topK" must be a positive integer \(got 0\)\n$/],
      [JSON.stringify({ modle: 'x' }), /: unknown key "modle" \(did you mean "model"\?\)\n$/],
      [JSON.stringify({ baseURL: 'localhost:8000' }), /: key "baseURL" must be an http\(s\) URL/],
      [JSON.stringify({ offline: 'yes' }), /: key "offline" must be true or false/],
      [JSON.stringify({ search: [] }), /: key "search" must be an object/],
      [JSON.stringify({ apiKey: secret }), /: key "apiKey" must be an environment reference such as "\$env:OPENAI_API_KEY"; a literal key in a file is refused/],
      [`{"apiKey": ${secret}}`, /factkit\.config\.json: is not valid JSON( at line 1, column \d+)?\n$/],
    ];
    for (const [text, pattern] of cases) {
      writeFileSync(file, text);
      const failure = (await run(process.execPath, [bin, 'search', '--index', 'x', '--query', 'y'], { env, cwd: dir }).catch((error: Failure) => error)) as Failure;
      expect(failure.code, text).toBe(2);
      expect(failure.stderr, text).toMatch(pattern);
      expect(failure.stderr.split('\n')).toHaveLength(2);
      expect(failure.stderr).not.toContain(secret);
    }
    const missing = (await run(process.execPath, [bin, 'search', '--config', join(dir, 'nope.json'), '--index', 'x', '--query', 'y'], { env }).catch((error: Failure) => error)) as Failure;
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/nope\.json: cannot be read \(ENOENT\)/) });
  }, 120_000);
});
