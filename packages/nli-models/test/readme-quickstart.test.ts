import { expect, it } from 'vitest';
import { createLexicalNliModel } from '../src/index.js';

it('README quick start runs as written', async () => {
  const nli = createLexicalNliModel();
  const { results } = await nli.classify({
    pairs: [
      { premise: 'Paris is the capital of France.', hypothesis: 'Paris is the capital of France.' },
      { premise: 'Paris is the capital of France.', hypothesis: 'Paris is not the capital of France.' },
    ],
  });
  expect(results.map((result) => result.label)).toEqual(['entailment', 'contradiction']);
});
