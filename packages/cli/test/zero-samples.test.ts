import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';

// Issue 21 §2: a metric over zero samples is absent ("–" / "n/a", null in JSON), never 0; an empty input is exit 2.
async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, '--no-config'], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), progress: () => {}, env: {}, cwd });
  return { code, stdout, stderr };
}

/** A BEIR folder with a corpus, and queries/qrels as given. */
function beirFolder(queries: string, qrels: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'factkit-zero-'));
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'corpus.jsonl'), `${JSON.stringify({ _id: 'd1', title: '', text: 'Paris is the capital of France.' })}\n${JSON.stringify({ _id: 'd2', title: '', text: 'Rome is in Italy.' })}\n`);
  writeFileSync(join(dir, 'queries.jsonl'), queries);
  writeFileSync(join(dir, 'qrels', 'test.tsv'), `query-id\tcorpus-id\tscore\n${qrels}`);
  return dir;
}

describe('numbers over zero samples (issue 21 §2)', () => {
  it('eval --beir with no judged query: exit 2 naming --beir, no metric printed', async () => {
    const dir = beirFolder('', '');
    const result = await cli(['eval', '--beir', dir], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^factkit eval: evaluateBm25OnBeir: argument "folder" has no judged query/);
    expect(result.stdout).not.toMatch(/0\.0000/);
  });

  it('audit --beir with no claim: exit 2, no report of dashes', async () => {
    const dir = beirFolder('', '');
    const out = join(dir, 'report.md');
    const result = await cli(['audit', '--beir', dir, '--unit', 'abstract', '--out', out], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^factkit audit: argument "--beir" .*no claim/);
    expect(result.stdout).toBe('');
  });

  it('eval --beir on one judged query still scores it (the guard is not a blanket refusal)', async () => {
    const dir = beirFolder(`${JSON.stringify({ _id: 'q1', text: 'capital of France' })}\n`, 'q1\td1\t1\n');
    const result = await cli(['eval', '--beir', dir, '--json'], dir);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { aggregate: Record<string, number> }).aggregate['ndcg_cut_10']).toBe(1);
  });

  it('enrich with every chunk call failed: Top@k is absent (null, "–"), never 0.0, and the exit is 3', async () => {
    const server = await startScriptedOpenAIServer({ script: () => ({ status: 500, body: { error: { message: 'scripted failure' } } }) });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-zero-enrich-'));
      writeFileSync(join(dir, 'docs.jsonl'), `${JSON.stringify({ id: 'a', text: 'Paris is the capital of France.' })}\n`);
      writeFileSync(join(dir, 'q.jsonl'), `${JSON.stringify({ query: 'What is the capital of France?', documentId: 'a' })}\n`);
      const md = join(dir, 'r.md');
      const result = await cli(
        ['enrich', '--input', join(dir, 'docs.jsonl'), '--out', join(dir, 'c.jsonl'), '--queries', join(dir, 'q.jsonl'), '--md', md, '--json', '--base-url', server.url, '--model', 'm', '--cache-dir', join(dir, 'cache')],
        dir,
      );
      expect(result.code).toBe(3);
      const summary = JSON.parse(result.stdout) as { failed: number; queriesLeftOut: number; topK: Record<string, unknown> };
      expect(summary.failed).toBe(1);
      expect(summary.queriesLeftOut).toBe(1);
      expect(Object.values(summary.topK).every((value) => value === null)).toBe(true);
      const report = readFileSync(md, 'utf8');
      expect(report).not.toMatch(/\| 0\.0 \|/);
      expect(report).toMatch(/\| – \| – \| – \| – \|/);
    } finally {
      await server.close();
    }
  }, 60_000);
});
