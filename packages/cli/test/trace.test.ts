import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TOPICS } from './trace-topics.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

describe('factkit trace (built bin)', () => {
  it('offline: clusters the corpus, matches leaves by keyword and returns the supporting sentence with the cost account', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-trace-'));
    const corpus = join(dir, 'corpus.jsonl');
    const lines = Object.entries(TOPICS).flatMap(([topic, sentences]) => sentences.map((text, index) => JSON.stringify({ id: `${topic}-${index}`, text })));
    writeFileSync(corpus, `${lines.join('\n')}\n`);
    const { stdout } = await run(process.execPath, [bin, 'trace', '--corpus', corpus, '--query', 'Federer won Wimbledon eight times.', '--k', '3', '--leaf-size', '4', '--json'], { env, timeout: 240_000 });
    const summary = JSON.parse(stdout) as {
      corpus: number;
      leaves: number;
      judge: string;
      results: { query: string; supporting: { documentId: string }[]; cost: { candidatesJudged: number; bruteForce: { candidates: number } } }[];
    };
    expect(summary.corpus).toBe(12);
    expect(summary.leaves).toBeGreaterThanOrEqual(3);
    expect(summary.judge).toContain('offline baseline');
    const [result] = summary.results;
    expect(result?.supporting.map((document) => document.documentId)).toContain('tennis-1');
    expect(result?.cost.bruteForce.candidates).toBe(12);
    expect(result?.cost.candidatesJudged).toBeLessThanOrEqual(12);
  }, 240_000);

  it('bad input exits 2 with a one-line message', async () => {
    const failure = await run(process.execPath, [bin, 'trace', '--query', 'x'], { env }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringMatching(/give --corpus/) });
    const missing = await run(process.execPath, [bin, 'trace', '--corpus', '/nonexistent/corpus.jsonl', '--query', 'x'], { env }).catch((error: { code: number; stderr: string }) => error);
    expect(missing).toMatchObject({ code: 2 });
  });
});
