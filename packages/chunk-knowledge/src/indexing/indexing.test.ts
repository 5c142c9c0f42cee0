import type { Embedder, EmbedRequest, VectorMatch, VectorStore } from '@factkit/core';
import { createMockEmbedder, createMockVectorStore } from '@factkit/core/testing';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import type { AnnotatedChunk } from '../knowledge/types.js';
import { createBm25RetrieverFactory } from '@factkit/retrieval';
import { CHUNK_KNOWLEDGE_ANALYZER, createFieldedBm25Retriever } from './fielded-bm25.js';

// The paper packages' BM25 comes through the core RetrieverFactory seam; here retrieval's, with exact lengths.
const factory = createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 1.2, b: 0.75, lengthEncoding: 'exact' });
import { CASE_1_CHUNK, CASE_4_TITLE_QUESTIONS_CHUNK, CASE_6_QUESTIONS_CHUNK, PASSAGE_LAYOUTS, getPassageLayout, renderPassage } from './layouts.js';
import { createChunkVectorRetriever, indexAnnotatedChunks, renderIndexPassages } from './vector-index.js';
import { withKindPrefixes } from './with-kind-prefixes.js';

function annotated(id: string, text: string, title: string, questions: string[]): AnnotatedChunk {
  return { chunk: { id, documentId: id.split('#')[0]!, text, ordinal: 0, start: 0, end: text.length }, title, questions, titleSource: 'model', method: 'test', problems: [] };
}

const items = [
  annotated('d1#0', 'Aspirin lowers fever in adults.', 'Aspirin and fever', ['Does aspirin lower fever?', 'Who takes aspirin?']),
  annotated('d2#0', 'Statins reduce cholesterol levels.', 'Statins and cholesterol', ['What do statins reduce?', 'Are statins safe?']),
  annotated('d3#0', 'Vitamin D deficiency is common in winter.', 'Vitamin D in winter', ['When is vitamin D low?']),
];

describe('passage layouts', () => {
  it('are the seven cases of the paper, in order, with its templates', () => {
    expect(PASSAGE_LAYOUTS.map((layout) => layout.template)).toEqual([
      'passage: <s> document chunk </s>',
      'passage: <s> title </s>',
      'passage: <s> candidate questions </s>',
      'passage: <s> title </s> candidate questions </s> document chunk </s>',
      'passage: <s> candidate questions </s> title </s> document chunk </s>',
      'passage: <s> candidate questions </s> document chunk </s>',
      'passage: <s> title </s> document chunk </s>',
    ]);
    expect(getPassageLayout('case-6')).toBe(CASE_6_QUESTIONS_CHUNK);
    expect(() => getPassageLayout('case-8')).toThrow(/"name" must be one of case-1/);
  });

  it('render without the passage: prefix (the embedder adds it by kind)', () => {
    const item = items[0]!;
    expect(renderPassage(item, CASE_1_CHUNK)).toBe('<s> Aspirin lowers fever in adults. </s>');
    expect(renderPassage(item, CASE_6_QUESTIONS_CHUNK)).toBe('<s> Does aspirin lower fever? Who takes aspirin? </s> Aspirin lowers fever in adults. </s>');
    expect(renderPassage(item, CASE_4_TITLE_QUESTIONS_CHUNK, { open: '', close: '' })).toBe('Aspirin and fever Does aspirin lower fever? Who takes aspirin? Aspirin lowers fever in adults.');
  });
});

describe('withKindPrefixes', () => {
  it('prefixes by the request kind', async () => {
    const inner = createMockEmbedder();
    const wrapped = withKindPrefixes(inner);
    await wrapped.embed({ texts: ['a'], kind: 'query' });
    await wrapped.embed({ texts: ['b'], kind: 'passage' });
    expect(inner.calls.map((call: EmbedRequest) => call.texts[0])).toEqual(['query: a', 'passage: b']);
  });
});

