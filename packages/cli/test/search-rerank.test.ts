import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ScriptedRequest } from '@factkit/test-utils';
import { startScriptedOpenAIServer } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
// The transformers package's repo-built ONNX fixture writer (a test helper of that package, not published).
import { writeBagOfWordsClassifier } from '../../transformers/test/fixtures/onnx-fixtures.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const beir = fileURLToPath(new URL('./fixtures/tiny-beir', import.meta.url));

interface SearchJson {
  retriever: string;
  hits: { rank: number; id: string; score: number }[];
}

async function tinyIndex(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'factkit-rerank-')), 'tiny.bm25');
  await run(process.execPath, [bin, 'index', '--beir', beir, '--out', out]);
  return out;
}

/** A scripted listwise ranker: reverses the window's passages (so the result visibly differs from BM25's order). */
function reverseRanker(request: ScriptedRequest) {
  const prompt = (request.body as { messages: { content: string }[] }).messages.at(-1)?.content ?? '';
  const ids = [...prompt.matchAll(/^\[(\d+)\] /gm)].map((match) => Number(match[1]));
  return {
    content: ids
      .reverse()
      .map((id) => `[${id}]`)
      .join(' > '),
  };
}

describe('factkit search --rerank (built bin)', () => {
  it('llm: reorders the first stage by the endpoint’s RankGPT permutation, and a rerun is served from the call cache', async () => {
    const index = await tinyIndex();
    const server = await startScriptedOpenAIServer({ script: reverseRanker });
    try {
      const cache = mkdtempSync(join(tmpdir(), 'factkit-rerank-cache-'));
      const args = [bin, 'search', '--index', index, '--query', 'cats watching fish', '--json', '--rerank', 'llm', '--base-url', server.url, '--model', 'ranker', '--api-key', 'sk-test', '--cache-dir', cache];
      const first = JSON.parse((await run(process.execPath, args)).stdout) as SearchJson;
      const plain = JSON.parse((await run(process.execPath, [bin, 'search', '--index', index, '--query', 'cats watching fish', '--json'])).stdout) as SearchJson;
      // BM25 gives d4, d1 (see index-search.test.ts); the scripted ranker reverses them.
      expect(plain.hits.map((hit) => hit.id)).toEqual(['d4', 'd1']);
      expect(first.hits.map((hit) => [hit.id, hit.rank, hit.score])).toEqual([
        ['d1', 1, 1],
        ['d4', 2, 0.5],
      ]);
      expect(first.retriever).toMatch(/>>rankgpt\(/);
      const calls = server.requests.filter((request) => request.path === '/v1/chat/completions').length;
      expect(calls).toBe(1);
      const second = JSON.parse((await run(process.execPath, args)).stdout) as SearchJson;
      expect(second.hits).toEqual(first.hits);
      expect(server.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(calls);
    } finally {
      await server.close();
    }
  });

  it('llm: a refused ranking keeps the first-stage order, is warned about and makes the run incomplete (exit 3)', async () => {
    const index = await tinyIndex();
    const server = await startScriptedOpenAIServer({ script: () => ({ content: "I'm sorry, but I can't help with that." }) });
    try {
      const cache = mkdtempSync(join(tmpdir(), 'factkit-rerank-cache-'));
      const args = [bin, 'search', '--index', index, '--query', 'cats watching fish', '--json', '--rerank', 'llm', '--base-url', server.url, '--model', 'ranker', '--api-key', 'sk-test', '--cache-dir', cache];
      const failed = await run(process.execPath, args).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(3);
      expect(failed?.stderr).toMatch(/incomplete: the reranker could not rank every window/);
      // The hits are still shown, in BM25's order (d4, d1), never passed off as a reranked order without a warning.
      expect((JSON.parse(failed?.stdout ?? '{}') as SearchJson).hits.map((hit) => hit.id)).toEqual(['d4', 'd1']);
    } finally {
      await server.close();
    }
  });

  it('cross-encoder:<dir>: reorders by a local model folder (repo-built fixture: "cats" scores high, "fish" low)', async () => {
    const index = await tinyIndex();
    const model = join(mkdtempSync(join(tmpdir(), 'factkit-cross-encoder-')), 'model');
    await writeBagOfWordsClassifier({
      directory: model,
      id2label: { 0: 'LABEL_0' },
      wordLogits: [
        ['cats', [6]],
        ['fish', [-6]],
      ],
      neutralWords: ['purr', 'when', 'content', 'swim', 'watch', 'watching'],
    });
    const result = JSON.parse((await run(process.execPath, [bin, 'search', '--index', index, '--query', 'cats watching fish', '--json', '--rerank', `cross-encoder:${model}`])).stdout) as SearchJson;
    // d1 "Cats Cats purr when content." has two "cats" and no "fish"; d4 "Fish swim; cats watch fish." has two "fish".
    expect(result.hits.map((hit) => hit.id)).toEqual(['d1', 'd4']);
    expect(result.retriever).toMatch(/>>cross-encoder:model$/);
  });

  it('rejects llm without an endpoint, an unknown reranker and a bad depth, naming the flag (exit 2)', async () => {
    const index = await tinyIndex();
    for (const [spec, message] of [
      ['llm', /--rerank.*needs an OpenAI-compatible endpoint/],
      ['bm42', /--rerank.*must be llm or cross-encoder/],
      ['cross-encoder:/no/such/folder', /--rerank.*cannot use/],
      ['llm --rerank-depth 0', /--rerank-depth.*positive integer/],
    ] as const) {
      const failure = await run(process.execPath, [bin, 'search', '--index', index, '--query', 'cats', '--rerank', ...spec.split(' '), '--offline'], { env: { ...process.env, OPENAI_BASE_URL: '' } }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect((failure as { code: number }).code).toBe(2);
      expect((failure as { stderr: string }).stderr).toMatch(message);
    }
  });
});
