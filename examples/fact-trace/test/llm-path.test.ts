import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCache, withRetry, type LanguageModel } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createMockEmbedder } from '@factkit/core/testing';
import { createLexicalNliModel } from '@factkit/nli-models';
import { createOpenAICompatible } from '@factkit/openai';
import { describeWithData, startScriptedOpenAIServer, type ScriptedReply, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTracingBenchmark } from '../src/benchmark.js';
import { runStudy } from '../src/study.js';

// Built while collecting (the scripted replies read it): without the data the suite is skipped as a whole.
describeWithData(['fever-lite', 'climate-fever', 'scifact'], 'fact-trace LLM path', (_feverLite, dataRoot) => {
  const benchmark = buildTracingBenchmark({ dataRoot, size: 400, queryCount: 6, seed: 2 });
  const goldByClaim = new Map(benchmark.queries.map((query) => [query.claim, new Set(query.gold)]));
  const idByText = new Map(benchmark.documents.map((document) => [document.text.replace(/\s*\n\s*/g, ' '), document.id]));

  function promptOf(request: ScriptedRequest): string {
    const messages = (request.body as { messages?: Array<{ content: string }> }).messages ?? [];
    return messages.at(-1)?.content ?? '';
  }

  /**
   * Scripted replies: keywords = the capitalized words of the cluster (some replies without the '#keywords:' marker);
   * judge scores from the benchmark's gold evidence; faults: a 500 on the 3rd request, a dropped connection on the 7th,
   * a wrong score count on every 5th batch, and a claim whose judge calls always fail.
   */
  function createScript(state: { chat: number; failingClaim: string }): (request: ScriptedRequest) => ScriptedReply {
    return (request) => {
      if (request.path !== '/v1/chat/completions') return { status: 404 };
      state.chat++;
      if (state.chat === 3) return { status: 500 };
      if (state.chat === 7) return { drop: true };
      const prompt = promptOf(request);
      if (prompt.startsWith('Analyze the following group of sentences')) {
        const texts = prompt.slice(prompt.indexOf('Group of sentences: ') + 20, prompt.indexOf('\n\nOutput the keywords'));
        const words = [...new Set(texts.match(/\b[A-Z][a-z]{3,}\b/g) ?? ['misc'])].slice(0, 8);
        return { content: state.chat % 4 === 0 ? words.join(', ') : `Here you go.\n#keywords: ${words.join(', ')}` };
      }
      const tail = prompt.slice(prompt.lastIndexOf('\nFact: ') + 7);
      const claim = tail.slice(0, tail.indexOf('\nGroup of Texts: '));
      if (claim === state.failingClaim) return { status: 503 };
      const texts = [...tail.matchAll(/Text \d+: (.*)/g)].map((match) => match[1] as string);
      const gold = goldByClaim.get(claim) ?? new Set<string>();
      const scores = texts.map((text) => (gold.has(idByText.get(text) ?? '') ? 1 : 0));
      if (texts.length > 1 && state.chat % 5 === 0) scores.push(0); // extra score: the batch is re-asked item by item
      return { content: `#analysis: scripted verdicts.\n#scores: ${scores.join(', ')}` };
    };
  }

  describe('fact-trace LLM path against a scripted OpenAI-compatible server', () => {
    const directories: string[] = [];
    afterEach(() => {
      for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
    });

    it('labels, judges (re-asking malformed batches), leaves a failing query out, and resumes from the cache', async () => {
      const state = { chat: 0, failingClaim: (benchmark.queries[1] as { claim: string }).claim };
      const server = await startScriptedOpenAIServer({ script: createScript(state) });
      const outDir = mkdtempSync(join(tmpdir(), 'fact-trace-'));
      directories.push(outDir);
      try {
        const makeModel = (): LanguageModel =>
          withCache(
            withRetry(createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-test-secret-key-123456' }).languageModel('scripted-model'), { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 }),
            createFileCache({ directory: join(outDir, 'llm-cache') }),
          );
        const options = { benchmark, embedder: createMockEmbedder({ dimensions: 32 }), nli: createLexicalNliModel(), outDir, name: 'llm-test', seed: 1 };
        const first = await runStudy({ ...options, llm: makeModel() });
        const llmRow = first.rows.find((row) => row.method.startsWith('FastTrack, LLM judge'));
        const upper = first.rows[first.rows.indexOf(llmRow as never) + 1];
        expect(llmRow?.queries).toBe(5); // the query whose judge calls always fail is left out
        expect(first.excluded[llmRow?.method as string]).toEqual(['q1']);
        // The scripted judge is the gold oracle, so the LLM row's precision is perfect and recall reaches the stage-1 bound.
        expect(llmRow?.precision).toBeGreaterThan(0);
        expect(llmRow?.recall).toBeLessThanOrEqual((upper as { recall: number }).recall + 1e-9);
        expect(first.markdown).toContain('Queries left out');
        expect(JSON.stringify(first)).not.toContain('sk-test-secret-key-123456');
        const callsAfterFirst = server.requests.length;
        expect(callsAfterFirst).toBeGreaterThan(10);

        // Second run: index loaded from disk, every successful call served by the cache; only the failing claim's calls go out again.
        const second = await runStudy({ ...options, llm: makeModel() });
        const newRequests = server.requests.slice(callsAfterFirst).map((request) => promptOf(request));
        expect(newRequests.length).toBeGreaterThan(0);
        expect(newRequests.every((prompt) => prompt.includes(`Fact: ${state.failingClaim}\n`))).toBe(true);
        expect(second.rows.map((row) => [row.method, row.f1])).toEqual(first.rows.map((row) => [row.method, row.f1]));
      } finally {
        await server.close();
      }
    });
  });
});
