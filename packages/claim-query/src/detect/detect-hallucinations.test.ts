import { describe, expect, it } from 'vitest';
import { evaluateDetections } from '../metrics/evaluate-detections.js';
import { createBagOfWordsEmbedder, createTableRetriever, createYearNliModel, pairsOf } from '../../test/support.js';
import { createNliVerifier } from '../verify/create-nli-verifier.js';
import type { ClaimVerifier } from '../verify/create-nli-verifier.js';
import { createDrafterGenerator, createWholeResponseGenerator, withClaimsAsQueries } from './baseline-generators.js';
import { detectHallucinations } from './detect-hallucinations.js';
import type { ClaimQueryGenerator } from './generator.js';
import { summarizeDetections } from './summarize-detections.js';

// Mock NLI: entailment if the snippet contains the claim's year, contradiction if it contains another 4-digit year.
const nli = createYearNliModel();

const fixedGenerator = (pairs: { claim: string; query?: string }[]): ClaimQueryGenerator => ({
  id: 'fixed',
  async generate({ items }) {
    return items.map((qa) => ({ status: 'ok' as const, pairs: pairsOf(qa.id, pairs), noClaims: pairs.length === 0, problems: [] }));
  },
});

describe('detectHallucinations', () => {
  const item = { id: 'q1', question: 'When was the Acqua Felice built?', answer: 'The Acqua Felice was completed in 1586. The Acqua Felice was started in 1550.' };
  const retriever = createTableRetriever({ 'Acqua Felice completion': ['The Acqua Felice was completed in 1586.'], 'Acqua Felice start': ['Work on the Acqua Felice began in 1585.'] }, ['broken query']);

  it('keeps the whole chain and labels sentences and the response', async () => {
    const [result] = await detectHallucinations({
      items: [item],
      generator: fixedGenerator([
        { claim: 'The Acqua Felice was completed in 1586.', query: 'Acqua Felice completion' },
        { claim: 'The Acqua Felice was started in 1550.', query: 'Acqua Felice start' },
        { claim: 'The Acqua Felice is in Rome.' },
        { claim: 'The Acqua Felice has arches.', query: 'broken query' },
      ]),
      retriever,
      verifier: createNliVerifier({ nli }),
      embedder: createBagOfWordsEmbedder(),
    });
    expect(result?.status).toBe('ok');
    // The failed search (claim 3) is a failed claim, never a label; the response is still decided: a claim is hallucinated.
    expect(result?.claims.map((c) => c.verdict.label)).toEqual(['correct', 'hallucinated', 'unverifiable', undefined]);
    expect(result?.claims[3]?.verdict.status).toBe('failed');
    expect(result?.claims[0]?.evidence[0]).toMatchObject({ text: 'The Acqua Felice was completed in 1586.', origin: { documentId: 'doc-0', source: { url: 'https://example.org/0' } }, rank: 1 });
    // The chain's core types: claim ids, queries pointing back to their claim, the aligned sentence as the claim's source.
    expect(result?.claims[0]?.claim).toEqual({ id: 'q1:c0', text: 'The Acqua Felice was completed in 1586.', source: 'The Acqua Felice was completed in 1586.' });
    expect(result?.claims[0]?.query).toEqual({ text: 'Acqua Felice completion', claimId: 'q1:c0' });
    expect(result?.claims[2]?.query).toBeUndefined();
    expect(result?.claims[2]?.verdict.reason).toBe('no query');
    expect(result?.claims[3]?.verdict.reason).toMatch(/^search failed: search backend down/);
    expect(result?.claims[3]?.verdict.problems[0]?.code).toBe('search-failed');
    // Claims 2 and 3 share 4 of their words with sentence 0: cosine 4/sqrt(6*7) = 0.62 >= 0.5.
    expect(result?.claims.map((c) => c.sentenceIndex)).toEqual([0, 1, 0, 0]);
    // Sentence 0 holds the failed claim: undecided (shown unverifiable, marked incomplete), not "not-hallucinated".
    expect(result?.sentences.map((s) => s.label)).toEqual(['unverifiable', 'hallucinated']);
    expect(result?.sentences[0]?.incomplete).toBe(true);
    expect(result?.responseLabel).toBe('hallucinated');
    // FActScore-style factual precision: 1 supported of 2 verifiable claims; 1 unverifiable, 1 failed.
    expect(result?.mode).toBe('corpus');
    expect(result?.factualPrecision).toBe(0.5);
    expect(result?.claimCounts).toEqual({ supported: 1, hallucinated: 1, unverifiable: 1, failed: 1 });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('a failed verifier call never becomes a label', async () => {
    const broken: ClaimVerifier = {
      id: 'broken',
      verify: async () => {
        throw new Error('HTTP 500');
      },
    };
    const [result] = await detectHallucinations({
      items: [item],
      generator: fixedGenerator([{ claim: 'The Acqua Felice was completed in 1586.', query: 'Acqua Felice completion' }]),
      retriever,
      verifier: broken,
      embedder: createBagOfWordsEmbedder(),
    });
    expect(result?.status).toBe('failed');
    expect(result?.failedStage).toBe('verification');
    expect(result?.responseLabel).toBeUndefined();
    expect(result?.claims[0]?.verdict).toMatchObject({ status: 'failed' });
    expect(result?.sentences[0]?.incomplete).toBe(true);
    const evaluation = evaluateDetections(result ? [result] : [], new Map([['q1', { response: true, sentences: [false, true] }]]));
    expect(evaluation.response.nFailed).toBe(1);
    expect(evaluation.response.overall.n).toBe(0);
    expect(evaluation.sentence?.nFailed).toBe(1);
  });

  it('a failed generator call marks the item failed and the batch goes on', async () => {
    let calls = 0;
    const flaky: ClaimQueryGenerator = {
      id: 'flaky',
      async generate({ items }) {
        calls += 1;
        if (items[0]?.id === 'bad') throw new Error('429 Too Many Requests');
        return items.map((qa) => ({ status: 'ok' as const, pairs: pairsOf(qa.id, [{ claim: 'The Acqua Felice was completed in 1586.', query: 'Acqua Felice completion' }]), noClaims: false, problems: [] }));
      },
    };
    const results = await detectHallucinations({ items: [{ ...item, id: 'bad' }, item], generator: flaky, retriever, verifier: createNliVerifier({ nli }), embedder: createBagOfWordsEmbedder() });
    expect(calls).toBe(2);
    expect(results.map((r) => r.status)).toEqual(['failed', 'ok']);
    expect(results[0]?.problems[0]).toMatchObject({ code: 'call-failed', message: '429 Too Many Requests' });
    expect(results[1]?.responseLabel).toBe('not-hallucinated');
  });

  it('baselines: whole response as one claim, and query = claim', async () => {
    const whole = await detectHallucinations({ items: [item], generator: createWholeResponseGenerator(), retriever, verifier: createNliVerifier({ nli }) });
    expect(whole[0]?.claims).toHaveLength(1);
    expect(whole[0]?.claims[0]?.query?.text).toBe(item.answer);
    const noQ = await detectHallucinations({ items: [item], generator: withClaimsAsQueries(createDrafterGenerator()), retriever, verifier: createNliVerifier({ nli }) });
    for (const checked of noQ[0]?.claims ?? []) expect(checked.query).toEqual({ text: checked.claim.text, claimId: checked.claim.id });
    expect(noQ[0]?.claims.map((c) => c.sentenceIndex)).toEqual([0, 1]);
  });

  it('empty answers and bad options', async () => {
    const [empty] = await detectHallucinations({ items: [{ question: 'q', answer: '' }], generator: createDrafterGenerator(), retriever, verifier: createNliVerifier({ nli }) });
    expect(empty?.responseLabel).toBe('unverifiable');
    expect(empty?.problems.map((p) => p.code)).toContain('empty-answer');
    await expect(detectHallucinations({ items: [], generator: createDrafterGenerator(), retriever, verifier: createNliVerifier({ nli }), topK: 0 })).rejects.toThrow(/topK/);
  });

  it('factual precision is null (never 0) when no claim is verifiable; the run mean covers only responses with a value', async () => {
    const results = await detectHallucinations({
      items: [item, { id: 'q2', question: 'Where is it?', answer: 'The Acqua Felice is in Rome.' }, { id: 'q3', question: 'Who won?', answer: "I don't know." }],
      generator: {
        id: 'by-id',
        generate: async ({ items }) =>
          items.map((qa) => ({
            status: 'ok' as const,
            pairs: pairsOf(
              qa.id,
              qa.id === 'q1'
                ? [
                    { claim: 'The Acqua Felice was completed in 1586.', query: 'Acqua Felice completion' },
                    { claim: 'The Acqua Felice was started in 1550.', query: 'Acqua Felice start' },
                  ]
                : [{ claim: 'The Acqua Felice is in Rome.' }],
            ),
            noClaims: false,
            problems: [],
          })),
      },
      retriever,
      verifier: createNliVerifier({ nli }),
    });
    expect(results.map((r) => r.factualPrecision)).toEqual([0.5, null, null]);
    const summary = summarizeDetections(results);
    expect(summary.factualPrecision).toEqual({ mean: 0.5, responses: 1, without: 2 });
    expect(summary.labels).toEqual({ hallucinated: 1, 'not-hallucinated': 0, unverifiable: 1, abstained: 1 });
    expect(summarizeDetections([]).factualPrecision.mean).toBeNull();
  });

  it('an abstaining answer is labelled abstained without calling the generator, and left out of every rate', async () => {
    let calls = 0;
    const counting: ClaimQueryGenerator = {
      id: 'counting',
      generate: async (request) => {
        calls += 1;
        return createDrafterGenerator().generate(request);
      },
    };
    const results = await detectHallucinations({
      items: [
        { id: 'abstain', question: 'When was the Acqua Felice built?', answer: "I'm not sure. You may want to check an encyclopedia." },
        { id: 'hedged', question: 'When was the Acqua Felice built?', answer: "I don't know why anyone doubts it, but the Acqua Felice was completed in 1586." },
      ],
      generator: counting,
      retriever,
      verifier: createNliVerifier({ nli }),
    });
    expect(calls).toBe(1);
    expect(results[0]).toMatchObject({ status: 'ok', responseLabel: 'abstained', abstention: { sentence: "I'm not sure.", kind: 'abstention' }, factualPrecision: null, claims: [] });
    expect(results[1]?.responseLabel).not.toBe('abstained');
    const evaluation = evaluateDetections(
      results,
      new Map([
        ['abstain', { response: true }],
        ['hedged', { response: false }],
      ]),
    );
    expect(evaluation.nAbstained).toBe(1);
    expect(evaluation.response.overall.n).toBe(1);
    expect(evaluation.response.nFailed).toBe(0);
  });

  it('a refusal from the generator or the verifier is a failed item with the reason, never a claim or a label', async () => {
    const refusing: ClaimQueryGenerator = {
      id: 'refusing',
      // What a tolerant parser makes of a refusal: the refusal as a "claim". The raw reply gives it away.
      generate: async ({ items }) =>
        items.map((qa) => ({ status: 'ok' as const, pairs: pairsOf(qa.id, [{ claim: "I'm sorry, but I can't help with that.", query: 'help' }]), noClaims: false, problems: [], raw: ["I'm sorry, but I can't help with that."] })),
    };
    const [refused] = await detectHallucinations({ items: [item], generator: refusing, retriever, verifier: createNliVerifier({ nli }) });
    expect(refused).toMatchObject({ status: 'failed', failedStage: 'generation', claims: [], factualPrecision: null });
    expect(refused?.responseLabel).toBeUndefined();
    expect(refused?.problems.map((p) => p.code)).toContain('refusal');
    const judge: ClaimVerifier = {
      id: 'judge',
      verify: async ({ items }) => items.map(() => ({ status: 'ok' as const, label: 'unverifiable' as const, raw: ['As an AI language model, I cannot verify claims.'], verifier: 'judge', problems: [] })),
    };
    const [judged] = await detectHallucinations({
      items: [item],
      generator: fixedGenerator([{ claim: 'The Acqua Felice was completed in 1586.', query: 'Acqua Felice completion' }]),
      retriever,
      verifier: judge,
    });
    expect(judged).toMatchObject({ status: 'failed', failedStage: 'verification' });
    expect(judged?.claims[0]?.verdict).toMatchObject({ status: 'failed' });
    expect(judged?.claims[0]?.verdict.label).toBeUndefined();
    expect(judged?.claims[0]?.verdict.problems.map((p) => p.code)).toEqual(['refusal']);
    expect(summarizeDetections([refused!, judged!])).toMatchObject({ failed: 2, labels: { hallucinated: 0, 'not-hallucinated': 0, unverifiable: 0, abstained: 0 } });
  });

  it('rethrows an abort', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(detectHallucinations({ items: [item], generator: createDrafterGenerator(), retriever, verifier: createNliVerifier({ nli }), abortSignal: controller.signal })).rejects.toThrow('stop');
  });
});
