import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeWithData } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { runCli } from '../src/cli.js';

const exampleDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);
/** Runs one of the per-task scripts as a user would (output under INIT_CWD), offline. */
async function script(name: string, args: readonly string[], initCwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: initCwd };
  delete env['OPENAI_BASE_URL'];
  delete env['OPENAI_API_KEY'];
  return run(process.execPath, ['--import', 'tsx', `src/${name}.ts`, ...args], { cwd: exampleDirectory, env });
}
/** The report without the lines that name the command that made it. */
const withoutCommand = (report: string) =>
  report
    .split('\n')
    .filter((line) => !line.includes('pnpm --filter leakage-study') && !line.includes('Provenance'))
    .join('\n');

describeWithData('scifact', 'per-task scripts', () => {
  it('scifact.ts writes the report the full command line writes for the same claims', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'leakage-scripts-'));
    await script('scifact', ['20'], directory);
    const fromScript = await readFile(join(directory, 'leakage-study-output', 'scifact', 'report.md'), 'utf8');
    const { reportPath } = await runCli(['--limit', '20', '--out', join(directory, 'cli'), '--cache', join(directory, 'cache')], { env: {}, log: () => {} });
    const fromCli = await readFile(reportPath, 'utf8');
    expect(fromScript).toContain('| BM25+RM3 | ALL |');
    expect(fromScript).toContain('pnpm --filter leakage-study scifact');
    expect(withoutCommand(fromScript)).toBe(withoutCommand(fromCli));
  }, 120_000);
});

describeWithData('averitec', 'per-task scripts', () => {
  it('averitec.ts without a knowledge-store folder exits 2 and names the argument', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'leakage-scripts-'));
    const failure = await script('averitec', [], directory).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('knowledge-store-dir');
  }, 60_000);
});
