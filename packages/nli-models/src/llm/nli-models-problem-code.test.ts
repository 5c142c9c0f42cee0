import type { GenerateRequest } from '@factkit/core';
import { compareProblemCodes } from '@factkit/test-utils';
import { expect, it } from 'vitest';
import { type NliModelsProblemCode, createLlmNliJudge } from './llm-nli-judge.js';

it('NliModelsProblemCode is exactly the codes the LLM judge emits (each provoked here but parse-failed)', async () => {
  // Compile-time: a key per code of the union and no other (a missing or extra code fails typecheck).
  const codes = {
    'call-failed': true,
    'missing-reply': true,
    'invalid-input': true,
    'parse-failed': true,
    'empty-reply': true,
    'no-label': true,
    'ambiguous-label': true,
  } satisfies Record<NliModelsProblemCode, true>;
  // A scripted model answering by hypothesis: a failure, no reply at all, a blank, an unknown word, two labels.
  const replies: Record<string, string[] | Error> = { a: new Error('server down'), b: [], c: ['   '], d: ['banana'], e: ['entailment or neutral'], f: ['neutral'] };
  const model = {
    id: 'scripted',
    async generate(request: GenerateRequest) {
      const reply = replies[(request.prompt ?? '').match(/S2: (\w)/)?.[1] ?? ''];
      if (reply instanceof Error) throw reply;
      return { texts: reply ?? [], usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
    },
  };
  // And a premise (from untyped input) that cannot become prompt text: the prompt is never rendered, no call is made.
  const unprintable = { premise: Object.create(null) as string, hypothesis: 'g' };
  const pairs = [...Object.keys(replies).map((hypothesis) => ({ premise: 'p', hypothesis })), unprintable];
  const { results } = await createLlmNliJudge({ model }).classify({ pairs });
  expect(results.map((result) => result.label)).toEqual([null, null, null, null, null, 'neutral', null]);
  const emitted = new Set(results.flatMap((result) => result.problems.map((problem) => problem.code)));
  // Core's step reports `parse-failed` only for a parser that throws or returns no outcome; `parseLabel` does neither.
  expect(compareProblemCodes(codes, emitted)).toEqual({ outside: [], notEmitted: ['parse-failed'] });
});
