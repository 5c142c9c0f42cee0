import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARACTERS } from '../src/commands/check.js';
import { runCli } from '../src/run-cli.js';

// Issue 21 §7: one 50 MB answer in `check --input` ran for minutes with no progress. A documented per-answer limit
// makes it a per-item problem (the line is named and dropped, exit 3) and the other answers are checked at once.
describe('check --input with a 50 MB answer', () => {
  it('drops the over-limit answer as a named problem, checks the rest with progress, exits 3 in seconds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-long-answer-'));
    writeFileSync(join(dir, 'corpus.jsonl'), `${JSON.stringify({ id: 'a', text: 'Paris is the capital of France.' })}\n`);
    const huge = 'Paris is the capital of France. '.repeat(Math.ceil((50 * 1024 * 1024) / 32));
    const input = join(dir, 'qa.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'short', question: 'Capital?', answer: 'Paris is the capital of France.' })}\n${JSON.stringify({ id: 'huge', question: 'Capital?', answer: huge })}\n`);
    let stdout = '';
    let stderr = '';
    const statuses: string[] = [];
    const started = Date.now();
    const code = await runCli(['check', '--input', input, '--corpus', join(dir, 'corpus.jsonl'), '--no-html', '--json', '--no-config'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      progress: (status) => status !== undefined && statuses.push(status),
      env: {},
      cwd: dir,
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(code).toBe(3);
    expect(stderr).toContain(`warning: ${input}:2: answer has ${huge.length.toLocaleString('en-US')} characters, above the per-answer limit of 100,000\n`);
    const report = JSON.parse(stdout) as { results: { id: string }[]; inputProblems: { message: string }[] };
    expect(report.results.map((result) => result.id)).toEqual(['short']);
    expect(report.inputProblems).toHaveLength(1);
    expect(statuses.some((status) => /^check \d+\/1/.test(status))).toBe(true);
  }, 120_000);

  it('an --answer above the limit is bad input (exit 2); one at the limit is checked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-long-answer-'));
    writeFileSync(join(dir, 'corpus.jsonl'), `${JSON.stringify({ id: 'a', text: 'Paris is the capital of France.' })}\n`);
    let stderr = '';
    const io = { stdout: () => {}, stderr: (text: string) => (stderr += text), progress: () => {}, env: {}, cwd: dir };
    const over = await runCli(['check', '--answer', 'x'.repeat(MAX_ANSWER_CHARACTERS + 1), '--corpus', join(dir, 'corpus.jsonl'), '--no-html', '--no-config'], io);
    expect(over).toBe(2);
    expect(stderr).toBe('factkit check: argument "--answer" has 100,001 characters, above the per-answer limit of 100,000\n');
  });
});
