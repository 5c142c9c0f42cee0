import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

function runBin(args: string[]): { done: Promise<{ code: number | null; stdout: string; stderr: string }>; kill: (signal: NodeJS.Signals) => void } {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: 'k' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))), kill: (signal) => child.kill(signal) };
}

describe('factkit check: Ctrl-C (built bin)', () => {
  it('SIGINT stops a running job with exit 130 and one line; the re-run resumes from the call cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-int-'));
    const input = join(dir, 'qa.jsonl');
    const answers = ['Paris is the capital of France.', 'Berlin is the capital of Germany.', 'Rome is the capital of Italy.', 'Madrid is the capital of Spain.'];
    writeFileSync(input, answers.map((answer, k) => JSON.stringify({ id: `a${k}`, question: 'Capital?', answer })).join('\n'));
    const reply = (body: string) => (body.includes('extract all claims') ? `[Claims]\n1 ${answers.find((a) => body.includes(a)) ?? 'x'}\n[Queries]\n1 capital city\n[End]` : 'Correct');
    // One server (the cache is keyed by endpoint and model): while `slow`, calls after the first two answer after 20 s
    // (the test interrupts before that); afterwards every call answers at once.
    let slow = true;
    const server = await startScriptedOpenAIServer({ script: (request) => ({ content: reply(JSON.stringify(request.body)), ...(slow && request.callIndex >= 2 ? { delayMs: 20_000 } : {}) }) });
    const args = ['check', '--input', input, '--concurrency', '1', '--no-html', '--json', '--model', 'm', '--cache-dir', join(dir, 'cache'), '--base-url', server.url];
    try {
      const job = runBin(args);
      const started = Date.now();
      while (server.requests.length < 3 && Date.now() - started < 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests.length).toBe(3);
      job.kill('SIGINT');
      const interrupted = await job.done;
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(interrupted.code).toBe(130);
      expect(interrupted.stderr).toMatch(/factkit: interrupted; finished model calls are kept in the call cache/);
      slow = false;
      const before = server.requests.length;
      const resumed = await runBin(args).done;
      expect(resumed.code).toBe(0);
      const results = (JSON.parse(resumed.stdout) as { results: { responseLabel?: string }[] }).results;
      expect(results.map((r) => r.responseLabel)).toEqual(['not-hallucinated', 'not-hallucinated', 'not-hallucinated', 'not-hallucinated']);
      // 4 generator + 4 verifier calls in all; the two answered before Ctrl-C come from the cache.
      expect(server.requests.length - before).toBe(8 - 2);
    } finally {
      await server.close();
    }
  });
});
