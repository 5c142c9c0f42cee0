import type { Document, Evidence, LanguageModel } from '@factkit/core';
import { createMemoryCache, evidenceOrigin, InvalidArgumentError, ProviderCallError, withCache } from '@factkit/core';
import { createMockReranker } from '@factkit/core/testing';
import { createOpenAICompatible } from '@factkit/openai';
import type { ScriptedOpenAIServer, ScriptedRequest } from '@factkit/test-utils';
import { describeRerankerContract, describeRetrieverContract, startScriptedOpenAIServer } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBm25Retriever } from '../bm25/bm25-retriever.js';
import { RANKGPT_PROMPT, RANKGPT_SYSTEM } from './rankgpt-prompt.js';
import { createRankGptReranker, rankGptWindows } from './rankgpt-reranker.js';
import { withReranker } from './with-reranker.js';

interface ChatBody {
  messages: { role: string; content: string }[];
  temperature?: number;
}
const promptOf = (request: ScriptedRequest) => (request.body as ChatBody).messages.at(-1)?.content ?? '';
/** The `[i] text` lines of a RankGPT prompt. */
const passagesOf = (prompt: string) => [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((match) => ({ id: Number(match[1]), text: match[2] ?? '' }));

/** A scripted ranker that knows the truth: it orders the window's passages by the "grade N" each text carries. */
function idealRanker(request: ScriptedRequest) {
  const passages = passagesOf(promptOf(request));
  const grade = (text: string) => Number(/grade (\d+)/.exec(text)?.[1] ?? 0);
  return {
    content: passages
      .sort((a, b) => grade(b.text) - grade(a.text))
      .map((passage) => `[${passage.id}]`)
      .join(' > '),
  };
}
/** A scripted ranker by query-word overlap (for the contract suites). */
function overlapRanker(request: ScriptedRequest) {
  const prompt = promptOf(request);
  const query = new Set((/Search Query: (.*)\. $/m.exec(prompt)?.[1] ?? '').toLowerCase().match(/[a-z]+/g));
  const overlap = (text: string) => (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => query.has(word)).length;
  const passages = passagesOf(prompt);
  return {
    content: passages
      .sort((a, b) => overlap(b.text) - overlap(a.text) || a.id - b.id)
      .map((passage) => `[${passage.id}]`)
      .join(' > '),
  };
}

const graded = (count: number): Evidence[] =>
  // Worst first: grade 1 at the top of the incoming list, grade `count` at the bottom.
  Array.from({ length: count }, (_, index) => ({ documentId: `d${index + 1}`, text: `passage with grade ${index + 1}`, score: count - index, rank: index + 1, origin: { documentId: `d${index + 1}` } }));

let server: ScriptedOpenAIServer;
let script: (request: ScriptedRequest) => ReturnType<typeof idealRanker> | { status: number } = idealRanker;
let model: LanguageModel;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ script: (request) => script(request) });
  model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-test-not-real' }).languageModel('ranker');
});
afterAll(async () => {
  await server.close();
});
const chatCalls = () => server.requests.filter((request) => request.path === '/v1/chat/completions');

describe('rankGptWindows', () => {
  it("visits RankGPT's windows bottom-up and always ends at the top", () => {
    expect(rankGptWindows(100, 20, 10)).toEqual([
      [80, 100],
      [70, 90],
      [60, 80],
      [50, 70],
      [40, 60],
      [30, 50],
      [20, 40],
      [10, 30],
      [0, 20],
    ]);
    expect(rankGptWindows(25, 20, 10)).toEqual([
      [5, 25],
      [0, 20],
    ]);
    expect(rankGptWindows(5, 20, 10)).toEqual([[0, 5]]);
    expect(rankGptWindows(1, 20, 10)).toEqual([]);
  });
});

