import type { Evidence, Query } from '@factkit/core';
import { createMockLanguageModel, createMockRetriever } from '@factkit/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMultiQueryExpander, getSubQueries, parseSubQueries, retrieveWithSubQueries } from './multi-query-expander.js';

describe('parseSubQueries', () => {
  it('reads numbered, bulleted and plain lists and drops preambles and duplicates', () => {
    const raw = 'Here are 3 alternative versions:\n1. What lowers fever?\n2) Does aspirin reduce temperature?\n- **Is aspirin an antipyretic?**\n- What lowers fever?';
    expect(parseSubQueries(raw, { count: 3 })).toEqual({
      queries: ['What lowers fever?', 'Does aspirin reduce temperature?', 'Is aspirin an antipyretic?'],
      problems: [],
    });
    expect(parseSubQueries('a\n\nb\nc\nd', { count: 3 }).problems.map((problem) => problem.code)).toEqual(['extra-queries']);
    expect(parseSubQueries('only one', { count: 3 }).problems.map((problem) => problem.code)).toEqual(['too-few-queries']);
    expect(parseSubQueries('', { count: 3 }).problems.map((problem) => problem.code)).toEqual(['empty']);
    expect(parseSubQueries('Same as original\nother', { count: 2, original: 'same as ORIGINAL' }).queries).toEqual(['other']);
  });

  it('strips **1.**, (1) and 1 - markers and never keeps a closing remark as a sub-query', () => {
    const raw = '**1.** aspirin fever\n(2) antipyretic drugs\n3 - NSAID temperature\n\nHope this helps! Let me know if you need more.';
    expect(parseSubQueries(raw, { count: 3 })).toEqual({ queries: ['aspirin fever', 'antipyretic drugs', 'NSAID temperature'], problems: [] });
  });

  it('reads only the typed subQueries (metadata.subQueries is user data, not a fallback)', () => {
    const userData: Query = { text: 'q', metadata: { subQueries: ['a', 'b'] } };
    expect(getSubQueries(userData)).toEqual(['q']);
    expect(getSubQueries({ text: 'q', subQueries: ['c', ' '] })).toEqual(['c']);
    expect(getSubQueries({ text: 'q' })).toEqual(['q']);
  });

  it('never throws and keeps at most count queries (fuzz)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.anything()), fc.integer({ min: 1, max: 6 }), (raw, count) => {
        const parsed = parseSubQueries(raw, { count });
        expect(parsed.queries.length).toBeLessThanOrEqual(count);
        for (const query of parsed.queries) expect(query.trim().length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('createMultiQueryExpander', () => {
  it('asks for count rewrites and keeps the original query first', async () => {
    const model = createMockLanguageModel({ responses: ['1. aspirin fever\n2. antipyretic drugs'] });
    const expanded = await createMultiQueryExpander({ model, count: 2 }).expand({ query: { id: 'c', text: 'Aspirin lowers fever.' }, sample: 3 });
    expect(getSubQueries(expanded)).toEqual(['Aspirin lowers fever.', 'aspirin fever', 'antipyretic drugs']);
    // Sub-queries travel in the typed Query.subQueries channel (they were metadata.subQueries).
    expect(expanded.subQueries).toEqual(['Aspirin lowers fever.', 'aspirin fever', 'antipyretic drugs']);
    expect(expanded.metadata?.['subQueries']).toBeUndefined();
    expect(expanded.provenance).toMatchObject({ step: 'multi-query', modelId: 'mock:language-model', cached: false });
    expect(expanded.generations).toEqual(['aspirin fever', 'antipyretic drugs']);
    expect(expanded.rawReplies).toEqual(['1. aspirin fever\n2. antipyretic drugs']);
    expect(expanded.metadata).toBeUndefined();
    expect(expanded.provenance!.prompts?.[0]).toContain('generate 2 different versions');
    expect(expanded.provenance!.prompts?.[0]).toContain('Original question: Aspirin lowers fever.');
    expect(expanded.provenance!.sampling?.seed).toBe(3);
    expect(expanded.problems).toBeUndefined();
  });

  it('records a refusal and falls back to the original query', async () => {
    const model = createMockLanguageModel({ responses: ["I'm sorry, I can't help with that."] });
    const expanded = await createMultiQueryExpander({ model, includeOriginal: false }).expand({ query: { text: 'x y z' } });
    expect(getSubQueries(expanded)).toEqual(['x y z']);
    expect(expanded.generations).toEqual([]);
    expect(expanded.problems?.[0]?.code).toBe('refusal');
    expect(expanded.problems?.[0]?.raw).toBe("I'm sorry, I can't help with that.");
  });
});

describe('retrieveWithSubQueries', () => {
  it('retrieves every sub-query and hands the rankings to the injected fusion', async () => {
    const retriever = createMockRetriever([
      { id: 'd1', text: 'aspirin fever' },
      { id: 'd2', text: 'antipyretic drugs' },
    ]);
    const model = createMockLanguageModel({ responses: ['antipyretic drugs'] });
    const expanded = await createMultiQueryExpander({ model, count: 1 }).expand({ query: { text: 'aspirin fever' } });
    const seen: string[][] = [];
    const fused = await retrieveWithSubQueries(expanded, {
      retriever,
      topK: 5,
      fuse: (rankings: readonly (readonly Evidence[])[]) => {
        seen.push(...rankings.map((ranking) => ranking.map((evidence) => evidence.documentId)));
        return rankings.flat();
      },
    });
    expect(retriever.calls.map((call) => call.query.text)).toEqual(['aspirin fever', 'antipyretic drugs']);
    expect(seen).toEqual([['d1'], ['d2']]);
    expect(fused.map((evidence) => evidence.documentId)).toEqual(['d1', 'd2']);
  });

  it('rethrows the abort reason and validates its options', async () => {
    const retriever = createMockRetriever([]);
    const controller = new AbortController();
    const reason = new Error('aborted by test');
    controller.abort(reason);
    const expanded = { text: 'x', original: { text: 'x' }, generations: [], provenance: { method: 'none' } };
    await expect(retrieveWithSubQueries(expanded, { retriever, fuse: (r) => r.flat(), abortSignal: controller.signal })).rejects.toBe(reason);
    await expect(retrieveWithSubQueries(expanded, { retriever, fuse: undefined as never })).rejects.toMatchObject({ argument: 'fuse' });
  });
});
