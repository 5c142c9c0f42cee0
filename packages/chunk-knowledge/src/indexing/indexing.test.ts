import type { EmbedRequest } from '@factkit/core';
import { createMockEmbedder, createMockVectorStore } from '@factkit/core/testing';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import type { AnnotatedChunk } from '../knowledge/types.js';
import { createBm25RetrieverFactory, createDenseRetrieverFactory } from '@factkit/retrieval';
import { CHUNK_KNOWLEDGE_ANALYZER, createFieldedBm25Retriever } from './fielded-bm25.js';

// The paper packages' BM25 comes through the core RetrieverFactory seam; here retrieval's, with exact lengths.
const factory = createBm25RetrieverFactory({ analyzer: CHUNK_KNOWLEDGE_ANALYZER, k1: 1.2, b: 0.75, lengthEncoding: 'exact' });
import { CASE_1_CHUNK, CASE_4_TITLE_QUESTIONS_CHUNK, CASE_6_QUESTIONS_CHUNK, PASSAGE_LAYOUTS, getPassageLayout, renderPassage } from './layouts.js';
import { createChunkVectorRetriever, renderIndexPassages, toChunkFieldedDocuments } from './vector-index.js';
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
  it('indexes one vector per chunk for a layout (through the factory) and finds the chunk of a matching query', async () => {
    const embedder = createMockEmbedder({ dimensions: 256 });
    const store = createMockVectorStore({ dimensions: 256 });
    const retriever = await createChunkVectorRetriever(items, { factory: createDenseRetrieverFactory({ embedder, createStore: () => store, batchSize: 2 }), mode: CASE_6_QUESTIONS_CHUNK });
    expect(await store.count()).toBe(3);
    expect(retriever.problems).toEqual([]);
    // The vectors are the rendered layout passages, one per chunk, under the chunk id.
    const passage = (await embedder.embed({ texts: [renderPassage(items[1]!, CASE_6_QUESTIONS_CHUNK)], kind: 'passage' })).embeddings[0]!;
    expect((await store.query({ vector: passage, topK: 1 })).matches[0]).toMatchObject({ id: 'd2#0', score: expect.closeTo(1, 5) });
    const { evidence } = await retriever.retrieve({ query: { text: 'What do statins reduce?' }, topK: 2 });
    expect(evidence[0]).toMatchObject({ documentId: 'd2#0', rank: 1, text: items[1]!.chunk.text, origin: { documentId: 'd2', chunkId: 'd2#0' } });
    expect(embedder.calls.at(-1)?.kind).toBe('query');
    expect(embedder.calls.slice(0, -2).every((call) => call.kind === 'passage')).toBe(true);
  });

  it("hands the factory one fielded document per chunk: the layout, or title / questions / chunk in the mode's order", () => {
    const layout = toChunkFieldedDocuments(items, CASE_6_QUESTIONS_CHUNK);
    expect(layout.fields).toEqual({ layout: 1 });
    expect(layout.documents[0]).toEqual({ id: 'd1#0', fields: { layout: renderPassage(items[0]!, CASE_6_QUESTIONS_CHUNK) }, text: items[0]!.chunk.text, origin: { documentId: 'd1', chunkId: 'd1#0' } });
    const multi = toChunkFieldedDocuments(items, { multiVector: ['questions', 'title'] });
    expect(Object.keys(multi.fields)).toEqual(['questions', 'title']);
    expect(multi.documents[1]!.fields).toEqual({ questions: ['<s> What do statins reduce? </s>', '<s> Are statins safe? </s>'], title: '<s> Statins and cholesterol </s>' });
  });

  it('multi-vector mode indexes title, each question and the chunk separately', () => {
    const { passages, problems } = renderIndexPassages([...items, annotated('d4#0', 'Text.', '', [])], { multiVector: ['title', 'questions', 'chunk'] });
    expect(passages.filter((p) => p.chunkId === 'd1#0').map((p) => p.id)).toEqual(['d1#0::title', 'd1#0::questions0', 'd1#0::questions1', 'd1#0::chunk']);
    expect(passages).toHaveLength(4 + 4 + 3 + 1); // d4 has no title and no questions
    expect(problems).toMatchObject([{ id: 'd4#0', code: 'empty-field' }]);
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
      const retriever = await createChunkVectorRetriever(items, { factory: createDenseRetrieverFactory({ embedder, createStore: () => store }), mode: { multiVector: ['title', 'questions', 'chunk'] } });
      expect(await store.count()).toBe(11);
      const { evidence } = await retriever.retrieve({ query: { text: 'When is vitamin D low?' }, topK: 3 });
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
    return createChunkVectorRetriever(items, { factory: createDenseRetrieverFactory({ embedder, createStore: (dimensions) => createMockVectorStore({ dimensions }) }), mode: { multiVector: ['title', 'questions', 'chunk'] } });
  },
  { query: 'vitamin D deficiency in winter', expectedId: 'd3#0' },
);
