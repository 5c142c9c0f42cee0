import { InvalidArgumentError, type Evidence, type ItemProblem, type Query, type Retriever } from '@factkit/core';
import { describeRetrieverContract } from '@factkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createBm25Retriever } from '../bm25/bm25-retriever.js';
import { fuseScores } from './fuse-scores.js';
import { createMultiQueryRetriever } from './multi-query-retriever.js';

/** A retriever with a fixed ranking per query text; records what it was asked. */
function scripted(rankings: Record<string, [string, number][]>, extra: { problems?: Record<string, ItemProblem[]>; failing?: string[] } = {}) {
  const calls: { query: Query; topK: number }[] = [];
  const retriever: Retriever = {
    id: 'scripted',
    async retrieve({ query, topK = 10, abortSignal }) {
      abortSignal?.throwIfAborted();
      calls.push({ query, topK });
      if (extra.failing?.includes(query.text)) throw new Error(`cannot search "${query.text}"`);
      const evidence: Evidence[] = (rankings[query.text] ?? []).slice(0, topK).map(([documentId, score], index) => ({ documentId, text: `${query.text}:${documentId}`, score, rank: index + 1, origin: { documentId } }));
      const problems = extra.problems?.[query.text];
      return problems ? { evidence, problems } : { evidence };
    },
  };
  return { retriever, calls };
}

const rankings: Record<string, [string, number][]> = {
  q: [
    ['a', 3],
    ['b', 2],
    ['c', 1],
  ],
  sub1: [
    ['b', 0.9],
    ['d', 0.8],
  ],
  sub2: [
    ['c', 5],
    ['b', 4],
  ],
};
const query: Query = { id: 'q-1', text: 'q', subQueries: ['sub1', 'sub2'] };
const ids = (evidence: Evidence[]) => evidence.map((item) => item.documentId);

