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
const env = { ...process.env, OPENAI_BASE_URL: '', FACTKIT_MODEL: '', OPENAI_API_KEY: '' };

interface ChunkLine {
  id: string;
  documentId: string;
  start: number;
  end: number;
  text: string;
  title: string;
  questions: string[];
  method: string;
}

const DOC = 'The Acqua Felice aqueduct was completed in 1586. It was built by Pope Sixtus V. The aqueduct brought water to the Quirinal hill. Its terminal fountain is the Fountain of Moses.';

function writeDocs(dir: string): string {
  const input = join(dir, 'docs.jsonl');
  writeFileSync(input, `${JSON.stringify({ _id: 'rome', text: DOC })}\n${JSON.stringify({ id: 'short', text: 'Paris is in France.' })}\nnot json\n`);
  return input;
}

describe('factkit enrich (built bin)', () => {
  it('offline: chunks are exact spans of their documents, each with a lead-sentence title and RAKE questions; a bad line exits 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-enrich-'));
    const out = join(dir, 'chunks.jsonl');
    const failure = await run(process.execPath, [bin, 'enrich', '--input', writeDocs(dir), '--out', out, '--max-tokens', '16', '--questions', '2', '--json'], { env }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 3, stderr: expect.stringMatching(/docs\.jsonl:3: not valid JSON/) });
    const chunks = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChunkLine);
    const texts: Record<string, string> = { rome: DOC, short: 'Paris is in France.' };
    expect(chunks.filter((c) => c.documentId === 'rome').length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(texts[chunk.documentId]!.slice(chunk.start, chunk.end)).toBe(chunk.text);
      expect(chunk.text.startsWith(chunk.title.split(' ').slice(0, 3).join(' '))).toBe(true);
      expect(chunk.questions).toHaveLength(2);
      expect(chunk.method).toMatch(/baseline/);
    }
  });

  it('with an endpoint: one model call per chunk, titles and questions from the reply', async () => {
    const server = await startScriptedOpenAIServer({ script: () => ({ content: '{"title": "A model title", "questions": ["First question?", "Second question?"]}' }) });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-enrich-'));
      const input = join(dir, 'docs.jsonl');
      writeFileSync(input, `${JSON.stringify({ _id: 'short', text: 'Paris is in France.' })}\n`);
      const out = join(dir, 'chunks.jsonl');
      await run(process.execPath, [bin, 'enrich', '--input', input, '--out', out, '--questions', '2', '--base-url', server.url, '--model', 'ckg', '--cache-dir', join(dir, 'c')], { env });
      const [chunk] = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ChunkLine);
      expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
      expect(chunk).toMatchObject({ title: 'A model title', questions: ['First question?', 'Second question?'] });
    } finally {
      await server.close();
    }
  });

  it('with --queries: Top@k per layout in --json and the Markdown report (hand-checked: the title-only layout misses 2 of 4)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'factkit-enrich-'));
    const fixtures = fileURLToPath(new URL('./fixtures/enrich/', import.meta.url));
    const md = join(dir, 'report.md');
    const { stdout } = await run(process.execPath, [bin, 'enrich', '--input', join(fixtures, 'docs.jsonl'), '--out', join(dir, 'c.jsonl'), '--queries', join(fixtures, 'queries.jsonl'), '--max-tokens', '64', '--md', md, '--json'], { env });
    const summary = JSON.parse(stdout) as { chunks: number; topK: Record<string, Record<string, number>> };
    expect(summary.chunks).toBe(3);
    expect(Object.keys(summary.topK)).toEqual(['case-1', 'case-2', 'case-3', 'case-4', 'case-5', 'case-6', 'case-7']);
    expect(summary.topK['case-1']).toEqual({ 1: 1, 3: 1, 5: 1, 10: 1 });
    expect(summary.topK['case-2']).toEqual({ 1: 0.5, 3: 0.5, 5: 0.5, 10: 0.5 });
    expect(readFileSync(md, 'utf8')).toContain('| case-2 | passage: &lt;s&gt; title &lt;/s&gt; | 50.0 | 50.0 | 50.0 | 50.0 |');
  });

  it('with an endpoint whose call fails for one document: its queries are left out of Top@k (not scored as misses), the report says incomplete, exit 3', async () => {
    // 400 is not retried: the chunk of "etna" fails for good; every other chunk gets a title that names its document.
    const server = await startScriptedOpenAIServer({
      script: (request) => (JSON.stringify(request.body).includes('Mount Etna') ? { status: 400, body: { error: { message: 'bad request' } } } : { content: '{"title": "A model title", "questions": ["Who built it?", "How many times?"]}' }),
    });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-enrich-'));
      const fixtures = fileURLToPath(new URL('./fixtures/enrich/', import.meta.url));
      const md = join(dir, 'report.md');
      const args = [bin, 'enrich', '--input', join(fixtures, 'docs.jsonl'), '--out', join(dir, 'c.jsonl'), '--queries', join(fixtures, 'queries.jsonl'), '--max-tokens', '64', '--md', md, '--json'];
      const failure = await run(process.execPath, [...args, '--base-url', server.url, '--model', 'ckg', '--cache-dir', join(dir, 'c')], { env }).then(
        () => undefined,
        (error: unknown) => error as { code: number; stdout: string },
      );
      expect(failure?.code).toBe(3);
      const summary = JSON.parse(failure!.stdout) as { failed: number; queriesLeftOut: number; topK: Record<string, Record<string, number>> };
      expect(summary.failed).toBe(1);
      // queries.jsonl has 4 queries, 1 of them on "etna": 3 scored, all found by the chunk-only layout.
      expect(summary.queriesLeftOut).toBe(1);
      expect(summary.topK['case-1']).toEqual({ 1: 1, 3: 1, 5: 1, 10: 1 });
      const report = readFileSync(md, 'utf8');
      expect(report).toContain('**Incomplete:** 1 chunk(s) could not be annotated');
      expect(report).toContain('; 3 queries;');
    } finally {
      await server.close();
    }
  });

  it('bad input exits 2', async () => {
    await expect(run(process.execPath, [bin, 'enrich', '--input', 'x.jsonl'], { env })).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [bin, 'enrich', '--input', '/nonexistent.jsonl', '--out', '/tmp/x'], { env })).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [bin, 'enrich', '--input', 'x', '--out', 'y', '--chunker', 'page'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--chunker" must be sentence or token/) });
    await expect(run(process.execPath, [bin, 'enrich', '--input', 'x', '--out', 'y', '--html', 'r.html'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/"--queries" is needed for a report/) });
  });
});
