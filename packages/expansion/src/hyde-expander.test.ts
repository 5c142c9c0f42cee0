import { CorruptDataError, createMemoryCache, InvalidArgumentError, withCache, type Embedder, type EmbedRequest } from '@factkit/core';
import { createMockEmbedder, createMockLanguageModel } from '@factkit/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combineHydeVectors, createHydeExpander } from './hyde-expander.js';
import { HYDE_PROMPTS } from './prompts.js';

/** An embedder with a fixed table of vectors, so expected means can be computed by hand. */
function tableEmbedder(table: Record<string, number[]>): Embedder & { calls: EmbedRequest[] } {
  const calls: EmbedRequest[] = [];
  return {
    id: 'table',
    dimensions: 2,
    calls,
    async embed(request) {
      calls.push(request);
      return { embeddings: request.texts.map((text) => Float32Array.from(table[text] ?? [0, 0])) };
    },
  };
}

const claim = { id: 's1', text: 'q' };

describe('createHydeExpander', () => {
  it('averages embed(q) and embed(d) (Equation 2, N = 1) and records provenance', async () => {
    const model = createMockLanguageModel({ responses: ['d1'] });
    const embedder = tableEmbedder({ q: [1, 0], d1: [0, 1] });
    const expanded = await createHydeExpander({ model, embedder, prompt: HYDE_PROMPTS.scifact }).expand({ query: claim });
    expect(Array.from(expanded.vector ?? [])).toEqual([0.5, 0.5]);
    expect(expanded.text).toBe('q');
    expect(expanded.generations).toEqual(['d1']);
    expect(expanded.provenance).toMatchObject({
      step: 'hyde', // GenerationProvenance: `step` replaces `method`
      provider: 'mock',
      cached: false,
      prompts: ['Please write a scientific paper passage to support/refute the claim.\nClaim: q\nPassage:'],
      sampling: { temperature: 0.7, topP: 1, maxTokens: 512, n: 1, seed: 0 },
    });
    expect(embedder.calls.map((call) => [call.kind, call.texts])).toEqual(
      expect.arrayContaining([
        ['query', ['q']],
        ['passage', ['d1']],
      ]),
    );
  });

  it('with N = 3 the query is one of N + 1 equally weighted vectors', async () => {
    const model = createMockLanguageModel({ responses: ['a', 'b', 'c'] });
    const embedder = tableEmbedder({ q: [4, 0], a: [0, 4], b: [0, 0], c: [4, 4] });
    const expanded = await createHydeExpander({ model, embedder, n: 3 }).expand({ query: claim });
    expect(Array.from(expanded.vector ?? [])).toEqual([2, 2]); // (4+0+0+4)/4, (0+4+0+4)/4
    expect(model.calls[0]?.n).toBe(3);
  });

  it('leaves the query out or weights it', async () => {
    const model = createMockLanguageModel({ responses: ['d1'] });
    const embedder = tableEmbedder({ q: [1, 0], d1: [0, 1] });
    const without = await createHydeExpander({ model, embedder, includeQuery: false }).expand({ query: claim });
    expect(Array.from(without.vector ?? [])).toEqual([0, 1]);
    expect(embedder.calls.some((call) => call.kind === 'query')).toBe(false);
    const weighted = await createHydeExpander({ model, embedder, queryWeight: 3 }).expand({ query: claim });
    expect(Array.from(weighted.vector ?? [])).toEqual([0.75, 0.25]);
    const normalized = await createHydeExpander({ model, embedder, normalize: true }).expand({ query: claim });
    expect(normalized.vector?.[0]).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('leaves flagged generations out of the mean and records them', async () => {
    const model = createMockLanguageModel({ responses: ['d1', "I'm sorry, but I cannot help with that.", ''] });
    const embedder = tableEmbedder({ q: [1, 0], d1: [0, 1] });
    const expanded = await createHydeExpander({ model, embedder, n: 3 }).expand({ query: claim });
    expect(Array.from(expanded.vector ?? [])).toEqual([0.5, 0.5]);
    expect(expanded.problems?.map((problem) => [problem.index, problem.code])).toEqual([
      [1, 'refusal'],
      [2, 'empty'],
    ]);
  });

  it('uses the query alone when no generation is usable, even without includeQuery', async () => {
    const model = createMockLanguageModel({ responses: [''] });
    const embedder = tableEmbedder({ q: [1, 0] });
    const expanded = await createHydeExpander({ model, embedder, includeQuery: false }).expand({ query: claim });
    expect(Array.from(expanded.vector ?? [])).toEqual([1, 0]);
    expect(expanded.problems?.map((problem) => problem.code)).toEqual(['empty', 'no-usable-generation']);
  });

  it('matches a direct mean of the mock embedder vectors', async () => {
    const model = createMockLanguageModel({ responses: ['Aspirin is an antipyretic.', 'Fever responds to NSAIDs.'] });
    const embedder = createMockEmbedder({ dimensions: 32 });
    const query = { text: 'Aspirin lowers fever.' };
    const expanded = await createHydeExpander({ model, embedder, n: 2 }).expand({ query });
    const {
      embeddings: [q],
    } = await embedder.embed({ texts: [query.text], kind: 'query' });
    const { embeddings: docs } = await embedder.embed({ texts: ['Aspirin is an antipyretic.', 'Fever responds to NSAIDs.'], kind: 'passage' });
    const expected = Array.from(q as Float32Array, (value, i) => (value + (docs[0]?.[i] ?? 0) + (docs[1]?.[i] ?? 0)) / 3);
    Array.from(expanded.vector ?? []).forEach((value, i) => expect(value).toBeCloseTo(expected[i] as number, 6));
  });

  it('caches repeated samples apart', async () => {
    const model = createMockLanguageModel({ responses: (request) => `doc for seed ${request.seed}` });
    const embedder = tableEmbedder({});
    const expander = createHydeExpander({ model: withCache(model, createMemoryCache()), embedder });
    for (const sample of [0, 1, 0, 1, 2]) await expander.expand({ query: claim, sample });
    expect(model.calls.map((call) => call.seed)).toEqual([0, 1, 2]);
  });

  it('reports an embedder that returns bad vectors as CorruptDataError', async () => {
    const model = createMockLanguageModel({ responses: ['d'] });
    const broken: Embedder = { id: 'broken', dimensions: 2, embed: async () => ({ embeddings: [Float32Array.from([1, Number.NaN])] }) };
    await expect(createHydeExpander({ model, embedder: broken }).expand({ query: claim })).rejects.toSatisfy(CorruptDataError.isInstance);
  });

  it('validates options', () => {
    const model = createMockLanguageModel();
    const embedder = createMockEmbedder();
    expect(() => createHydeExpander({ model, embedder: undefined as never })).toThrow(/embedder/);
    expect(() => createHydeExpander({ model, embedder, queryWeight: -1 })).toThrow(/queryWeight/);
    expect(() => createHydeExpander({ model, embedder, prompt: HYDE_PROMPTS['mr-tydi'] })).toThrow(/language/);
    expect(() => createHydeExpander({ model, embedder, n: 0 })).toThrow(InvalidArgumentError);
  });
});

describe('combineHydeVectors', () => {
  it('equals (w·q + Σd) / (w + N) for random vectors (property)', () => {
    const vec = fc.array(fc.float({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(vec, fc.array(vec, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 4 }), (q, docs, weight) => {
        const out = combineHydeVectors(
          Float32Array.from(q),
          docs.map((d) => Float32Array.from(d)),
          { queryWeight: weight },
        );
        for (let i = 0; i < 3; i += 1) {
          const expected = (weight * Math.fround(q[i] as number) + docs.reduce((sum, d) => sum + Math.fround(d[i] as number), 0)) / (weight + docs.length);
          expect(out[i]).toBeCloseTo(expected, 4);
        }
      }),
    );
  });

  it('rejects mismatched dimensions and an empty mean', () => {
    expect(() => combineHydeVectors(Float32Array.from([1, 2]), [Float32Array.from([1])])).toThrow(/dimensions/);
    expect(() => combineHydeVectors(undefined, [])).toThrow(InvalidArgumentError);
  });
});
