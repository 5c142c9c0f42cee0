import type { QueryExpander } from '@factkit/core';
import { createMockLanguageModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { expandQueries } from './expand-queries.js';
import { createQuery2docExpander } from './query2doc-expander.js';

describe('expandQueries', () => {
  it('expands every query R times with seeds 0..R-1 and keeps finished work when one item fails', async () => {
    const model = createMockLanguageModel({
      responses: (request) => {
        if (request.prompt?.includes('boom')) throw new Error('provider exploded');
        return `passage ${request.seed}`;
      },
    });
    const expander = createQuery2docExpander({ model, repeats: 1 });
    const progress: Array<[number, number | undefined]> = [];
    const result = await expandQueries(expander, [{ id: 'a', text: 'first claim' }, { id: 'b', text: 'boom claim' }, { text: 'third claim' }], {
      samples: 2,
      concurrency: 2,
      onProgress: ({ completed, failed }) => progress.push([completed, failed]),
    });
    expect(result.outcomes.map((outcome) => [outcome.queryIndex, outcome.sample, outcome.status === 'ok' ? outcome.value.text : outcome.status])).toEqual([
      [0, 0, 'first claim passage 0'],
      [0, 1, 'first claim passage 1'],
      [1, 0, 'failed'],
      [1, 1, 'failed'],
      [2, 0, 'third claim passage 0'],
      [2, 1, 'third claim passage 1'],
    ]);
    expect(result.outcomes.flatMap((outcome) => (outcome.status === 'failed' ? outcome.problems : []))).toEqual([
      { index: 1, id: 'b', code: 'expansion-failed', message: 'sample 0: provider exploded' },
      { index: 1, id: 'b', code: 'expansion-failed', message: 'sample 1: provider exploded' },
    ]);
    expect(progress.map(([completed]) => completed)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.at(-1)?.[1]).toBe(2);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('user stopped');
    const expander: QueryExpander = {
      id: 'stopper',
      usesLanguageModel: false,
      async expand({ query }) {
        controller.abort(reason);
        return { text: query.text, original: query, generations: [] };
      },
    };
    await expect(expandQueries(expander, [{ text: 'a' }, { text: 'b' }], { abortSignal: controller.signal, concurrency: 1 })).rejects.toBe(reason);
  });

  it('validates samples', async () => {
    const expander = createQuery2docExpander({ model: createMockLanguageModel() });
    await expect(expandQueries(expander, [], { samples: 0 })).rejects.toMatchObject({ argument: 'samples' });
  });
});
