import { createMockEmbedder, createMockLanguageModel } from '@factkit/core/testing';
import { compareProblemCodes } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { expandQueries } from './expand-queries.js';
import { createHydeExpander } from './hyde-expander.js';
import { createMultiQueryExpander } from './multi-query-expander.js';
import type { ExpansionProblemCode } from './problem-codes.js';
import { createQuery2docExpander } from './query2doc-expander.js';

const claim = { id: 'c1', text: 'Aspirin lowers fever.' };

it('ExpansionProblemCode is exactly the codes the expanders and expandQueries emit (each provoked here)', async () => {
  // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
  const codes = {
    missing: true,
    empty: true,
    refusal: true,
    'wrong-language': true,
    'no-usable-generation': true,
    'extra-queries': true,
    'too-few-queries': true,
    'expansion-failed': true,
  } satisfies Record<ExpansionProblemCode, true>;
  const emitted = new Set<string>();
  const collect = (problems: readonly { readonly code: string }[] | undefined) => {
    for (const problem of problems ?? []) emitted.add(problem.code);
  };
  // Query2doc: a refusal, an empty and a wrong-language generation, then one missing completion.
  const flagged = createMockLanguageModel({ responses: ["I'm sorry, but I can't help with that.", '  ', '阿司匹林可以降低发烧。', 'Aspirin reduces fever.'] });
  collect((await createQuery2docExpander({ model: flagged, n: 4, repeats: 1 }).expand({ query: claim })).problems);
  const short = { id: 'short', generate: async () => ({ texts: ['Only one.'], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }) };
  collect((await createQuery2docExpander({ model: short, n: 2 }).expand({ query: claim })).problems);
  // HyDE with nothing usable falls back to the query.
  const refusing = createMockLanguageModel({ responses: ['I am unable to provide that.'] });
  collect((await createHydeExpander({ model: refusing, embedder: createMockEmbedder({ dimensions: 8 }) }).expand({ query: claim })).problems);
  // Multi-query: more, then fewer sub-queries than asked for.
  collect((await createMultiQueryExpander({ model: createMockLanguageModel({ responses: ['1. a\n2. b\n3. c\n4. d'] }), count: 3 }).expand({ query: claim })).problems);
  collect((await createMultiQueryExpander({ model: createMockLanguageModel({ responses: ['1. only one'] }), count: 3 }).expand({ query: claim })).problems);
  // A batch item whose expansion throws.
  const failing = createMockLanguageModel({
    responses: () => {
      throw new Error('provider exploded');
    },
  });
  const { outcomes } = await expandQueries(createQuery2docExpander({ model: failing }), [claim]);
  for (const outcome of outcomes) if (outcome.status === 'failed') collect(outcome.problems);
  expect(compareProblemCodes(codes, emitted)).toEqual({ outside: [], notEmitted: [] });
});
