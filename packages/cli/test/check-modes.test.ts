// factkit check (built bin): RefChecker's three settings per row (corpus / context / reference), abstaining answers,
// refusals as failed items (exit 3), and factual precision in the text, JSON and HTML outputs. The corpus, references and
// answers are hand-written here (fictional library and service names, so the corpus misleads on purpose).
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
const env = { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', FACTKIT_MODEL: '', XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'factkit-check-modes-')) };

const CORPUS = [
  { id: 'ohio-lakeside', title: 'Lakeside Public Library (Ohio)', text: 'The Lakeside Public Library in Ohio reopened in 1998 after a flood closed it for two years.' },
  { id: 'lakeside-town', title: 'Lakeside', text: 'Lakeside is a small town on the shore of Lake Erie, known for its summer chautauqua.' },
  { id: 'orion-ship', title: 'Orion (ship)', text: 'The Orion was a steamship launched in 1904 that carried mail between Boston and Halifax.' },
];
const LIBRARY = { question: 'When did the Lakeside library reopen?', answer: 'The Lakeside library reopened in 2021.' };
const REFERENCE = 'The Lakeside library closed in 2018 for a renovation of its roof. After the works, the Lakeside library reopened in 2021. Its collection now holds 40,000 books.';

interface Result {
  id: string;
  status: string;
  mode: string;
  responseLabel?: string;
  failedStage?: string;
  factualPrecision: number | null;
  claimCounts: { supported: number; hallucinated: number; unverifiable: number };
  problems: { code: string; message: string }[];
  claims: { evidence: { text: string; origin: { documentId: string } }[] }[];
}
interface Report {
  results: Result[];
  summary: { labels: Record<string, number>; failed: number; modes: Record<string, number>; factualPrecision: { mean: number | null; responses: number; without: number } };
  corpusSize: number;
}

function files(rows: readonly object[]): { dir: string; input: string; corpus: string } {
  const dir = mkdtempSync(join(tmpdir(), 'factkit-check-modes-'));
  const input = join(dir, 'rows.jsonl');
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(input, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  writeFileSync(corpus, `${CORPUS.map((row) => JSON.stringify(row)).join('\n')}\n`);
  return { dir, input, corpus };
}

describe('factkit check: reference mode, abstention, refusals, factual precision', () => {
  it('the same row checked with and without its reference: the misleading corpus flags it, the reference supports it; a mixed file reports each mode', async () => {
    const { dir, input, corpus } = files([
      { id: 'library-corpus', ...LIBRARY },
      { id: 'library-reference', ...LIBRARY, reference: REFERENCE },
      { id: 'library-context', ...LIBRARY, context: ['The Lakeside Public Library in Ohio reopened in 1998.'] },
    ]);
    const html = join(dir, 'report.html');
    const { stdout } = await run(process.execPath, [bin, 'check', '--input', input, '--corpus', corpus, '--html', html, '--json'], { env });
    const report = JSON.parse(stdout) as Report;
    const byId = new Map(report.results.map((result) => [result.id, result]));
    expect(byId.get('library-corpus')).toMatchObject({ mode: 'corpus', responseLabel: 'hallucinated', factualPrecision: 0 });
    expect(byId.get('library-corpus')?.claims[0]?.evidence[0]?.origin.documentId).toBe('ohio-lakeside');
    expect(byId.get('library-reference')).toMatchObject({ mode: 'reference', responseLabel: 'not-hallucinated', factualPrecision: 1 });
    expect(byId.get('library-reference')?.claims[0]?.evidence.every((e) => e.origin.documentId === 'library-reference:reference:0')).toBe(true);
    // The noisy context repeats the corpus's mistake: verified against the context, the row is flagged like the corpus row.
    expect(byId.get('library-context')).toMatchObject({ mode: 'context', responseLabel: 'hallucinated' });
    expect(report.summary.modes).toEqual({ corpus: 1, context: 1, reference: 1 });
    expect(report.summary.factualPrecision).toEqual({ mean: 1 / 3, responses: 3, without: 0 });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('data-mode="reference"');
    expect(page).toContain('reference (claims verified against the row&#39;s reference)');
    expect(page).toMatch(/<td>reference<\/td><td>1\.000<\/td>/);
    expect(page).toMatch(/factual precision 0\.333 \(mean over 3 answers with a verifiable claim; n\/a for 0\)/);
    const text = await run(process.execPath, [bin, 'check', '--input', input, '--corpus', corpus, '--no-html'], { env });
    const referenceBlock = text.stdout.split('\n\n').find((block) => block.startsWith('[library-reference]'));
    expect(referenceBlock).toContain("Mode:     reference (claims verified against the row's reference, no corpus search)\nResponse: NOT-HALLUCINATED · factual precision 1.000 (1/1 verifiable claims supported, 0 unverifiable)");
    expect(text.stdout).toMatch(/modes: corpus 1, context 1, reference 1\nfactual precision: 0\.333 \(mean over 3 answer\(s\) with a verifiable claim; n\/a for 0\)/);
  });

  it('when every row carries its reference the corpus is not opened; a reference that is not text drops its line (exit 3)', async () => {
    const { input } = files([
      { id: 'r', ...LIBRARY, reference: [REFERENCE] },
      { id: 'bad', ...LIBRARY, reference: 42 },
    ]);
    const failure = await run(process.execPath, [bin, 'check', '--input', input, '--corpus', '/nonexistent.jsonl', '--no-html', '--json'], { env }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 3 });
    const { stdout, stderr } = failure as { stdout: string; stderr: string };
    expect(stderr).toMatch(/rows\.jsonl:2: "reference" must be a string or a list of strings/);
    const report = JSON.parse(stdout) as Report & { corpus: string };
    expect(report.corpus).toBe('none (every row carries its reference or context)');
    expect(report.corpusSize).toBe(0);
    expect(report.results.map((r) => [r.id, r.mode, r.responseLabel])).toEqual([['r', 'reference', 'not-hallucinated']]);
  });

  it('offline: an abstaining answer is labelled abstained and counted apart; a hedged one is checked; factual precision is n/a without a verifiable claim', async () => {
    const { input, corpus } = files([
      { id: 'abstains', question: LIBRARY.question, answer: "I'm not sure. You may want to check the library's website." },
      { id: 'hedged', question: LIBRARY.question, answer: "I don't know why anyone doubts it, but the Lakeside library reopened in 2021." },
      { id: 'opinion', question: 'Do you like libraries?', answer: 'Libraries are lovely places.' },
    ]);
    const { stdout } = await run(process.execPath, [bin, 'check', '--input', input, '--corpus', corpus, '--no-html', '--json'], { env });
    const report = JSON.parse(stdout) as Report;
    const byId = new Map(report.results.map((result) => [result.id, result]));
    expect(byId.get('abstains')).toMatchObject({ status: 'ok', responseLabel: 'abstained', factualPrecision: null, claims: [] });
    expect(byId.get('hedged')?.responseLabel).toBe('hallucinated');
    expect(byId.get('opinion')).toMatchObject({ factualPrecision: null });
    expect(report.summary.labels['abstained']).toBe(1);
    expect(report.summary.factualPrecision).toEqual({ mean: 0, responses: 1, without: 2 });
  });

  it('with an endpoint: a refusal from the claim generator is a failed item with its reason (exit 3); an abstaining answer never reaches the model', async () => {
    const generatorReply = '[Claims]\n1 The Lakeside library reopened in 2021.\n[Queries]\n1 Lakeside library reopened\n[End]';
    const server = await startScriptedOpenAIServer({
      script: (request) => {
        const body = JSON.stringify(request.body);
        if (!body.includes('extract all claims')) return { content: 'Correct' };
        return { content: body.includes('Orion') ? "I'm sorry, but I can't help with that." : generatorReply };
      },
    });
    try {
      const { dir, input, corpus } = files([
        { id: 'refused', question: 'What is Orion?', answer: 'Orion is our internal billing service.' },
        { id: 'fine', ...LIBRARY, reference: REFERENCE },
        { id: 'abstains', question: LIBRARY.question, answer: "I don't know." },
      ]);
      const args = [bin, 'check', '--input', input, '--corpus', corpus, '--base-url', server.url, '--model', 'jointcq', '--cache-dir', join(dir, 'cache'), '--no-html'];
      const failure = await run(process.execPath, [...args, '--json'], { env }).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(failure).toMatchObject({ code: 3 });
      const { stdout, stderr } = failure as { stdout: string; stderr: string };
      expect(stderr).toMatch(/1 answer\(s\) failed \(failed, refused or incomplete model calls; left out of every rate\)/);
      const report = JSON.parse(stdout) as Report;
      const byId = new Map(report.results.map((result) => [result.id, result]));
      expect(byId.get('refused')).toMatchObject({ status: 'failed', failedStage: 'generation', claims: [], factualPrecision: null });
      expect(byId.get('refused')?.responseLabel).toBeUndefined();
      expect(byId.get('refused')?.problems.find((p) => p.code === 'refusal')?.message).toBe("the claim generator refused: I'm sorry, but I can't help with that.");
      expect(byId.get('fine')).toMatchObject({ status: 'ok', mode: 'reference', responseLabel: 'not-hallucinated' });
      expect(byId.get('abstains')).toMatchObject({ responseLabel: 'abstained' });
      expect(report.summary).toMatchObject({ failed: 1, labels: { abstained: 1, 'not-hallucinated': 1, hallucinated: 0, unverifiable: 0 } });
      const prompts = server.requests.map((request) => JSON.stringify(request.body));
      expect(prompts.filter((prompt) => prompt.includes('extract all claims'))).toHaveLength(2);
      expect(prompts.some((prompt) => prompt.includes("I don't know."))).toBe(false);
      const text = await run(process.execPath, args, { env }).catch((error: { code: number; stdout: string }) => error);
      expect(text).toMatchObject({ code: 3 });
      expect((text as { stdout: string }).stdout).toContain("Response: FAILED at generation (refusal: the claim generator refused: I'm sorry, but I can't help with that.)");
      expect((text as { stdout: string }).stdout).toContain('failed 1');
    } finally {
      await server.close();
    }
  });
});