describe('vector indexing and retrieval', () => {
  it('indexes one vector per chunk for a layout and finds the chunk of a matching query; display text = indexed text', async () => {
    const embedder = createMockEmbedder({ dimensions: 256 });
    const store = createMockVectorStore({ dimensions: 256 });
    const result = await indexAnnotatedChunks(items, { embedder, store, mode: CASE_6_QUESTIONS_CHUNK, batchSize: 2 });
    expect(result.recordCount).toBe(3);
    expect(await store.count()).toBe(3);
    const retriever = createChunkVectorRetriever({ embedder, store, fanOut: 1 });
    const { evidence } = await retriever.retrieve({ query: { text: 'What do statins reduce?' }, topK: 2 });
    expect(evidence[0]).toMatchObject({ documentId: 'd2#0', rank: 1, text: renderPassage(items[1]!, CASE_6_QUESTIONS_CHUNK), origin: { documentId: 'd2', chunkId: 'd2#0' } });
    expect(embedder.calls.at(-1)?.kind).toBe('query');
    expect(embedder.calls.slice(0, -1).every((call) => call.kind === 'passage')).toBe(true);
  });

  it('multi-vector mode indexes title, each question and the chunk separately', () => {
    const { passages, problems } = renderIndexPassages([...items, annotated('d4#0', 'Text.', '', [])], { multiVector: ['title', 'questions', 'chunk'] });
    expect(passages.filter((p) => p.chunkId === 'd1#0').map((p) => p.id)).toEqual(['d1#0::title', 'd1#0::questions0', 'd1#0::questions1', 'd1#0::chunk']);
    expect(passages).toHaveLength(4 + 4 + 3 + 1); // d4 has no title and no questions
    expect(problems).toMatchObject([{ id: 'd4#0', code: 'empty-field' }]);
  });

  it('folds vector hits to their chunk by max or sum (hand-checked)', async () => {
    const matches: VectorMatch[] = [
      { id: 'a::title', score: 0.9, metadata: { chunkId: 'a', documentId: 'A', field: 'title', text: 'ta' } },
      { id: 'b::questions0', score: 0.8, metadata: { chunkId: 'b', documentId: 'B', field: 'questions', text: 'qb0' } },
      { id: 'b::questions1', score: 0.7, metadata: { chunkId: 'b', documentId: 'B', field: 'questions', text: 'qb1' } },
      { id: 'a::chunk', score: 0.1, metadata: { chunkId: 'a', documentId: 'A', field: 'chunk', text: 'ca' } },
    ];
    const store: VectorStore = { id: 'scripted', dimensions: 2, metric: 'cosine', upsert: async () => {}, delete: async () => {}, count: async () => 4, query: async () => ({ matches }) };
    const embedder: Embedder = { id: 'e', dimensions: 2, embed: async ({ texts }) => ({ embeddings: texts.map(() => new Float32Array([1, 0])) }) };
    const byMax = await createChunkVectorRetriever({ embedder, store, fold: 'max' }).retrieve({ query: { text: 'q' } });
    expect(byMax.evidence.map((e) => [e.documentId, e.score, e.text])).toEqual([['a', 0.9, 'ta'], ['b', 0.8, 'qb0']]);
    const bySum = await createChunkVectorRetriever({ embedder, store, fold: 'sum' }).retrieve({ query: { text: 'q' } });
    expect(bySum.evidence.map((e) => e.documentId)).toEqual(['b', 'a']);
    expect(bySum.evidence[0]!.score).toBeCloseTo(1.5);
    expect(bySum.evidence[1]!.score).toBeCloseTo(1.0);
  });

  it('rejects a store whose dimensions differ from the embedder', async () => {
    await expect(indexAnnotatedChunks(items, { embedder: createMockEmbedder({ dimensions: 8 }), store: createMockVectorStore({ dimensions: 4 }), mode: CASE_1_CHUNK })).rejects.toThrow(/"store" has 4 dimensions/);
  });
});

