import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
import { writeWordNetInstancesJsonl } from './wordnet-jsonl.js';

const corpus = await writeWordNetInstancesJsonl();
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

interface ExpandJson {
  expander: string;
  expansions: { id: string; text: string; generations: string[]; weightedTerms?: { term: string; weight: number }[] }[];
}

describe('factkit expand (built bin)', () => {
  it('rm3 (offline, saved index): weights sum to 1 and the original terms keep the original-query weight', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-expand-'));
    const index = join(dir, 'wordnet.bm25');
    await run(process.execPath, [bin, 'index', '--jsonl', corpus, '--out', index]);
    const { stdout } = await run(process.execPath, [bin, 'expand', '--method', 'rm3', '--index', index, '--query', 'Canberra capital Australia', '--json'], { env });
    const report = JSON.parse(stdout) as ExpandJson;
    const terms = report.expansions[0]!.weightedTerms!;
    expect(terms.reduce((sum, t) => sum + t.weight, 0)).toBeCloseTo(1, 6);
    const original = terms.filter((t) => ['canberra', 'capit', 'australia'].includes(t.term));
    expect(original).toHaveLength(3);
    expect(original.reduce((sum, t) => sum + t.weight, 0)).toBeGreaterThanOrEqual(0.5 - 1e-9);
    expect(terms.length).toBeGreaterThan(3);
  });

  it('query2doc on a scripted endpoint: one call per query, the generation is kept and appended', async () => {
    const server = await startScriptedOpenAIServer({ script: (request) => ({ content: JSON.stringify(request.body).includes('cats') ? 'Cats purr to communicate contentment.' : 'Dogs bark.' }) });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-expand-'));
      const input = join(dir, 'q.jsonl');
      writeFileSync(input, '{"_id": "q1", "text": "why do cats purr"}\n{"_id": "q2", "text": "barking dogs"}\n');
      const { stdout } = await run(process.execPath, [bin, 'expand', '--method', 'query2doc', '--input', input, '--base-url', server.url, '--model', 'm', '--cache-dir', join(dir, 'c'), '--json'], { env });
      const report = JSON.parse(stdout) as ExpandJson;
      expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
      expect(report.expansions.map((e) => [e.id, e.generations])).toEqual([
        ['q1', ['Cats purr to communicate contentment.']],
        ['q2', ['Dogs bark.']],
      ]);
      expect(report.expansions[0]!.text).toContain('why do cats purr');
      expect(report.expansions[0]!.text).toContain('Cats purr to communicate contentment.');
    } finally {
      await server.close();
    }
  });

  it('bad input exits 2', async () => {
    await expect(run(process.execPath, [bin, 'expand', '--query', 'x'], { env })).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [bin, 'expand', '--query', 'x', '--method', 'bogus'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--method" must be one of/) });
    await expect(run(process.execPath, [bin, 'expand', '--query', 'x', '--method', 'hyde'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/rm3 runs offline/) });
    await expect(run(process.execPath, [bin, 'expand', '--query', 'x', '--method', 'rm3'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--index" is needed for rm3/) });
  });
});
