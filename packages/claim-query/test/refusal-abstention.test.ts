// Refusals and abstentions on the LLM path, against a real local OpenAI-compatible HTTP server (127.0.0.1): a refusal
// from the JointCQ generator or the LLM verifier fails its item with the reason; an abstaining answer is never sent to
// the model and is labelled 'abstained'.
import { createOpenAICompatible } from '@factkit/openai';
import { startScriptedOpenAIServer, type ScriptedRequest } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createJointCqGenerator, createLlmVerifier, detectHallucinations, summarizeDetections } from '../src/index.js';
import { createTableRetriever } from './support.js';

const lastUser = (request: ScriptedRequest): string => {
  const messages = (request.body as { messages?: { role: string; content: string }[] }).messages ?? [];
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
};

describe('refusals and abstentions (scripted server)', () => {
  it('generator refusal → failed item; verifier refusal → failed verification; abstaining answer → abstained, no call', async () => {
    const server = await startScriptedOpenAIServer({
      script: (request) => {
        const prompt = lastUser(request);
        if (prompt.includes('[Reference]')) return { content: prompt.includes('Rome') ? 'I apologize, but I cannot verify this claim.' : 'Correct' };
        if (prompt.includes('Orion')) return { content: "I'm sorry, but I can't help with that." };
        if (prompt.includes('Rome')) return { content: '[Claims]\n1 Rome is the capital of Italy.\n[Queries]\n1 capital of Italy\n[End]' };
        return { content: '[Claims]\n1 Paris is the capital of France.\n[Queries]\n1 capital of France\n[End]' };
      },
    });
    try {
      const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-local' }).languageModel('scripted');
      const results = await detectHallucinations({
        items: [
          { id: 'refused', question: 'What is Orion?', answer: 'Orion is a billing service.' },
          { id: 'judge-refused', question: 'Capital of Italy?', answer: 'Rome is the capital of Italy.' },
          { id: 'ok', question: 'Capital of France?', answer: 'Paris is the capital of France.' },
          { id: 'abstains', question: 'Capital of Chad?', answer: "I don't know the answer to that question." },
        ],
        generator: createJointCqGenerator({ model }),
        retriever: createTableRetriever({ 'capital of Italy': ['Rome is the capital city of Italy.'], 'capital of France': ['Paris is the capital of France.'] }),
        verifier: createLlmVerifier({ model }),
      });
      const byId = new Map(results.map((r) => [r.id, r]));
      expect(byId.get('refused')).toMatchObject({ status: 'failed', failedStage: 'generation', claims: [] });
      expect(byId.get('refused')?.problems.map((p) => p.code)).toContain('refusal');
      expect(byId.get('judge-refused')).toMatchObject({ status: 'failed', failedStage: 'verification' });
      expect(byId.get('judge-refused')?.claims[0]?.verdict.problems.map((p) => p.code)).toContain('refusal');
      expect(byId.get('ok')).toMatchObject({ status: 'ok', responseLabel: 'not-hallucinated', factualPrecision: 1 });
      expect(byId.get('abstains')).toMatchObject({ status: 'ok', responseLabel: 'abstained' });
      expect(server.requests.some((request) => lastUser(request).includes("I don't know"))).toBe(false);
      expect(summarizeDetections(results)).toMatchObject({ failed: 2, labels: { abstained: 1, 'not-hallucinated': 1 }, factualPrecision: { mean: 1, responses: 1, without: 3 } });
    } finally {
      await server.close();
    }
  });
});
