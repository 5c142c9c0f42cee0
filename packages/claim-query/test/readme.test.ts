import { createMockNliModel, createMockRetriever } from '@factkit/core/testing';
import { expect, it } from 'vitest';
import { createDrafterGenerator, createNliVerifier, detectHallucinations } from '../src/index.js';

it('README quick start runs on the mocks', async () => {
  const retriever = createMockRetriever([{ id: 'd1', text: 'The Acqua Felice aqueduct was completed in 1586.' }]);
  const [result] = await detectHallucinations({
    items: [{ question: 'When was the Acqua Felice completed?', answer: 'The Acqua Felice aqueduct was completed in 1586.' }],
    generator: createDrafterGenerator(),
    retriever,
    verifier: createNliVerifier({ nli: createMockNliModel() }),
  });
  expect(result?.responseLabel).toBe('not-hallucinated');
  expect(result?.claims[0]?.evidence[0]?.origin.documentId).toBe('d1');
});

it('README reference example runs on the mocks: no retriever, mode reference, factual precision 1', async () => {
  const [checked] = await detectHallucinations({
    items: [{ question: 'When was the Acqua Felice completed?', answer: 'The Acqua Felice aqueduct was completed in 1586.', reference: 'The aqueduct was begun in 1585. The Acqua Felice aqueduct was completed in 1586.' }],
    generator: createDrafterGenerator(),
    verifier: createNliVerifier({ nli: createMockNliModel() }),
  });
  expect(checked?.mode).toBe('reference');
  expect(checked?.factualPrecision).toBe(1);
});
