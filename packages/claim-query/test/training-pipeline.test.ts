// Two-step synthesis (Tables 13-16), the six criteria (Tables 17-20) and the training-data pipeline (§3.2-3.4)
// against a real local OpenAI-compatible server (127.0.0.1) with scripted replies.
import type { Progress } from '@factkit/core';
import { createOpenAICompatible } from '@factkit/openai';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedReply, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCriteria, parseCriterionJudgement } from '../src/criteria/check-criteria.js';
import { buildTrainingData, createTwoStepGenerator, toChatJsonl } from '../src/index.js';
import { parseClaimSynthesisReply, parseQuerySynthesisReply } from '../src/two-step/create-two-step-generator.js';
import { createBagOfWordsEmbedder } from './support.js';

const lastUser = (request: ScriptedRequest): string => ((request.body as { messages?: { role: string; content: string }[] }).messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '';

const CLAIMS: Record<string, string> = {
  'Paris is the capital of France. It has two million people.': '1. Paris is the capital of France.\n2. It has two million people.',
  'Rome is in Italy.': 'Rome is in Italy.',
  'I like it.': 'No claims.',
  'Berlin is in Germany.': '- Berlin is in Germany.',
  'Tokyo is in Japan.': 'Tokyo is in Japan.',
};

function handler(request: ScriptedRequest): ScriptedReply {
  const prompt = lastUser(request);
  if (prompt.endsWith('[Claims]')) {
    const answer = prompt
      .split('[Answer]\n')
      .at(-1)!
      .replace(/\n\[Claims\]$/, '');
    return CLAIMS[answer] ? { content: CLAIMS[answer] } : { status: 500 };
  }
  if (prompt.endsWith('[Query]')) {
    const claim = prompt
      .split('[Claim]\n')
      .at(-1)!
      .replace(/\n\[Query\]$/, '');
    if (claim.startsWith('Berlin')) return { content: 'What country is Berlin in, and what is its population, history, culture and economy today?' };
    return { content: `[Query] Is it true that ${claim.replace(/\.$/, '')}?` };
  }
  if (prompt.includes('[Claim(s)]')) {
    const claims = prompt.split('[Claim(s)]\n').at(-1)!;
    if (prompt.includes('Decontextualization:')) return { content: /^It\b/.test(claims) ? 'No' : 'Yes' };
    if (prompt.includes('Coverage:') && claims.startsWith('Rome')) return { content: 'Yes or no, hard to say' };
    return { content: 'Yes' };
  }
  if (prompt.includes('[Query]\n')) {
    const query = prompt.split('[Query]\n').at(-1)!;
    if (prompt.includes('Conciseness:')) return { content: query.split(' ').length > 12 ? 'No.' : 'Yes.' };
    return { content: 'Yes' };
  }
  return { status: 500 };
}

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const claimExamples = { en: [{ question: 'Who wrote Hamlet?', answer: 'Shakespeare.', claims: ['William Shakespeare wrote Hamlet.'] }] };
const queryExamples = { en: [{ claim: 'William Shakespeare wrote Hamlet.', query: 'Who wrote Hamlet?' }] };

describe('parsers', () => {
  it('criterion judgements: Yes/No/是/否, hedges are not read', () => {
    expect(parseCriterionJudgement('Yes').pass).toBe(true);
    expect(parseCriterionJudgement('No.').pass).toBe(false);
    expect(parseCriterionJudgement('是').pass).toBe(true);
    expect(parseCriterionJudgement('否').pass).toBe(false);
    expect(parseCriterionJudgement('<think>maybe yes</think>No').pass).toBe(false);
    expect(parseCriterionJudgement('Yes or no').pass).toBeUndefined();
    expect(parseCriterionJudgement('').pass).toBeUndefined();
  });
  it('claim and query synthesis replies', () => {
    expect(parseClaimSynthesisReply('1. A is B.\n2. C is D.').value.claims).toEqual(['A is B.', 'C is D.']);
    expect(parseClaimSynthesisReply('无陈述').value).toEqual({ claims: [], noClaims: true });
    expect(parseQuerySynthesisReply('[Query] what is A?').value.query).toBe('what is A?');
    expect(parseQuerySynthesisReply('No query').value.query).toBeUndefined();
  });
});

describe('two-step generator, criteria and training data (scripted local server)', () => {
  it('checkCriteria returns pass/fail with the raw judgement and provenance, temperature 0', async () => {
    server = await startScriptedOpenAIServer({ script: handler });
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-local' }).languageModel('scripted-model');
    const results = await checkCriteria(
      [
        { criterion: 'decontextualization', question: 'q', answer: 'a', claim: 'It has two million people.' },
        { criterion: 'conciseness', claim: 'c', query: 'short query' },
      ],
      { model },
    );
    expect(results.map((r) => [r.criterion, r.pass, r.judgement])).toEqual([
      ['decontextualization', false, 'No'],
      ['conciseness', true, 'Yes.'],
    ]);
    expect(results[0]?.provenance.sampling.temperature).toBe(0);
    expect(results[0]?.provenance.prompts[0]).toContain('Decontextualization: The claim should be understandable on its own, without requiring additional context.\n\nIf the claim(s) meet');
  });

  it('buildTrainingData: synthesis → six criteria → stratify → split, with the funnel counts', async () => {
    server = await startScriptedOpenAIServer({ script: handler });
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-local' }).languageModel('scripted-model');
    const synthesizer = createTwoStepGenerator({ model, claimExamples, queryExamples, embedder: createBagOfWordsEmbedder() });
    const items = [
      { id: 'paris', question: 'Tell me about Paris.', answer: 'Paris is the capital of France. It has two million people.', language: 'en' as const },
      { id: 'rome', question: 'Where is Rome?', answer: 'Rome is in Italy.', language: 'en' as const },
      { id: 'opinion', question: 'Do you like it?', answer: 'I like it.', language: 'en' as const },
      { id: 'berlin', question: 'Where is Berlin?', answer: 'Berlin is in Germany.', language: 'en' as const },
      { id: 'broken', question: 'q', answer: 'unscripted answer', language: 'en' as const },
      { id: 'ok2', question: 'Where is Rome?', answer: 'Rome is in Italy.', language: 'en' as const },
      { id: 'tokyo', question: 'Where is Tokyo?', answer: 'Tokyo is in Japan.', language: 'en' as const },
    ];
    const progress: Progress[] = [];
    const result = await buildTrainingData({ items, synthesizer, evaluator: model, totalPerLanguage: 10, testFraction: 0, onProgress: (p) => progress.push(p) });
    // Core's Progress: every QA pair but tokyo was left out (failed); completed − failed = the samples that passed.
    expect(progress).toEqual([{ completed: 7, total: 7, failed: 6 }]);
    // paris: decontextualisation fails for "It has ..."; rome/ok2: coverage judgement unreadable (undecided);
    // opinion: no claims; berlin: conciseness fails; broken: synthesis call fails; tokyo passes everything.
    expect(result.funnel).toMatchObject({ qaPairs: 7, synthesized: 6, synthesisFailed: 1, noClaims: 1, passedAll: 1, selected: 1, train: 1, test: 0 });
    expect(result.funnel.undecided).toBe(2);
    expect(result.funnel.passed.decontextualization).toBe(5); // Paris claim 1, Rome, Rome, Berlin, Tokyo (Paris claim 2 fails)
    expect(result.funnel.judged.decontextualization).toBe(6);
    expect(result.funnel.passed.conciseness).toBe(5);
    expect(result.rejected.find((r) => r.id === 'paris')?.failed).toEqual(['decontextualization']);
    expect(result.rejected.find((r) => r.id === 'berlin')?.failed).toEqual(['conciseness']);
    expect(result.rejected.find((r) => r.id === 'broken')?.problems[0]?.code).toBe('call-failed');
    expect(result.train.map((sample) => sample.id)).toEqual(['tokyo']);
    // The synthesiser's core types flow into the sample: claim `<item id>:c<k>`, its query pointing back to it.
    expect(result.train[0]?.pairs).toEqual([{ claim: { id: 'tokyo:c0', text: 'Tokyo is in Japan.' }, query: { text: 'Is it true that Tokyo is in Japan?', claimId: 'tokyo:c0' } }]);
    expect(result.perGroup).toEqual({ en: { 1: 1 } });
  });

  it('chat JSONL of kept samples', () => {
    const jsonl = toChatJsonl([{ id: 'a', language: 'zh', question: '问题', answer: '回答', pairs: [{ claim: { id: 'a:c0', text: '甲是乙。' }, query: { text: '甲是什么', claimId: 'a:c0' } }] }]);
    expect(JSON.parse(jsonl).messages[1].content).toBe('[陈述]\n1 甲是乙。\n[查询]\n1 甲是什么\n[结束]');
  });
});
