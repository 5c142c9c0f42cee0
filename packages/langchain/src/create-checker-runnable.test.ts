import { createDrafterGenerator, createNliVerifier, detectHallucinations } from '@factkit/claim-query';
import type { Document as FactkitDocument, NliPair } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { createMockNliModel } from '@factkit/core/testing';
import { createBm25Retriever } from '@factkit/retrieval';
import { describe, expect, it } from 'vitest';
import { createCheckerRunnable } from './create-checker-runnable.js';

const corpus: FactkitDocument[] = [
  { id: 'hamlet', title: 'Hamlet', text: 'Hamlet is a tragedy written by William Shakespeare around 1600.' },
  { id: 'faustus', title: 'Doctor Faustus', text: 'Doctor Faustus is a play by Christopher Marlowe.' },
];
// A hand-written judge: contradiction when the claim credits Hamlet to Marlowe against a Shakespeare premise, else
// entailment when every claim word is in the premise, else neutral.
const nli = createMockNliModel({
  label: (pair: NliPair) => {
    if (/Hamlet/.test(pair.hypothesis) && /Marlowe/.test(pair.hypothesis) && /Shakespeare/.test(pair.premise)) return 'contradiction';
    const words = new Set(pair.premise.toLowerCase().match(/[a-z0-9]+/g));
    return (pair.hypothesis.toLowerCase().match(/[a-z0-9]+/g) ?? []).every((word) => words.has(word)) ? 'entailment' : 'neutral';
  },
});
const components = { generator: createDrafterGenerator(), retriever: createBm25Retriever(corpus), verifier: createNliVerifier({ nli, topSnippets: 2 }), topK: 2 };

describe('createCheckerRunnable', () => {
  it('labels a wrong answer hallucinated and a right one not, as the checker itself does', async () => {
    const check = createCheckerRunnable(components);
    const wrong = { id: 'q1', question: 'Who wrote Hamlet?', answer: 'Hamlet was written by Christopher Marlowe.' };
    const right = { id: 'q2', question: 'Who wrote Hamlet?', answer: 'Hamlet is a tragedy written by William Shakespeare.' };
    const [wrongResult, rightResult] = await check.batch([wrong, right]);
    expect(wrongResult?.status).toBe('ok');
    expect(wrongResult?.responseLabel).toBe('hallucinated');
    expect(rightResult?.responseLabel).toBe('not-hallucinated');
    // The runnable adds nothing and drops nothing: the same result as calling the checker directly.
    const direct = await detectHallucinations({ ...components, items: [wrong] });
    expect(await check.invoke(wrong)).toEqual(direct[0]);
    expect(wrongResult?.claims[0]?.evidence?.[0]?.origin.documentId).toBe('hamlet');
  });

  it("stops on LangChain's config.signal with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the chain');
    controller.abort(reason);
    await expect(createCheckerRunnable(components).invoke({ question: 'Who wrote Hamlet?', answer: 'Marlowe.' }, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('fails when built without a generator, retriever or verifier, and on a non-object input', async () => {
    expect(() => createCheckerRunnable({ ...components, verifier: undefined as never })).toThrow(InvalidArgumentError);
    expect(() => createCheckerRunnable({ ...components, retriever: {} as never })).toThrow(/argument "retriever"/);
    await expect(createCheckerRunnable(components).invoke('Hamlet' as never)).rejects.toThrow(/argument "input"/);
  });
});
