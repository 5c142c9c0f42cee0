// A user's view of @factkit/core/contracts: a fresh project whose node_modules holds @factkit/core (resolved through its
// package exports to the built dist/, as from npm) and vitest, runs the snippet of docs/implement-your-own.md as its own
// test file. The snippet must pass; a retriever that breaks the contract must fail it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const docs = readFileSync(fileURLToPath(new URL('../../../docs/implement-your-own.md', import.meta.url)), 'utf8');
const snippet = /```ts\n([\s\S]*?)```/.exec(docs)?.[1];
const vitestDir = realpathSync(join(packageDir, 'node_modules', 'vitest'));

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'factkit-contracts-consumer-'));
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);
  mkdirSync(join(project, 'node_modules', '@factkit'), { recursive: true });
  symlinkSync(packageDir, join(project, 'node_modules', '@factkit', 'core'), 'dir');
  symlinkSync(vitestDir, join(project, 'node_modules', 'vitest'), 'dir');
});
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

function runVitest(file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(vitestDir, 'vitest.mjs'), 'run', file, '--root', project, '--reporter', 'verbose'],
      { cwd: project, encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('@factkit/core/contracts from a consumer project', () => {
  it('the docs snippet imports @factkit/core/contracts by package name and passes the Retriever contract', async () => {
    expect(snippet).toContain("from '@factkit/core/contracts'");
    writeFileSync(join(project, 'my-retriever.test.ts'), snippet as string);
    const { code, output } = await runVitest('my-retriever.test.ts');
    expect(output).toContain('Retriever contract: word-overlap');
    expect(output).toMatch(/Tests\s+\d+ passed/);
    expect(code).toBe(0);
  }, 120_000);

  it('a retriever that breaks the contract fails it (scores ascending, ranks from 0)', async () => {
    const broken = (snippet as string).replace('.sort((a, b) => b.score - a.score', '.sort((a, b) => a.score - b.score').replace('rank: index + 1', 'rank: index');
    expect(broken).not.toBe(snippet);
    writeFileSync(join(project, 'broken-retriever.test.ts'), broken);
    const { code, output } = await runVitest('broken-retriever.test.ts');
    expect(code).not.toBe(0);
    expect(output).toContain('returns at most topK results sorted by descending score');
    expect(output).toMatch(/Tests\s+\d+ failed/);
  }, 120_000);
});
