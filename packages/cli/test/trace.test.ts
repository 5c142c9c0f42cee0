import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

// Three topics, four sentences each; the statement is supported (word for word) by exactly one of them.
const TOPICS: Record<string, string[]> = {
  aqueduct: ['The Acqua Felice aqueduct was completed in 1586.', 'The aqueduct was commissioned by Pope Sixtus V.', 'The aqueduct carried water to the Quirinal hill in Rome.', 'The Fountain of Moses marks the end of the aqueduct.'],
  volcano: [
    'Mount Etna is an active volcano on the east coast of Sicily.',
    'Etna erupts frequently and its lava flows reach nearby villages.',
    'The volcano is the tallest active volcano in Europe outside the Caucasus.',
    'Ash from the volcano often closes the airport of Catania.',
  ],
  tennis: ['Roger Federer won twenty Grand Slam singles titles.', 'Federer won Wimbledon eight times.', 'The Swiss player retired from professional tennis in 2022.', 'Federer and Nadal played many famous tennis finals.'],
};

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
