import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ItemProblem } from './query.js';
import type { Reranker, RerankResult } from './reranker.js';
import type { Retriever, RetrieveResult } from './retriever.js';
import { createMockRetriever } from './testing/index.js';

type Code = 'empty-query' | 'no-results';

describe('Retriever<Code> / Reranker<Code>', () => {
  it('type the problems of their results with the code union (checked by tsc)', () => {
    expectTypeOf<NonNullable<RetrieveResult<Code>['problems']>[number]['code']>().toEqualTypeOf<Code>();
    expectTypeOf<NonNullable<RerankResult<Code>['problems']>[number]['code']>().toEqualTypeOf<Code>();
    expectTypeOf<Awaited<ReturnType<Retriever<Code>['retrieve']>>>().toEqualTypeOf<RetrieveResult<Code>>();
    expectTypeOf<Awaited<ReturnType<Reranker<Code>['rerank']>>>().toEqualTypeOf<RerankResult<Code>>();
    // The default keeps plain strings, and a typed retriever or reranker is still a plain one.
    expectTypeOf<NonNullable<RetrieveResult['problems']>[number]['code']>().toEqualTypeOf<string>();
    expectTypeOf<Retriever<Code>>().toMatchTypeOf<Retriever>();
    expectTypeOf<Reranker<Code>>().toMatchTypeOf<Reranker>();
  });

  it('a retriever that reports a code outside its union does not compile', async () => {
    const typed: Retriever<Code> = {
      id: 'typed',
      // @ts-expect-error 'index-offline' is not a member of Code
      retrieve: async () => ({ evidence: [], problems: [{ code: 'index-offline', message: 'm' }] }),
    };
    const plain: Retriever = { id: 'plain', retrieve: async () => ({ evidence: [], problems: [{ code: 'index-offline', message: 'm' }] }) };
    expect((await typed.retrieve({ query: { text: 'q' } })).problems).toEqual((await plain.retrieve({ query: { text: 'q' } })).problems);
  });

  it("core's mock retriever declares its code", async () => {
    const result = await createMockRetriever([{ id: 'd', text: 'aspirin' }]).retrieve({ query: { text: ' ' } });
    expectTypeOf(result.problems).toEqualTypeOf<readonly ItemProblem<'no-searchable-terms'>[] | undefined>();
    expect(result.problems?.map((problem) => problem.code)).toEqual(['no-searchable-terms']);
  });
});
