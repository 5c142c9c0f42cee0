import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';

// Issue 21 (smaller): Ctrl-C during `index --kind dense` stops at the next batch boundary and leaves no output.
describe('index --kind dense interrupted', () => {
  it('stops at the next batch (exit 130), writes no index and no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-interrupt-dense-'));
    const corpus = join(dir, 'corpus.jsonl');
    writeFileSync(corpus, `${Array.from({ length: 40 }, (_, index) => JSON.stringify({ id: `d${index}`, text: `Document ${index} is about topic ${index % 7} and some words.` })).join('\n')}\n`);
    const out = join(dir, 'index.dense');
    const controller = new AbortController();
    const seen: number[] = [];
    let pressed = false;
    let stderr = '';
    const code = await runCli(['index', '--jsonl', corpus, '--out', out, '--kind', 'dense', '--batch-size', '2', '--no-config'], {
      stdout: () => {},
      stderr: (text) => (stderr += text),
      progress: (status) => {
        const done = /^embedding \(use-lite\) (\d+)\//.exec(status ?? '')?.[1];
        if (done === undefined) return;
        seen.push(Number(done));
        // Ctrl-C once the first batch is embedded, arriving as SIGINT does: an event-loop task, not a call from inside the job.
        if (Number(done) >= 2 && !pressed) {
          pressed = true;
          setImmediate(() => controller.abort(new DOMException('interrupted', 'AbortError')));
        }
      },
      abortSignal: controller.signal,
      env: {},
      cwd: dir,
    });
    expect(code).toBe(130);
    expect(stderr).toBe('factkit: interrupted; finished model calls are kept in the call cache, re-run to resume\n');
    // At most the batch in flight finishes after the interrupt: never the whole corpus.
    expect(Math.max(...seen)).toBeLessThanOrEqual(4);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual(['corpus.jsonl']);
  }, 60_000);
});