describe('createFieldedBm25Retriever', () => {
  it('scores with Lucene BM25 per field, weighted (hand-checked)', async () => {
    const retriever = await createFieldedBm25Retriever(items, { factory, weights: { chunk: 1 } });
    const { evidence } = await retriever.retrieve({ query: { text: 'statins' } });
    // N = 3, df = 1: idf = ln(1 + 2.5/1.5). Chunk terms without stop words: aspirin lowers fever adults (4),
    // statins reduce cholesterol levels (4), vitamin deficiency common winter (4; "d" and "in" are stop words): avg 4.
    const idf = Math.log(1 + 2.5 / 1.5);
    const norm = 1 - 0.75 + (0.75 * 4) / 4;
    expect(evidence).toHaveLength(1);
    // Lucene's BM25 (no (k1 + 1) factor: the same ranking), scores in float32.
    expect(evidence[0]!.score).toBeCloseTo(idf / (1 + 1.2 * norm), 6);
    expect(evidence[0]!.origin).toEqual({ documentId: 'd2', chunkId: evidence[0]!.documentId });
  });

  it('a field with weight 0 is not searched, a heavier field counts more', async () => {
    // "safe" occurs only in a question of d2.
    expect((await (await createFieldedBm25Retriever(items, { factory, weights: { chunk: 1, title: 1 } })).retrieve({ query: { text: 'safe' } })).evidence).toEqual([]);
    const light = await (await createFieldedBm25Retriever(items, { factory, weights: { questions: 1 } })).retrieve({ query: { text: 'safe' } });
    const heavy = await (await createFieldedBm25Retriever(items, { factory, weights: { questions: 3 } })).retrieve({ query: { text: 'safe' } });
    expect(heavy.evidence[0]!.score).toBeCloseTo(3 * light.evidence[0]!.score, 5);
    await expect(createFieldedBm25Retriever(items, { factory, weights: { chunk: 0 } })).rejects.toThrow(/"weights" must give at least one field/);
    await expect(createFieldedBm25Retriever(items, {} as never)).rejects.toThrow(/"factory" must be a RetrieverFactory/);
    expect((await (await createFieldedBm25Retriever(items, { factory })).retrieve({ query: { text: 'the of' } })).problems).toMatchObject([{ code: 'no-searchable-terms' }]);
  });
});

describe('indexing into @factkit/retrieval stores (any core VectorStore)', () => {
  it('finds the same top chunk through the exact in-memory store, the HNSW store and pgvector (PGlite)', async () => {
    const { createInMemoryVectorStore, createPgVectorStore } = await import('@factkit/retrieval');
    const { createHnswVectorStore } = await import('@factkit/retrieval/node');
    const { PGlite } = await import('@electric-sql/pglite');
    const { vector } = await import('@electric-sql/pglite/vector');
    const database = await PGlite.create({ extensions: { vector } });
    await database.exec('CREATE EXTENSION IF NOT EXISTS vector;');
    const embedder = createMockEmbedder({ dimensions: 64 });
    const pgvector = createPgVectorStore({ client: database, table: 'chunk_knowledge_test', dimensions: 64 });
    for (const store of [createInMemoryVectorStore({ dimensions: 64 }), createHnswVectorStore({ dimensions: 64 }), pgvector]) {
      await indexAnnotatedChunks(items, { embedder, store, mode: { multiVector: ['title', 'questions', 'chunk'] } });
      expect(await store.count()).toBe(11);
      const { evidence } = await createChunkVectorRetriever({ embedder, store }).retrieve({ query: { text: 'When is vitamin D low?' }, topK: 3 });
      expect(evidence[0]).toMatchObject({ documentId: 'd3#0', origin: { documentId: 'd3', chunkId: 'd3#0' } });
      expect(new Set(evidence.map((e) => e.documentId)).size).toBe(evidence.length);
    }
    await database.close();
  }, 60_000);
});

// Both chunk retrievers honour the core Retriever contract: evidence per chunk, origin = parent document + chunk id.
describeRetrieverContract('chunk-knowledge fielded BM25 (title, questions, chunk)', () => createFieldedBm25Retriever(items, { factory }), { query: 'vitamin D in winter', expectedId: 'd3#0' });
describeRetrieverContract(
  'chunk-knowledge chunk vectors (one vector per field, max fold)',
  async () => {
    const embedder = createMockEmbedder({ dimensions: 64 });
    const store = createMockVectorStore({ dimensions: 64 });
    await indexAnnotatedChunks(items, { embedder, store, mode: { multiVector: ['title', 'questions', 'chunk'] } });
    return createChunkVectorRetriever({ embedder, store });
  },
  { query: 'vitamin D deficiency in winter', expectedId: 'd3#0' },
);
