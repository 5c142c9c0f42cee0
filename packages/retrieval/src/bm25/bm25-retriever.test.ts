import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@factkit/core';
import { createBm25Index } from './bm25-index.js';
import { createBm25Retriever } from './bm25-retriever.js';

const documents = [
  { id: 'a', title: 'Cats', text: 'Cats purr when they are content.', source: { name: 'Wikipedia', url: 'https://en.wikipedia.org/wiki/Cat' }, metadata: { shelf: 'wiki' } },
  { id: 'b', text: 'Dogs bark at strangers and cats.' },
  { id: 'c', text: 'Birds sing in the morning.' },
];

describe('createBm25Retriever', () => {
  it('returns evidence with text, rank, the typed origin (title, source) and the user metadata unchanged', async () => {
    const retriever = createBm25Retriever(documents);
    expect(retriever.id).toBe('bm25(k1=0.9,b=0.4)');
    const { evidence, problems } = await retriever.retrieve({ query: { text: 'purring cats' }, topK: 2 });
    expect(problems).toBeUndefined();
    expect(evidence.map((item) => item.documentId)).toEqual(['a', 'b']);
    expect(evidence[0]).toEqual({
      documentId: 'a',
      text: documents[0]?.text,
      score: evidence[0]?.score,
      rank: 1,
      origin: { documentId: 'a', title: 'Cats', source: { name: 'Wikipedia', url: 'https://en.wikipedia.org/wiki/Cat' } },
      metadata: { shelf: 'wiki' },
    });
    expect(evidence[1]).toEqual({ documentId: 'b', text: documents[1]?.text, score: evidence[1]?.score, rank: 2, origin: { documentId: 'b' } });
  });
  it('scores query.weightedTerms instead of the text', async () => {
    const index = createBm25Index({ documents });
    const retriever = createBm25Retriever(index);
    const weightedTerms = [
      { term: 'bird', weight: 0.7 },
      { term: 'cat', weight: 0.3 },
    ];
    const { evidence } = await retriever.retrieve({ query: { text: 'dogs bark', weightedTerms }, topK: 3 });
    const expected = index.search({ terms: weightedTerms }).hits;
    expect(expected.map((hit) => hit.id)).toEqual(['c', 'a', 'b']);
    expect(evidence.map((item) => [item.documentId, item.score])).toEqual(expected.map((hit) => [hit.id, hit.score]));
    // Scores add up per term: c has only bird (weight 0.7), a and b only cat (0.3).
    expect(evidence[0]?.score).toBe(index.search({ terms: [{ term: 'bird', weight: 0.7 }] }).hits[0]?.score);
    // Metadata is not a query channel any more.
    const { evidence: plain } = await retriever.retrieve({ query: { text: 'dogs bark', metadata: { weightedTerms } }, topK: 3 });
    expect(plain.map((item) => item.documentId)).toEqual(['b']);
  });
  it('rejects malformed weightedTerms, naming the entry', async () => {
    const retriever = createBm25Retriever(documents);
    for (const [weightedTerms, argument] of [
      [[{ term: 1, weight: 1 }], 'query.weightedTerms[0]'],
      [
        [
          { term: 'cat', weight: 1 },
          { term: 'dog', weight: -1 },
        ],
        'query.weightedTerms[1]',
      ],
      ['cat:1', 'query.weightedTerms'],
    ] as const) {
      await expect(retriever.retrieve({ query: { text: 'x', weightedTerms: weightedTerms as never } })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error) && error.argument === argument);
    }
  });
  it('reports problems instead of failing on an empty corpus or an empty query', async () => {
    expect(await createBm25Retriever([]).retrieve({ query: { text: 'cats' } })).toEqual({ evidence: [], problems: [{ code: 'empty-index', message: 'the index is empty' }] });
    expect(await createBm25Retriever(documents).retrieve({ query: { text: 'the and of' } })).toEqual({
      evidence: [],
      problems: [{ code: 'no-searchable-terms', message: 'query has no searchable terms after analysis' }],
    });
  });
  it('rejects with the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createBm25Retriever(documents).retrieve({ query: { text: 'cats' }, abortSignal: controller.signal })).rejects.toBe(reason);
  });
  it('rejects a bad source', () => {
    expect(() => createBm25Retriever('docs' as never)).toThrow(/"source"/);
  });
});
