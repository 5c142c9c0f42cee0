import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration } from '../src/progress.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe('progress', () => {
  it('formats durations', () => {
    expect([formatDuration(0), formatDuration(59.4), formatDuration(61), formatDuration(3725), formatDuration(Number.NaN)]).toEqual(['0s', '59s', '1m01s', '1h02m', '?']);
  });

  it('estimates the remaining time from the rate so far and ends the line', () => {
    const lines: (string | undefined)[] = [];
    let time = 1_000;
    const progress = createProgress({ stdout: () => {}, stderr: () => {}, progress: (status) => lines.push(status) }, 'check', () => time);
    time += 10_000;
    progress.update(25, 100);
    time += 10_000;
    progress.update(50, 100, '1 failed');
    progress.update(100, 100);
    progress.end();
    // 25 done in 10 s → 75 left at 2.5/s = 30 s; then 50 in 20 s → 20 s left.
    expect(lines).toEqual(['check 25/100 (25%) ETA 30s elapsed 10s', 'check 50/100 (50%) ETA 20s elapsed 20s 1 failed', 'check 100/100 (100%) elapsed 20s', undefined]);
  });

  it('the built bin draws no progress when stderr is piped', async () => {
    const { stderr } = await run(process.execPath, [bin, 'check', '--answer', 'Paris is in France.', '--no-html'], { env: { ...process.env, OPENAI_BASE_URL: '' } });
    expect(stderr).toBe('');
  });
});
