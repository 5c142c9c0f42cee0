import { expect, it } from 'vitest';
import { createLexicalNliModel } from '@factkit/nli-models';
import { matchGenerationToEvidence } from '../src/index.js';

it('README quick start runs as written', async () => {
  const result = await matchGenerationToEvidence({
    claim: 'Fox 2000 Pictures released the film Soul Food.',
    generation: 'Fox 2000 Pictures released the film Soul Food. Soul Food is a 1997 film released by Fox 2000 Pictures.',
    evidence: ['Soul Food is a 1997 American comedy-drama film released by Fox 2000 Pictures.'],
    nli: createLexicalNliModel(),
  });
  expect(result.matched).toBe(true);
  expect(result.removedSentences.map((sentence) => sentence.text)).toEqual(['Fox 2000 Pictures released the film Soul Food.']);
  expect(result.entailingPairs.map((pair) => pair.sentence)).toEqual(['Soul Food is a 1997 film released by Fox 2000 Pictures.']);
});
