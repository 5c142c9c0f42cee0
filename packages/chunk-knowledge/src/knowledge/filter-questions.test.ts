import type { RetrieverFactory } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { createBm25RetrieverFactory, createDenseRetrieverFactory } from '@factkit/retrieval';
import { describe, expect, it } from 'vitest';
import { CHUNK_KNOWLEDGE_ANALYZER } from '../indexing/fielded-bm25.js';
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

const bm25 = createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 1.2, b: 0.75, lengthEncoding: 'exact' });

/** The BM25 factory, recording the ranking depth (`topK`) of every retrieval in `seen`. */
function countingDepths(seen: number[]): RetrieverFactory {
  return {
    id: 'counting',
    async createRetriever(request) {
      const retriever = await bm25.createRetriever(request);
      return {
        id: retriever.id,
        retrieve(query) {
          seen.push(query.topK ?? 10);
          return retriever.retrieve(query);
        },
      };
    },
  };
}

describe('filterQuestionsByRelevance (Doc2Query--)', () => {
  it('drops the off-topic questions by BM25 through the RetrieverFactory and reports each with its score', async () => {
    const result = await filterQuestionsByRelevance(items, { scorer: { factory: bm25 }, percentile: 40 });
    expect(result.dropped.map((d) => d.question).sort()).toEqual(['What is the capital of France?', 'Who won the 1998 world cup?']);
    expect(result.dropped.every((d) => d.score === 0)).toBe(true);
    expect(result.droppedCount).toBe(2);
    expect(result.keptCount).toBe(3);
    expect(result.items[0]!.questions).toEqual(['Does aspirin lower fever?', 'Does aspirin help children?']);
    expect(result.items[0]!.chunk).toBe(items[0]!.chunk);
  });

  it("scores a question by its own chunk's BM25 score in the retriever's ranking (hand-checked)", async () => {
    // Terms (stemmed, stop words out): a = aspirin lower fever (3); b = fever children fever aspirin (4); avgdl 3.5.
    // idf = ln(1 + (N - df + 0.5) / (df + 0.5)), N = 2: ln 2 for lower, children (df 1); ln 1.2 for aspirin, fever (df 2).
    // Per query-term occurrence: idf · tf / (tf + k1 · (1 - b + b · dl / avgdl)), k1 = 1.2, b = 0.75.
    const chunkA = annotated('a', 'Aspirin lowers fever.', ['Does aspirin lower fever?', 'What is the capital of France?']);
    const chunkB = annotated('b', 'Fever in children: fever and aspirin.', ['Do children get fever?', 'Fever, fever?', 'Does aspirin lower fever?']);
    const result = await filterQuestionsByRelevance([chunkA, chunkB], { scorer: { factory: bm25 }, percentile: 100 });
    const normA = 1 - 0.75 + (0.75 * 3) / 3.5;
    const normB = 1 - 0.75 + (0.75 * 4) / 3.5;
    const once = (idf: number, tf: number, norm: number) => (idf * tf) / (tf + 1.2 * norm);
    const expected = new Map([
      ['a|Does aspirin lower fever?', once(Math.log(1.2), 1, normA) * 2 + once(Math.log(2), 1, normA)],
      ['a|What is the capital of France?', 0],
      ['b|Do children get fever?', once(Math.log(2), 1, normB) + once(Math.log(1.2), 2, normB)],
      ['b|Fever, fever?', 2 * once(Math.log(1.2), 2, normB)],
      ['b|Does aspirin lower fever?', once(Math.log(1.2), 1, normB) + once(Math.log(1.2), 2, normB)],
    ]);
    const scored = new Map([...result.dropped.map((d) => [`${d.chunkId}|${d.question}`, d.score] as const)]);
    expect(result.threshold).toBeCloseTo(expected.get('a|Does aspirin lower fever?')!, 6);
    expect(result.items[0]!.questions).toEqual(['Does aspirin lower fever?']);
    expect(scored.size).toBe(4);
    for (const [key, score] of scored) expect(score).toBeCloseTo(expected.get(key)!, 6); // the index's scores differ from doubles by ~1e-9
    expect(expected.get('b|Do children get fever?')).toBeCloseTo(0.40722, 5);
  });

  it('keeps chunks with the same id apart and reads the ranking only as deep as needed', async () => {
    const seen: number[] = [];
    const counting = countingDepths(seen);
    const twins = [annotated('x', 'Aspirin lowers fever.', ['Does aspirin lower fever?']), annotated('x', 'Statins reduce cholesterol.', ['Does aspirin lower fever?'])];
    const result = await filterQuestionsByRelevance(twins, { scorer: { factory: counting }, percentile: 50 });
    expect(seen).toEqual([2, 2]);
    expect(result.items.map((item) => item.questions)).toEqual([['Does aspirin lower fever?'], []]);
    expect(result.dropped).toEqual([{ chunkId: 'x', question: 'Does aspirin lower fever?', score: 0 }]);
  });

  it('deepens the ranking while the own chunk is missing from a full list, and stops at a short one', async () => {
    const seen: number[] = [];
    const counting = countingDepths(seen);
    // The own chunk is the longest of 20 aspirin chunks, so it ranks last for "aspirin"; "quasar" matches nothing.
    const own = annotated('own', `Aspirin ${'with many other clinical words here '.repeat(4)}`, ['Aspirin?', 'Quasar?']);
    const others = Array.from({ length: 19 }, (_, index) => annotated(`o${index}`, 'Aspirin aspirin.', []));
    const result = await filterQuestionsByRelevance([own, ...others], { scorer: { factory: counting }, percentile: 100 });
    expect(seen).toEqual([16, 20, 16]);
    const full = await (
      await bm25.createRetriever({ documents: [own, ...others].map((item, index) => ({ id: String(index), fields: { chunk: item.chunk.text }, text: item.chunk.text, origin: { documentId: String(index) } })), fields: { chunk: 1 } })
    ).retrieve({ query: { text: 'Aspirin?' }, topK: 20 });
    expect(full.evidence.at(-1)?.documentId).toBe('0');
    expect(result.threshold).toBe(full.evidence.at(-1)!.score);
    expect(result.dropped).toEqual([{ chunkId: 'own', question: 'Quasar?', score: 0 }]);
  });

  it('keeps everything at percentile 0 and scores by embedding similarity, or a dense factory, on request', async () => {
    expect((await filterQuestionsByRelevance(items, { scorer: { factory: bm25 }, percentile: 0 })).droppedCount).toBe(0);
    const embedder = createMockEmbedder({ dimensions: 256 });
    const embedded = await filterQuestionsByRelevance(items, { scorer: { embedder }, percentile: 40 });
    expect(embedded.droppedCount).toBe(2);
    expect(embedded.dropped.map((d) => d.question).sort()).toEqual(['What is the capital of France?', 'Who won the 1998 world cup?']);
    const dense = await filterQuestionsByRelevance(items, { scorer: { factory: createDenseRetrieverFactory({ embedder }) }, percentile: 40 });
    expect(dense.dropped.map((d) => d.question).sort()).toEqual(['What is the capital of France?', 'Who won the 1998 world cup?']);
  });

  it('rejects a missing scorer and a bad percentile, naming the argument', async () => {
    await expect(filterQuestionsByRelevance(items, { scorer: { factory: bm25 }, percentile: 101 })).rejects.toThrow(/"percentile"/);
    await expect(filterQuestionsByRelevance(items, {} as never)).rejects.toThrow(/"scorer"/);
    await expect(filterQuestionsByRelevance(items, { scorer: { factory: {} } } as never)).rejects.toThrow(/"scorer"/);
  });
});