describe('createRankGptReranker against the scripted OpenAI-protocol server', () => {
  it("sends RankGPT's prompt and system message at temperature 0, and orders by the reply", async () => {
    script = idealRanker;
    const before = chatCalls().length;
    const candidates = graded(3);
    const { evidence, problems } = await createRankGptReranker({ model }).rerank({ query: { text: 'which passage is best' }, evidence: candidates });
    expect(problems).toBeUndefined();
    expect(evidence.map((item) => [item.documentId, item.rank, item.score])).toEqual([
      ['d3', 1, 1],
      ['d2', 2, 1 / 2],
      ['d1', 3, 1 / 3],
    ]);
    const [call] = chatCalls().slice(before);
    const body = call?.body as ChatBody;
    expect(body.temperature).toBe(0);
    expect(body.messages[0]).toEqual({ role: 'system', content: RANKGPT_SYSTEM });
    expect(body.messages.at(-1)?.content).toBe(
      RANKGPT_PROMPT.replaceAll('{{num}}', '3').replaceAll('{{query}}', 'which passage is best').replace('{{passages}}', '[1] passage with grade 1\n[2] passage with grade 2\n[3] passage with grade 3'),
    );
  });

  it('bubbles the best passages to the top with the sliding window (25 candidates, window 20, step 10: 2 calls)', async () => {
    script = idealRanker;
    const before = chatCalls().length;
    const { evidence } = await createRankGptReranker({ model }).rerank({ query: { text: 'q' }, evidence: graded(25), topK: 10 });
    expect(chatCalls().length - before).toBe(2);
    // The true top 10 are grades 25..16; the bottom window lifts them into reach of the top window.
    expect(evidence.map((item) => item.documentId)).toEqual(['d25', 'd24', 'd23', 'd22', 'd21', 'd20', 'd19', 'd18', 'd17', 'd16']);
  });

  it('truncates passages to maxPassageWords and puts the title first as RankGPT does', async () => {
    script = idealRanker;
    const before = chatCalls().length;
    const long: Evidence[] = [
      { documentId: 'a', text: 'one two three four five', score: 2, origin: { documentId: 'a', title: 'Numbers' } },
      { documentId: 'b', text: 'six seven', score: 1, origin: { documentId: 'b' } },
    ];
    await createRankGptReranker({ model, maxPassageWords: 4 }).rerank({ query: { text: 'q' }, evidence: long });
    expect(passagesOf(promptOf(chatCalls()[before]!))).toEqual([
      { id: 1, text: 'Title: Numbers Content: one' },
      { id: 2, text: 'six seven' },
    ]);
  });

  it("repairs a junk permutation as RankGPT does and reports it with the window; keeps a refused window's order", async () => {
    script = () => ({ content: 'Sure! [2] > [2] > [7] and that is all' });
    const repaired = await createRankGptReranker({ model }).rerank({ query: { text: 'q' }, evidence: graded(3) });
    expect(repaired.evidence.map((item) => item.documentId)).toEqual(['d2', 'd1', 'd3']);
    expect(repaired.problems?.map((problem) => problem.code)).toEqual(['duplicate-identifier', 'unknown-identifier', 'missing-identifier']);
    expect(repaired.problems?.[0]?.message).toMatch(/^window 1-3: /);
    script = () => ({ content: "I'm sorry, but I can't help with ranking these." });
    const refused = await createRankGptReranker({ model }).rerank({ query: { text: 'q' }, evidence: graded(3) });
    expect(refused.evidence.map((item) => item.documentId)).toEqual(['d1', 'd2', 'd3']);
    expect(refused.problems?.map((problem) => problem.code)).toEqual(['refused']);
  });

  it('rejects with the provider error when a call fails (never a ranking), and names no secret', async () => {
    script = () => ({ status: 400 });
    const rejection = await createRankGptReranker({ model })
      .rerank({ query: { text: 'q' }, evidence: graded(3) })
      .catch((error: unknown) => error);
    expect(ProviderCallError.isInstance(rejection)).toBe(true);
    expect(String((rejection as Error).message)).not.toContain('sk-test-not-real');
  });

  it('is cacheable: a rerun through core withCache makes no call (resumable)', async () => {
    script = idealRanker;
    const cached = withCache(model, createMemoryCache());
    const reranker = createRankGptReranker({ model: cached });
    const first = await reranker.rerank({ query: { text: 'q' }, evidence: graded(25) });
    const before = chatCalls().length;
    const second = await reranker.rerank({ query: { text: 'q' }, evidence: graded(25) });
    expect(chatCalls().length).toBe(before);
    expect(second.evidence).toEqual(first.evidence);
  });

  it('answers an empty query with a problem and makes no call', async () => {
    const before = chatCalls().length;
    const result = await createRankGptReranker({ model }).rerank({ query: { text: '  ' }, evidence: graded(3) });
    expect(result).toEqual({ evidence: [], problems: [{ code: 'empty-query', message: 'the query has no text to rank passages for' }] });
    expect(chatCalls().length).toBe(before);
  });

  it('rejects bad options', () => {
    expect(() => createRankGptReranker({} as never)).toThrow(InvalidArgumentError);
    expect(() => createRankGptReranker({ model, step: 30 })).toThrow(/argument "step"/);
    expect(() => createRankGptReranker({ model, windowSize: 1 })).toThrow(/argument "windowSize"/);
    expect(() => createRankGptReranker({ model, prompt: 'rank {{passages}}' })).toThrow(/\{\{num\}\}/);
  });
});

