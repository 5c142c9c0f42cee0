import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedRequest, startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';
import { TOPICS } from './trace-topics.js';

// Issue 21 §1: a failed keyword call is never hidden. Three topics of four sentences; the keyword call of the
// aqueduct leaf fails on every attempt (HTTP 500), every other call answers. Every statement's candidates depended on
// the unlabelled leaf (stage 1 ranks leaves over all keywords), so all are undecided: exit 3, named on stderr, in the
// JSON and in the report's Incomplete block, and no P/R/F1 for FastTrack.

function prompt(request: ScriptedRequest): string {
  const messages = (request.body as { messages?: { content?: string }[] }).messages ?? [];
  return messages.map((message) => message.content ?? '').join('\n');
}

/** Keyword prompt: fails for the aqueduct leaf, else the leaf's capitalised words. Support prompt: 1 when the text shares the claim's last word. */
function script(request: ScriptedRequest) {
  const text = prompt(request);
  if (text.startsWith('Analyze the following group of sentences')) {
    if (/aqueduct/i.test(text)) return { status: 500, body: { error: { message: 'scripted failure' } } };
    const words = [
      ...new Set(
        text
          .split('Group of sentences:')[1]!
          .split('Output the keywords')[0]!
          .match(/\b[A-Z][a-z]+\b/g) ?? [],
      ),
    ];
    return { content: `#keywords: ${words.slice(0, 8).join(', ')}` };
  }
  const fact = /Fact: (.*)\nGroup of Texts: ([\s\S]*?)\n\nNow evaluate/.exec(text.slice(text.lastIndexOf('Fact: ')))!;
  const key = fact[1]!.replace(/\W+$/, '').split(/\s+/).pop()!.toLowerCase();
  const texts = fact[2]!.split('\n').filter((line) => /^Text \d+:/.test(line));
  return { content: `#analysis: scripted.\n#scores: ${texts.map((line) => (line.toLowerCase().includes(key) ? 1 : 0)).join(', ')}` };
}

describe('factkit trace with a failed keyword call (issue 21 §1)', () => {
  it('reports every dependent statement undecided, leaves it out of P/R/F1, names it and exits 3', async () => {
    const server = await startScriptedOpenAIServer({ script });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'factkit-trace-fail-'));
      const corpus = join(dir, 'corpus.jsonl');
      writeFileSync(
        corpus,
        `${Object.entries(TOPICS)
          .flatMap(([topic, sentences]) => sentences.map((text, index) => JSON.stringify({ id: `${topic}-${index}`, text })))
          .join('\n')}\n`,
      );
      const queries = join(dir, 'q.jsonl');
      writeFileSync(
        queries,
        `${[
          { query: 'Federer won Wimbledon eight times.', supporting: ['tennis-1'] },
          { query: 'Etna is in Sicily.', supporting: ['volcano-0'] },
        ]
          .map((row) => JSON.stringify(row))
          .join('\n')}\n`,
      );
      let stderr = '';
      let stdout = '';
      const out = join(dir, 'out.json');
      const md = join(dir, 'report.md');
      const code = await runCli(['trace', '--corpus', corpus, '--queries', queries, '--k', '3', '--leaf-size', '4', '--base-url', server.url, '--model', 'm', '--cache-dir', join(dir, 'cache'), '--out', out, '--md', md, '--no-config'], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        progress: () => {},
        env: {},
        cwd: dir,
      });
      const failedKeywordCalls = server.requests.filter((request) => /^Analyze/.test(prompt(request)) && /aqueduct/i.test(prompt(request)));
      expect(failedKeywordCalls.length).toBe(3); // the first attempt and 2 retries
      expect(code).toBe(3);
      expect(stderr).toMatch(/factkit trace: incomplete: FastTrack \(paper prompts\): 2 of 2 statements incomplete/);
      expect(stdout).toMatch(/undecided \(left out of the scores\): 1 leaf cluster\(s\) have no keywords/);
      const summary = JSON.parse(readFileSync(out, 'utf8')) as { results: { incomplete: boolean; problems: { code: string }[] }[] };
      expect(summary.results.map((result) => result.incomplete)).toEqual([true, true]);
      expect(summary.results[0]!.problems.map((problem) => problem.code)).toContain('unlabelled-leaves');
      const report = readFileSync(md, 'utf8');
      // The report's Incomplete block names them (its heading differs between report versions).
      expect(report).toMatch(/Incomplete[^\n]*\n\n- FastTrack \(paper prompts\): 2 of 2 statements incomplete/);
      // FastTrack's row scores no statement: its P/R/F1 cells are absent, never 0.0.
      const row = report.split('\n').find((line) => line.startsWith('| FastTrack (paper prompts)'));
      expect(row).toMatch(/2 incomplete, left out/);
      expect(row).not.toMatch(/\d\.\d/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