describe('createMultiQueryRetriever: fusion (hand-checked)', () => {
  it('RRF (k = 60): Σ 1 / (60 + rank) over the text and each sub-query', async () => {
    const { retriever } = scripted(rankings);
    const fused = createMultiQueryRetriever({ retriever });
    expect(fused.id).toBe('multi-query-rrf(scripted)');
    const { evidence, problems } = await fused.retrieve({ query, topK: 10 });
    // a: 1/61; b: 1/62 + 1/61 + 1/62; c: 1/63 + 1/61; d: 1/62.
    expect(ids(evidence)).toEqual(['b', 'c', 'a', 'd']);
    const expected = { a: 1 / 61, b: 1 / 62 + 1 / 61 + 1 / 62, c: 1 / 63 + 1 / 61, d: 1 / 62 };
    for (const item of evidence) expect(item.score).toBeCloseTo(expected[item.documentId as keyof typeof expected], 15);
    expect(evidence.map((item) => item.rank)).toEqual([1, 2, 3, 4]);
    // Text comes from the first list that had the document: the text search first, then sub-queries in order.
    expect(evidence.map((item) => item.text)).toEqual(['q:b', 'q:c', 'q:a', 'sub1:d']);
    expect(problems).toBeUndefined();
  });

  it('CombSUM over min-max normalised scores (and the min-max method, which is the same sum)', async () => {
    // q: a 1, b 0.5, c 0; sub1: b 1, d 0; sub2: c 1, b 0 → b 1.5, a 1, c 1, d 0 (a and c tie: by id).
    for (const fusion of [{ method: 'comb-sum' as const }, { method: 'min-max' as const }]) {
      const { evidence } = await createMultiQueryRetriever({ retriever: scripted(rankings).retriever, fusion }).retrieve({ query, topK: 3 });
      expect(evidence.map((item) => [item.documentId, item.score])).toEqual([
        ['b', 1.5],
        ['a', 1],
        ['c', 1],
      ]);
    }
  });

  it('z-score: Σ (s − mean) / population std per list', async () => {
    const { evidence } = await createMultiQueryRetriever({ retriever: scripted(rankings).retriever, fusion: { method: 'z-score' } }).retrieve({ query, topK: 10 });
    // q: mean 2, std √(2/3) → a +1.2247, b 0, c −1.2247; sub1: mean 0.85, std 0.05 → b +1, d −1; sub2: mean 4.5, std 0.5 → c +1, b −1.
    const z = 1 / Math.sqrt(2 / 3);
    const expected: [string, number][] = [
      ['a', z],
      ['b', 0],
      ['c', 1 - z],
      ['d', -1],
    ];
    expect(ids(evidence)).toEqual(expected.map(([id]) => id));
    evidence.forEach((item, index) => expect(item.score).toBeCloseTo((expected[index] as [string, number])[1], 12));
  });

  it('CombMNZ multiplies by the number of lists that retrieved the document', async () => {
    const { evidence } = await createMultiQueryRetriever({ retriever: scripted(rankings).retriever, fusion: { method: 'comb-mnz' } }).retrieve({ query, topK: 2 });
    // b: 1.5 × 3 lists = 4.5; c: 1 × 2 = 2 (a: 1 × 1).
    expect(evidence.map((item) => [item.documentId, item.score])).toEqual([
      ['b', 4.5],
      ['c', 2],
    ]);
  });

  it('over BM25 equals fusing the separate BM25 searches by hand', async () => {
    const bm25 = createBm25Retriever([
      { id: 'd1', text: 'Vitamin D deficiency is common in winter.' },
      { id: 'd2', text: 'Sunlight exposure raises vitamin D levels.' },
      { id: 'd3', text: 'COVID-19 severity and vitamin D supplements.' },
      { id: 'd4', text: 'Winter sports injuries in children.' },
    ]);
    const texts = ['vitamin d winter', 'sunlight vitamin', 'covid supplements'];
    const { evidence } = await createMultiQueryRetriever({ retriever: bm25 }).retrieve({ query: { text: texts[0] as string, subQueries: texts.slice(1) }, topK: 4 });
    const lists = await Promise.all(texts.map(async (text) => (await bm25.retrieve({ query: { text }, topK: 100 })).evidence.map((item) => ({ id: item.documentId, score: item.score }))));
    expect(evidence.map((item) => [item.documentId, item.score])).toEqual(
      fuseScores(lists, { method: 'rrf' })
        .slice(0, 4)
        .map((item) => [item.id, item.score]),
    );
  });
});

