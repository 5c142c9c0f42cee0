import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

interface AuditJson {
  claims: number;
  baseline: Record<string, number>;
  matchedProportion: { mean: number } | null;
  counts: Record<string, number>;
}

describe('factkit audit (built bin)', () => {
  it('offline (RM3 + lexical NLI): hand-checked baseline numbers, nothing to leak, Markdown report written', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'factkit-audit-')), 'audit.md');
    const { stdout } = await run(process.execPath, [bin, 'audit', '--beir', beir, '--out', out, '--json'], { env });
    const report = JSON.parse(stdout) as AuditJson;
    // Judged queries with text: q1, q2, q3 (q9 has none). Recall@5: q1 1, q2 1, q3 1/2 (missing-doc is unfindable).
    expect(report.claims).toBe(3);
    expect(report.baseline['recall@5']).toBeCloseTo(2.5 / 3, 10);
    expect(report.baseline['ndcg@5']).toBeCloseTo((2 + 1 / (1 + 1 / Math.log2(3))) / 3, 10);
    // RM3 generates no text: no claim can be matched.
    expect(report.matchedProportion?.mean).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^## Leakage study: .*tiny-beir\n/);
  });

  it('with an endpoint (Query2doc): a generation that copies the gold document is matched (leaked)', async () => {
    const gold: Record<string, string> = { 'Why do cats purr?': 'Cats purr when content.', 'barking dogs': 'Dogs bark at strangers.', 'singing birds': 'The weather is cold today.' };
    const server = await startScriptedOpenAIServer({
      script: (request) => {
        const body = JSON.stringify(request.body);
        const claim = Object.keys(gold).find((text) => body.includes(text));
        return { content: claim ? gold[claim]! : 'Nothing.' };
      },
    });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-audit-'));
      const { stdout } = await run(process.execPath, [bin, 'audit', '--beir', beir, '--json', '--base-url', server.url, '--model', 'q2d', '--cache-dir', join(dir, 'cache')], { env });
      const report = JSON.parse(stdout) as AuditJson;
      // q1 and q2 copy their gold evidence (entailed: matched); q3's generation is unrelated (not matched).
      expect(report.matchedProportion?.mean).toBeCloseTo(2 / 3, 10);
      expect(server.requests.length).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('bad input exits 2', async () => {
    await expect(run(process.execPath, [bin, 'audit'], { env })).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [bin, 'audit', '--beir', '/nonexistent'], { env })).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [bin, 'audit', '--beir', beir, '--repeats', '0'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--repeats" must be a positive integer/) });
    // A folder without SciFact's rationale files cannot run at sentence level.
    await expect(run(process.execPath, [bin, 'audit', '--beir', beir, '--unit', 'sentence'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/corpus_sentences/) });
    await expect(run(process.execPath, [bin, 'audit', '--beir', beir, '--unit', 'words'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--unit" must be sentence or abstract/) });
  });
});
