import type { GenerateRequest, ItemOutcome, LanguageModel } from '@factkit/core';
import { createMockLanguageModel } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { extractQueryKeywordsWithModel } from '../keywords/query-keywords-with-model.js';
import { annotateChunksWithModel, annotateChunksWithText2Text, splitGeneratedQuestions } from './annotate-with-model.js';

const chunk = (id: string, text: string) => ({ id, documentId: id, text, ordinal: 0, start: 0, end: text.length });
const chunks = [chunk('a', 'ALPHA Aspirin lowers fever.'), chunk('b', 'BRAVO Statins lower cholesterol.'), chunk('c', 'CHARLIE Vitamin D.')];
const values = <T>(outcomes: readonly ItemOutcome<T>[]): T[] => outcomes.flatMap((outcome) => (outcome.status === 'ok' ? [outcome.value] : []));
const failures = <T>(outcomes: readonly ItemOutcome<T>[]) => outcomes.flatMap((outcome) => (outcome.status === 'failed' ? [outcome] : []));
const promptOf = (request: GenerateRequest) => request.prompt ?? request.messages?.map((m) => m.content).join('\n') ?? '';

describe('annotateChunksWithModel', () => {
  it('makes one call per chunk with the exported prompt and keeps provenance, problems and failures apart', async () => {
    const model: LanguageModel & { calls: GenerateRequest[] } = createMockLanguageModel({
      responses: (request) => {
        const prompt = promptOf(request);
        if (prompt.includes('ALPHA')) return '{"title":"Aspirin lowers fever.","questions":["Does aspirin lower fever?","Why?","How?"]}';
        if (prompt.includes('BRAVO')) return '1. Do statins lower cholesterol?';
        throw new Error('HTTP 503 from the mock');
      },
    });
    const progress: Array<{ completed: number; failed: number | undefined }> = [];
    const result = await annotateChunksWithModel(chunks, { model, concurrency: 2, onProgress: ({ completed, failed }) => progress.push({ completed, failed }) });
    const items = values(result.outcomes);
    expect(model.calls).toHaveLength(3);
    expect(promptOf(model.calls[0]!)).toContain('3 different questions');
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(['ok', 'ok', 'failed']);
    expect(items.map((item) => item.chunk.id)).toEqual(['a', 'b']);
    expect(items[0]).toMatchObject({ title: 'Aspirin lowers fever.', titleSource: 'model', method: 'chunk-knowledge.annotate', problems: [] });
    expect(items[0]!.provenance[0]).toMatchObject({ step: 'chunk-knowledge.annotate', modelId: 'mock:language-model', sampling: { temperature: 0 } });
    expect(items[1]).toMatchObject({ title: 'BRAVO Statins lower cholesterol.', titleSource: 'fallback', questions: ['Do statins lower cholesterol?'] });
    expect(items[1]!.problems.map((p) => p.code)).toEqual(['missing-title', 'count-mismatch', 'title-fallback']);
    expect(failures(result.outcomes)).toMatchObject([{ status: 'failed', problems: [{ index: 2, id: 'c', code: 'call-failed' }] }]);
    expect('raw' in result.outcomes[2]!).toBe(false);
    expect(progress.at(-1)).toEqual({ completed: 3, failed: 1 });
  });

  it('treats refusals and empty replies as failed, and respects questionCount and titleFallback none', async () => {
    const model = createMockLanguageModel({ responses: ["I'm sorry, I cannot help with that.", '   ', '{"title":"T.","questions":["a?","b?"]}'] });
    const result = await annotateChunksWithModel(chunks, { model, concurrency: 1, questionCount: 2, titleFallback: 'none' });
    const items = values(result.outcomes);
    expect(failures(result.outcomes).map((f) => [f.problems[0]?.id, f.problems[0]?.code, f.raw])).toEqual([
      ['a', 'refusal', "I'm sorry, I cannot help with that."],
      ['b', 'empty-reply', '   '],
    ]);
    expect(items[0]).toMatchObject({ title: 'T.', questions: ['a?', 'b?'], problems: [] });
    await expect(annotateChunksWithModel(chunks, { model, questionCount: 0 })).rejects.toThrow(/"questionCount"/);
  });
});

describe('annotateChunksWithText2Text', () => {
  it('runs the title and question tasks with their prefixes and merges them into the same contract', async () => {
    const model = createMockLanguageModel({
      responses: (request) => (promptOf(request).startsWith('title: ') ? 'Aspirin and fever' : 'does aspirin lower fever? who takes aspirin <sep> why aspirin?'),
    });
    const result = await annotateChunksWithText2Text(chunks.slice(0, 1), { model });
    const items = values(result.outcomes);
    expect(model.calls.map((call) => promptOf(call))).toEqual(['title: ALPHA Aspirin lowers fever.', 'questions: ALPHA Aspirin lowers fever.']);
    expect(items[0]).toMatchObject({ title: 'Aspirin and fever', questions: ['does aspirin lower fever?', 'who takes aspirin?', 'why aspirin?'], method: 'chunk-knowledge.text2text', problems: [] });
    expect(items[0]!.provenance).toHaveLength(2);
    expect(splitGeneratedQuestions('1. a?\n2. b? c')).toEqual(['a?', 'b?', 'c']);
  });
});

describe('extractQueryKeywordsWithModel', () => {
  it('locates model keywords as spans and BIO tags, reporting invented ones', async () => {
    const model = createMockLanguageModel({ responses: ['aspirin\nhigh fever\nibuprofen'] });
    const { outcomes } = await extractQueryKeywordsWithModel(['Does aspirin reduce high fever?'], { model });
    expect(failures(outcomes)).toEqual([]);
    const items = values(outcomes);
    expect(items[0]!.spans.map((s) => s.text)).toEqual(['aspirin', 'high fever']);
    expect(items[0]!.tokens.map((t) => t.tag)).toEqual(['O', 'KB', 'O', 'KB', 'KI']);
    expect(items[0]!.problems.map((p) => p.code)).toEqual(['keyword-not-in-query']);
    expect(items[0]!.provenance.step).toBe('chunk-knowledge.query-keywords');
  });
});