describe('createMultiQueryRetriever: what is searched', () => {
  it('searches the whole query for the text and { text } alone for each distinct sub-query, at candidateDepth', async () => {
    const { retriever, calls } = scripted(rankings);
    const vector = new Float32Array([1, 0]);
    const weightedTerms = [{ term: 'q', weight: 1 }];
    await createMultiQueryRetriever({ retriever, candidateDepth: 50 }).retrieve({
      query: { text: 'q', vector, weightedTerms, metadata: { m: 1 }, subQueries: ['sub1', ' q ', 'sub1', '', 'sub2'] },
      topK: 3,
    });
    expect(calls).toEqual([
      { query: { text: 'q', vector, weightedTerms, metadata: { m: 1 } }, topK: 50 },
      { query: { text: 'sub1' }, topK: 50 },
      { query: { text: 'sub2' }, topK: 50 },
    ]);
  });

  it('passes a query without sub-queries to the wrapped retriever unchanged', async () => {
    const { retriever, calls } = scripted(rankings);
    const fused = createMultiQueryRetriever({ retriever });
    const plain = await fused.retrieve({ query: { text: 'q' }, topK: 2 });
    expect(plain).toEqual(await retriever.retrieve({ query: { text: 'q' }, topK: 2 }));
    expect(plain.evidence.map((item) => item.score)).toEqual([3, 2]);
    await fused.retrieve({ query: { text: 'q', subQueries: [] }, topK: 2 });
    await fused.retrieve({ query: { text: 'q', subQueries: ['q'] }, topK: 2 });
    expect(calls.map((call) => [call.query, call.topK])).toEqual([
      [{ text: 'q' }, 2],
      [{ text: 'q' }, 2],
      [{ text: 'q' }, 2],
      [{ text: 'q' }, 2],
    ]);
  });

  it("keeps each search's problems, turns a failed search into search-failed and fuses the rest; all failing throws", async () => {
    const { retriever } = scripted(rankings, { failing: ['sub1'], problems: { sub2: [{ code: 'no-searchable-terms', message: 'nothing to search' }] } });
    const result = await createMultiQueryRetriever({ retriever }).retrieve({ query, topK: 10 });
    // q and sub2 fused: c 1/63 + 1/61 = 0.032266 > b 2/62 = 0.032258 > a 1/61.
    expect(ids(result.evidence)).toEqual(['c', 'b', 'a']);
    expect(result.problems).toEqual([
      { index: 1, code: 'search-failed', message: 'sub-query 1 failed: cannot search "sub1"' },
      { index: 2, code: 'no-searchable-terms', message: 'sub-query 2: nothing to search' },
    ]);
    const allFailing = scripted(rankings, { failing: ['q', 'sub1', 'sub2'] }).retriever;
    await expect(createMultiQueryRetriever({ retriever: allFailing }).retrieve({ query })).rejects.toThrow('cannot search "q"');
  });

  it('rejects with the abort reason, unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createMultiQueryRetriever({ retriever: scripted(rankings).retriever }).retrieve({ query, abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('validates options and sub-queries, naming the argument', async () => {
    const { retriever } = scripted(rankings);
    const argumentOf = (action: () => unknown): unknown => {
      try {
        action();
      } catch (error) {
        return InvalidArgumentError.isInstance(error) ? error.argument : error;
      }
      return 'no error';
    };
    expect(argumentOf(() => createMultiQueryRetriever({ retriever: {} as Retriever }))).toBe('retriever');
    expect(argumentOf(() => createMultiQueryRetriever({ retriever, candidateDepth: 0 }))).toBe('candidateDepth');
    expect(argumentOf(() => createMultiQueryRetriever({ retriever, fusion: { method: 'borda' as never } }))).toBe('method');
    expect(argumentOf(() => createMultiQueryRetriever({ retriever, fusion: { weights: [1, 1] } }))).toBe('fusion.weights');
    const fused = createMultiQueryRetriever({ retriever });
    await expect(fused.retrieve({ query: { text: 'q', subQueries: ['ok', 3 as never] } })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error) && error.argument === 'query.subQueries[1]');
    await expect(fused.retrieve({ query: { text: 'q', subQueries: 'sub1' as never } })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error) && error.argument === 'query.subQueries');
    await expect(fused.retrieve({ query, topK: -1 })).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error) && error.argument === 'topK');
  });
});

const corpus = [
  { id: 'd1', text: 'Vitamin D deficiency is common in northern countries during winter.' },
  { id: 'd2', text: 'The Eiffel Tower is in Paris, the capital of France.' },
  { id: 'd3', text: 'Aspirin reduces the risk of heart attack in some adults.' },
  { id: 'd4', text: 'Sunlight helps the skin make vitamin D.' },
];

describeRetrieverContract('multi-query RRF over BM25 (plain queries)', () => createMultiQueryRetriever({ retriever: createBm25Retriever(corpus) }), { query: 'vitamin d winter', expectedId: 'd1' });

/** The contract sends plain queries; this adapter attaches sub-queries so the fusing path is what gets checked. */
function withSubQueries(retriever: Retriever, subQueries: string[]): Retriever {
  return { id: retriever.id, retrieve: (request) => retriever.retrieve({ ...request, query: { ...request.query, subQueries } }) };
}

for (const method of ['rrf', 'comb-sum', 'min-max', 'z-score'] as const) {
  describeRetrieverContract(
    `multi-query ${method} over BM25 (queries carrying sub-queries)`,
    () => withSubQueries(createMultiQueryRetriever({ retriever: createBm25Retriever(corpus), fusion: { method } }), ['winter vitamin deficiency', 'sunlight vitamin d']),
    { query: 'vitamin d winter', expectedId: 'd1' },
  );
}