const corpus: Document[] = [
  { id: 'd1', title: 'Vitamin D', text: 'Vitamin D deficiency is linked to bone loss in older adults.' },
  { id: 'd2', text: 'The capital of France is Paris.' },
  { id: 'd3', text: 'Bone density declines with age.' },
  { id: 'd4', text: 'Vitamin C is found in citrus fruit.' },
];
const contractCandidates: Evidence[] = corpus.map((document, index) => ({ documentId: document.id, text: document.text, score: 4 - index, rank: index + 1, origin: evidenceOrigin(document) })).reverse();

describeRerankerContract(
  'createRankGptReranker (scripted server)',
  () => {
    script = overlapRanker;
    return createRankGptReranker({ model });
  },
  { query: 'vitamin D deficiency and bone loss', candidates: contractCandidates, expectedFirstId: 'd1' },
);
describeRetrieverContract(
  'withReranker(bm25, rankgpt)',
  () => {
    script = overlapRanker;
    return withReranker(createBm25Retriever(corpus), createRankGptReranker({ model }), { candidates: 4 });
  },
  { query: 'vitamin D deficiency and bone loss', expectedId: 'd1' },
);
describeRetrieverContract('withReranker(bm25, mock reranker)', () => withReranker(createBm25Retriever(corpus), createMockReranker()), { query: 'vitamin bone', expectedId: 'd1' });

describe('withReranker', () => {
  it('fetches max(candidates, topK) from the first stage, reranks them and keeps topK', async () => {
    const reranker = createMockReranker();
    const bm25 = createBm25Retriever(corpus);
    const calls: number[] = [];
    const counting = {
      id: bm25.id,
      retrieve: (request: Parameters<typeof bm25.retrieve>[0]) => {
        calls.push(request.topK ?? -1);
        return bm25.retrieve(request);
      },
    };
    const retriever = withReranker(counting, reranker, { candidates: 3 });
    expect(retriever.id).toBe(`${bm25.id}>>mock:overlap-reranker`);
    const { evidence } = await retriever.retrieve({ query: { text: 'bone age' }, topK: 1 });
    await retriever.retrieve({ query: { text: 'bone age' }, topK: 5 });
    expect(calls).toEqual([3, 5]);
    expect(reranker.calls[0]?.evidence.length).toBeGreaterThan(0);
    expect(evidence.map((item) => item.documentId)).toEqual(['d3']);
  });

  it('passes an empty first stage through without a reranker call, and rejects bad arguments', async () => {
    const reranker = createMockReranker();
    const result = await withReranker(createBm25Retriever(corpus), reranker).retrieve({ query: { text: '  ' } });
    expect(result.evidence).toEqual([]);
    expect(result.problems?.length).toBeGreaterThan(0);
    expect(reranker.calls).toHaveLength(0);
    expect(() => withReranker(createBm25Retriever(corpus), {} as never)).toThrow(/argument "reranker"/);
    expect(() => withReranker(createBm25Retriever(corpus), reranker, { candidates: 0 })).toThrow(/candidates/);
  });
});
