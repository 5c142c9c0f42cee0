import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const qa = fileURLToPath(new URL('./fixtures/check/qa.jsonl', import.meta.url));
const evilCorpus = fileURLToPath(new URL('./fixtures/check/evil-corpus.jsonl', import.meta.url));
const env = { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', FACTKIT_MODEL: '' };

interface CheckJson {
  results: { id: string; status: string; responseLabel?: string; sentences: { label: string }[]; claims: { claim: { id: string; text: string }; query?: { text: string }; evidence: { text: string; origin: { documentId: string; source?: { name: string; url?: string } } }[] }[] }[];
  inputProblems: { line: number; code: string }[];
  corpusSize: number;
  html?: string;
}

describe('factkit check (built bin, offline)', () => {
  it('checks one answer against the shipped corpus: the right evidence is found first and the HTML report is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
    const html = join(dir, 'report.html');
    const { stdout } = await run(process.execPath, [bin, 'check', '--question', 'Which company released the film Soul Food?', '--answer', 'Soul Food was released by Fox 2000 Pictures. It is a 2005 science fiction film.', '--html', html, '--json'], { env });
    const report = JSON.parse(stdout) as CheckJson;
    expect(report.corpusSize).toBe(3493);
    const [result] = report.results;
    expect(result?.status).toBe('ok');
    expect(result?.sentences).toHaveLength(2);
    expect(result?.claims.map((claim) => claim.claim.text)).toEqual(['Soul Food was released by Fox 2000 Pictures.', 'Soul Food is a 2005 science fiction film.']);
    // The FEVER evidence sentence about Soul Food is the top BM25 hit of the first query.
    expect(result?.claims[0]?.evidence[0]?.text).toMatch(/^Soul Food is a 1997 American comedy-drama film .* released by Fox 2000 Pictures\.$/);
    expect(result?.claims[0]?.evidence[0]?.origin.source?.name).toBe('FEVER-lite validation validation-0 (Wikipedia)');
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('Soul Food was released by Fox 2000 Pictures.');
    expect(page).not.toMatch(/<script|<link|src=/i);
  });

  it('a JSONL with bad lines checks the good ones, lists the bad ones and exits 3 (partial); the report sits next to --out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
    const out = join(dir, 'sub', 'result.json');
    const failure = await run(process.execPath, [bin, 'check', '--input', qa, '--out', out], { env }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 3 });
    const { stdout, stderr } = failure as { stdout: string; stderr: string };
    expect(stderr).toMatch(/qa\.jsonl:3: bad-json/);
    expect(stderr).toMatch(/qa\.jsonl:4: missing-answer/);
    expect(stdout).toMatch(/2 answer\(s\) checked against shipped FEVER-lite evidence corpus \(3493 passages\)/);
    const results = JSON.parse(readFileSync(out, 'utf8')) as CheckJson['results'];
    expect(results.map((result) => result.id)).toEqual(['soul-food', 'telemundo']);
    const page = readFileSync(join(dir, 'sub', 'result.html'), 'utf8');
    expect(page).toContain('Input lines not checked');
    expect(page).toContain('id="item-1" data-id="telemundo"');
  });

  it('escapes corpus-, input- and id-supplied markup in the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
    const input = join(dir, 'evil.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: '<script>alert("id")</script>', question: 'Where is Paris? <script>alert(2)</script>', answer: 'Paris is the capital of France. <img src=x onerror=alert(3)> The Eiffel Tower is in Paris.' })}\n`);
    const html = join(dir, 'evil.html');
    await run(process.execPath, [bin, 'check', '--input', input, '--corpus', evilCorpus, '--html', html], { env });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('&lt;script&gt;alert(&#39;corpus&#39;)&lt;/script&gt;');
    expect(page).not.toMatch(/<script|<img|<b>/i);
  });

  it('bad input exits 2 with one line: no answer, unreadable corpus, bad --top-k, unknown flag, endpoint without model', async () => {
    const cases: [string[], RegExp][] = [
      [['check', '--question', 'q'], /give either --answer/],
      [['check', '--answer', 'a', '--corpus', '/nonexistent.jsonl'], /^factkit: factkit check: argument "--corpus" .*ENOENT\n$/],
      [['check', '--answer', 'a', '--top-k', '0'], /^factkit: .*"--top-k" must be a positive integer \(got "0"\)\n$/],
      [['check', '--answer', 'a', '--frob'], /^factkit: Unknown option '--frob'/],
      [['check', '--answer', 'a', '--base-url', 'http://127.0.0.1:9/v1'], /^factkit: .*"--model" is needed with an endpoint/],
    ];
    for (const [args, stderr] of cases) {
      await expect(run(process.execPath, [bin, ...args], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(stderr) });
    }
  });

  it('with an endpoint: JointCQ generator + LLM verifier on a scripted local server; the call cache makes a re-run offline-safe; the key never appears', async () => {
    const generatorReply = '[Claims]\n1 Soul Food was released by Fox 2000 Pictures.\n[Queries]\n1 Soul Food film distributor\n[End]';
    const server = await startScriptedOpenAIServer({
      // The generator prompt (Table 21) asks to "extract all claims"; every other call is the verifier (Table 23).
      script: (request) => ({ content: JSON.stringify(request.body).includes('extract all claims') ? generatorReply : 'Correct' }),
    });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
      const args = [bin, 'check', '--question', 'Which company released Soul Food?', '--answer', 'Soul Food was released by Fox 2000 Pictures.', '--base-url', server.url, '--model', 'jointcq', '--api-key', 'sk-secret-123', '--cache-dir', join(dir, 'cache'), '--html', join(dir, 'r.html'), '--json'];
      const first = await run(process.execPath, args, { env });
      const calls = server.requests.length;
      expect(calls).toBeGreaterThanOrEqual(2);
      const result = (JSON.parse(first.stdout) as CheckJson).results[0];
      expect(result?.claims[0]?.query?.text).toBe('Soul Food film distributor');
      expect(result?.claims[0]?.evidence[0]?.text).toMatch(/Fox 2000 Pictures/);
      expect(result?.responseLabel).toBe('not-hallucinated');
      expect(first.stdout + first.stderr + readFileSync(join(dir, 'r.html'), 'utf8')).not.toContain('sk-secret-123');
      const second = await run(process.execPath, args, { env });
      expect(server.requests.length).toBe(calls);
      // Same chain from the cache (provenance differs only in cache/timing fields).
      const chain = (stdout: string) => (JSON.parse(stdout) as CheckJson).results.map((r) => ({ label: r.responseLabel, claims: r.claims.map((c) => [c.claim, c.query, c.evidence.length]) }));
      expect(chain(second.stdout)).toEqual(chain(first.stdout));
    } finally {
      await server.close();
    }
  });
});
