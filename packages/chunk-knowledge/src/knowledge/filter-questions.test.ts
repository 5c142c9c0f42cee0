import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { filterQuestionsByRelevance, percentileOf } from './filter-questions.js';
import type { AnnotatedChunk } from './types.js';

function annotated(id: string, text: string, questions: string[]): AnnotatedChunk {
  return { chunk: { id, documentId: id, text, ordinal: 0, start: 0, end: text.length }, title: '', questions, titleSource: 'model', method: 'test', problems: [] };
}

const items = [
  annotated('a', 'Aspirin lowers fever in adults and children.', ['Does aspirin lower fever?', 'What is the capital of France?', 'Does aspirin help children?']),
  annotated('b', 'Statins reduce cholesterol.', ['Do statins reduce cholesterol?', 'Who won the 1998 world cup?']),
];

describe('percentileOf', () => {
  it('interpolates between closest ranks (hand-checked)', () => {
    expect(percentileOf([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentileOf([1, 2, 3, 4, 5], 25)).toBe(2);
    expect(percentileOf([0, 10], 30)).toBe(3);
    expect(percentileOf([], 30)).toBeNaN();
  });
});

describe('filterQuestionsByRelevance (Doc2Query--)', () => {
  it('drops the off-topic questions by BM25 and reports each with its score', async () => {
    const result = await filterQuestionsByRelevance(items, { percentile: 40 });
    expect(result.dropped.map((d) => d.question).sort()).toEqual(['What is the capital of France?', 'Who won the 1998 world cup?']);
    expect(result.dropped.every((d) => d.score === 0)).toBe(true);
    expect(result.droppedCount).toBe(2);
    expect(result.keptCount).toBe(3);
    expect(result.items[0]!.questions).toEqual(['Does aspirin lower fever?', 'Does aspirin help children?']);
    expect(result.items[0]!.chunk).toBe(items[0]!.chunk);
  });

  it('keeps everything at percentile 0 and scores by embedding similarity on request', async () => {
    expect((await filterQuestionsByRelevance(items, { percentile: 0 })).droppedCount).toBe(0);
    const embedded = await filterQuestionsByRelevance(items, { scorer: { embedder: createMockEmbedder({ dimensions: 256 }) }, percentile: 40 });
    expect(embedded.droppedCount).toBe(2);
    expect(embedded.dropped.map((d) => d.question).sort()).toEqual(['What is the capital of France?', 'Who won the 1998 world cup?']);
    await expect(filterQuestionsByRelevance(items, { percentile: 101 })).rejects.toThrow(/"percentile"/);
  });
});
