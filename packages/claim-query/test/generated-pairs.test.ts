// The generators' output is core types: claims keyed `<item id>:c<k>`, queries pointing back to their claim, and the
// model call(s) that made each pair, against a real local OpenAI-compatible server (127.0.0.1) with scripted replies.
import { createOpenAICompatible } from '@factkit/openai';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer, type ScriptedRequest } from '@factkit/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createDrafterGenerator } from '../src/detect/baseline-generators.js';
import { detectHallucinations } from '../src/detect/detect-hallucinations.js';
import { createJointCqGenerator } from '../src/generate/create-jointcq-generator.js';
import { createNliVerifier } from '../src/verify/create-nli-verifier.js';
import { createTwoStepGenerator } from '../src/two-step/create-two-step-generator.js';
import { createBagOfWordsEmbedder, createTableRetriever, createYearNliModel } from './support.js';

const lastUser = (request: ScriptedRequest): string => ((request.body as { messages?: { role: string; content: string }[] }).messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '';

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A long answer: three sentences of about 120 characters each, so `maxAnswerChars: 200` sends each in its own call.
const SENTENCES = [
  'The Acqua Felice aqueduct in Rome was completed in the year 1586 under Pope Sixtus V after a long and costly construction.',
  'Its water came from springs near Pantano Borghese, about twenty-five kilometres east of the city walls of Rome in Italy.',
  'The aqueduct ended at the Fountain of Moses on the Quirinal Hill, which was designed by the architect Domenico Fontana.',
];

describe('generated pairs carry core Claim and SearchQuery', () => {
  it('JointCQ: one claim per chunk reply, keyed across chunks in order, each with the call that generated it', async () => {
    // Each chunk's reply claims its own answer text and queries its first four words.
    server = await startScriptedOpenAIServer({
      script: (request) => {
        const answer = lastUser(request).split('[Answer]\n')[1] ?? '';
        return { content: `[Claims]\n1 ${answer}\n[Queries]\n1 ${answer.split(' ').slice(0, 4).join(' ')}\n[End]` };
      },
    });
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-local' }).languageModel('scripted-model');
    const generator = createJointCqGenerator({ model, maxAnswerChars: 200 });
    const [long, unkeyed] = await generator.generate({
      items: [
        { id: 'acqua', question: 'Tell me about the Acqua Felice.', answer: SENTENCES.join(' ') },
        { question: 'Where is Rome?', answer: 'Rome is in Italy.' },
      ],
    });
    expect(long?.status).toBe('ok');
    expect(long?.problems.map((problem) => problem.code)).toEqual(['answer-chunked']);
    expect(long?.pairs.map((pair) => pair.claim)).toEqual(SENTENCES.map((text, k) => ({ id: `acqua:c${k}`, text })));
    expect(long?.pairs.map((pair) => pair.query)).toEqual(SENTENCES.map((text, k) => ({ text: text.split(' ').slice(0, 4).join(' '), claimId: `acqua:c${k}` })));
    // Each pair names its own chunk's call; the item keeps all three.
    expect(long?.pairs.map((pair) => pair.provenance?.map((p) => p.step))).toEqual([['jointcq.generate'], ['jointcq.generate'], ['jointcq.generate']]);
    expect(long?.pairs.map((pair) => pair.provenance?.[0]?.prompts.at(-1)?.endsWith(pair.claim.text))).toEqual([true, true, true]);
    expect(long?.provenance).toEqual(long?.pairs.map((pair) => pair.provenance?.[0]));
    // An item without an id is keyed by its position in the batch.
    expect(unkeyed?.pairs[0]?.claim).toEqual({ id: '1:c0', text: 'Rome is in Italy.' });
  });

  it('two-step: the claim call and the query call of every pair; a claim without a query has none', async () => {
    server = await startScriptedOpenAIServer({
      script: (request) => {
        const prompt = lastUser(request);
        if (prompt.endsWith('[Claims]')) return { content: '1. Paris is the capital of France.\n2. I like Paris.' };
        return { content: prompt.includes('I like Paris.') ? 'No query' : 'capital of France' };
      },
    });
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'sk-local' }).languageModel('scripted-model');
    const generator = createTwoStepGenerator({
      model,
      claimExamples: { en: [{ question: 'Who wrote Hamlet?', answer: 'Shakespeare.', claims: ['William Shakespeare wrote Hamlet.'] }] },
      queryExamples: { en: [{ claim: 'William Shakespeare wrote Hamlet.', query: 'Who wrote Hamlet?' }] },
      embedder: createBagOfWordsEmbedder(),
    });
    const [paris] = await generator.generate({ items: [{ id: 'paris', question: 'Tell me about Paris.', answer: 'Paris is the capital of France. I like it.', language: 'en' }] });
    expect(paris?.pairs.map((pair) => [pair.claim, pair.query])).toEqual([
      [
        { id: 'paris:c0', text: 'Paris is the capital of France.' },
        { text: 'capital of France', claimId: 'paris:c0' },
      ],
      [{ id: 'paris:c1', text: 'I like Paris.' }, undefined],
    ]);
    expect(paris?.pairs.map((pair) => pair.provenance?.map((p) => p.step))).toEqual([
      ['jointcq.two-step.claims', 'jointcq.two-step.query'],
      ['jointcq.two-step.claims', 'jointcq.two-step.query'],
    ]);
    expect(paris?.pairs[1]?.provenance?.[1]?.prompts.at(-1)).toContain('I like Paris.');
  });

  it('the detector hands each item to the generator with its id (its position when it has none): the claims it verifies are the generated ones', async () => {
    const generator = createDrafterGenerator();
    const items = [
      { question: 'When was the Acqua Felice completed?', answer: 'The Acqua Felice was completed in 1586.' },
      { question: 'When was the Acqua Felice started?', answer: 'Work on the Acqua Felice began in 1585.' },
      { id: 'named', question: 'Where is the Acqua Felice?', answer: 'The Acqua Felice is in Rome.' },
    ];
    const results = await detectHallucinations({ items, generator, retriever: createTableRetriever({}), verifier: createNliVerifier({ nli: createYearNliModel() }) });
    const direct = await generator.generate({ items: items.map((item, index) => ({ ...item, id: item.id ?? String(index) })) });
    expect(results.map((result) => result.claims.map((checked) => checked.claim.id))).toEqual([['0:c0'], ['1:c0'], ['named:c0']]);
    results.forEach((result, i) => {
      expect(result.claims.map((checked) => ({ id: checked.claim.id, text: checked.claim.text }))).toEqual(direct[i]!.pairs.map((pair) => pair.claim));
      expect(result.claims.map((checked) => checked.query)).toEqual(direct[i]!.pairs.map((pair) => pair.query));
    });
  });
});
