import type { FieldedDocument } from '@factkit/core';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createBm25Index } from './bm25-index.js';
import { createBm25RetrieverFactory } from './bm25-retriever-factory.js';

const documents: FieldedDocument[] = [
  {
    id: 'd1#0',
    fields: { title: 'Aspirin and fever', questions: ['Does aspirin lower fever?', 'Who takes aspirin?'], chunk: 'Aspirin lowers fever in adults.' },
    text: 'Aspirin lowers fever in adults.',
    origin: { documentId: 'd1', chunkId: 'd1#0' },
  },
  {
    id: 'd2#0',
    fields: { title: 'Statins', questions: ['Are statins safe?'], chunk: 'Statins reduce cholesterol levels.' },
    text: 'Statins reduce cholesterol levels.',
    origin: { documentId: 'd2', chunkId: 'd2#0' },
    metadata: { shelf: 'cardio' },
  },
  {
    id: 'd3#0',
    fields: { title: 'Vitamin D in winter', questions: ['When is vitamin D low?'], chunk: 'Vitamin D deficiency is common in winter.' },
    text: 'Vitamin D deficiency is common in winter.',
    origin: { documentId: 'd3', chunkId: 'd3#0' },
  },
];

describeRetrieverContract('bm25 factory (title, questions, chunk)', () => createBm25RetrieverFactory().createRetriever({ documents, fields: { title: 1, questions: 1, chunk: 1 } }), { query: 'vitamin D in winter', expectedId: 'd3#0' });

describe('createBm25RetrieverFactory', () => {
  it('scores Σ weight × BM25 of each named field, each field alone scored like a one-field index over its text', async () => {
    const weights = { title: 2, questions: 0.5, chunk: 1 };
    const retriever = await createBm25RetrieverFactory({ lengthEncoding: 'exact' }).createRetriever({ documents, fields: weights });
    const query = 'aspirin fever statins safe';
    const { evidence } = await retriever.retrieve({ query: { text: query } });
    for (const item of evidence) {
      let expected = 0;
      for (const [field, weight] of Object.entries(weights)) {
        // One-field index over the same field texts (questions joined), via the document's own `text`.
        const single = createBm25Index({ lengthEncoding: 'exact', documents: documents.map((document) => ({ id: document.id, text: ([] as string[]).concat(document.fields[field] as string | string[]).join(' ') })) });
        expected += weight * (single.search(query, { topK: 10 }).hits.find((hit) => hit.id === item.documentId)?.score ?? 0);
      }
      expect(item.score).toBeCloseTo(expected, 4);
    }
    expect(evidence.map((item) => item.documentId).sort()).toEqual(['d1#0', 'd2#0']);
    expect(evidence.find((item) => item.documentId === 'd2#0')).toMatchObject({ text: 'Statins reduce cholesterol levels.', origin: { documentId: 'd2', chunkId: 'd2#0' }, metadata: { shelf: 'cardio' } });
  });
  it('leaves out fields of weight 0 and rejects no positive weight or a malformed document', async () => {
    const factory = createBm25RetrieverFactory();
    const titleOnly = await factory.createRetriever({ documents, fields: { title: 1, questions: 0 } });
    expect((await titleOnly.retrieve({ query: { text: 'safe' } })).evidence).toEqual([]);
    await expect(factory.createRetriever({ documents, fields: { chunk: 0 } })).rejects.toThrow(/"fields" must give at least one field/);
    await expect(factory.createRetriever({ documents: [{ id: 'x', text: 'x' } as never], fields: { chunk: 1 } })).rejects.toThrow(/documents\[0\]/);
  });
  it('a named field other than title/text needs fieldText on a plain index', () => {
    expect(() => createBm25Index({ fields: { questions: 1 }, documents: [{ id: 'a', text: 'x' }] })).toThrow(/fieldText/);
  });
});
