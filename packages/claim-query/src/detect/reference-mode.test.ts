import type { RetrieverFactoryRequest } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { createTableRetriever, createYearNliModel, pairsOf } from '../../test/support.js';
import { createNliVerifier } from '../verify/create-nli-verifier.js';
import { detectHallucinations } from './detect-hallucinations.js';
import type { ClaimQueryGenerator } from './generator.js';
import { createOverlapRetriever, itemPassages, splitPassages } from './reference-passages.js';

// Mock NLI: entailment if the premise contains the hypothesis's year, contradiction if it contains another year.
const nli = createYearNliModel();

// Hand-written (fictional) library: the corpus knows a different Lakeside library, so it misleads; the reference is the
// document the answer was written from.
const QUESTION = 'When did the Lakeside library reopen?';
const ANSWER = 'The Lakeside library reopened in 2021. It holds 40,000 books.';
const REFERENCE = 'The Lakeside library closed in 2018 for a renovation of its roof. After the works, the Lakeside library reopened in 2021. Its collection now holds 40,000 books and a small archive of maps.';
const corpus = () => createTableRetriever({ 'Lakeside library reopening': ['The Lakeside library in Ohio reopened in 1998 after a flood.'], 'Lakeside library books': ['The Lakeside library lends books.'] });
const generator: ClaimQueryGenerator = {
  id: 'fixed',
  async generate({ items }) {
    return items.map((qa) => ({
      status: 'ok' as const,
      pairs: pairsOf(qa.id, [
        { claim: 'The Lakeside library reopened in 2021.', query: 'Lakeside library reopening', sentenceIndex: 0 },
        { claim: 'The Lakeside library holds 40,000 books.', sentenceIndex: 1 },
      ]),
      noClaims: false,
      problems: [],
    }));
  },
};

describe('reference mode (RefChecker: no context, noisy context, accurate reference)', () => {
  it('the same row: the misleading corpus calls it hallucinated; checked against its reference it is supported, and the corpus is not searched', async () => {
    const searched = corpus();
    const [withoutReference] = await detectHallucinations({ items: [{ id: 'r1', question: QUESTION, answer: ANSWER }], generator, retriever: searched, verifier: createNliVerifier({ nli }) });
    expect(withoutReference).toMatchObject({ mode: 'corpus', responseLabel: 'hallucinated', factualPrecision: 0 });
    expect(withoutReference?.claims[1]?.verdict.reason).toBe('no query');
    expect(searched.calls).toEqual(['Lakeside library reopening']);

    const untouched = corpus();
    const [withReference] = await detectHallucinations({ items: [{ id: 'r1', question: QUESTION, answer: ANSWER, reference: REFERENCE }], generator, retriever: untouched, verifier: createNliVerifier({ nli }) });
    expect(untouched.calls).toEqual([]);
    expect(withReference).toMatchObject({ mode: 'reference', status: 'ok', responseLabel: 'not-hallucinated', factualPrecision: 1 });
    expect(withReference?.retrieverId).toBe('reference-overlap');
    // The claim's evidence: the whole reference (passages are verified whole by default), with a typed origin naming
    // the row and the passage.
    expect(withReference?.claims[0]?.evidence.map((e) => e.text)).toEqual([REFERENCE]);
    expect(withReference?.claims[0]?.evidence[0]?.origin).toEqual({ documentId: 'r1:reference:0', title: 'reference passage 1', source: { name: 'reference' }, chunkId: 'r1:reference:0' });
    // In two-sentence windows, both windows share "Lakeside library" with the query (ties keep passage order).
    const [windowed] = await detectHallucinations({ items: [{ id: 'r1', question: QUESTION, answer: ANSWER, reference: REFERENCE }], generator, verifier: createNliVerifier({ nli }), passageWindowSentences: 2 });
    expect(windowed?.claims[0]?.evidence.map((e) => e.origin.chunkId)).toEqual(['r1:reference:0.0', 'r1:reference:0.1']);
    expect(windowed?.responseLabel).toBe('not-hallucinated');
    // Without a query, a claim is searched in the reference with its own text (and has no year: neutral → unverifiable).
    expect(withReference?.claims[1]?.query?.text).toBe('The Lakeside library holds 40,000 books.');
    expect(withReference?.claims[1]?.verdict.label).toBe('unverifiable');
    expect(withReference?.claimCounts).toEqual({ supported: 1, hallucinated: 0, unverifiable: 1, failed: 0 });
  });

  it('a mix of rows: corpus, context (list of passages), reference; a reference wins over a context; no retriever is needed when every row has passages', async () => {
    const searched = corpus();
    const results = await detectHallucinations({
      items: [
        { id: 'c', question: QUESTION, answer: ANSWER },
        { id: 'x', question: QUESTION, answer: ANSWER, context: ['The Lakeside library in Ohio reopened in 1998.', 'Lakeside is a town by a lake.'] },
        { id: 'r', question: QUESTION, answer: ANSWER, reference: [REFERENCE], context: 'The Lakeside library in Ohio reopened in 1998.' },
      ],
      generator,
      retriever: searched,
      verifier: createNliVerifier({ nli }),
    });
    expect(results.map((r) => [r.mode, r.responseLabel])).toEqual([
      ['corpus', 'hallucinated'],
      ['context', 'hallucinated'],
      ['reference', 'not-hallucinated'],
    ]);
    expect(results[2]?.problems.map((p) => p.code)).toEqual(['context-ignored']);
    expect(searched.calls).toHaveLength(1);
    const [alone] = await detectHallucinations({ items: [{ id: 'r', question: QUESTION, answer: ANSWER, reference: REFERENCE }], generator, verifier: createNliVerifier({ nli }) });
    expect(alone?.responseLabel).toBe('not-hallucinated');
    await expect(detectHallucinations({ items: [{ question: QUESTION, answer: ANSWER }], generator, verifier: createNliVerifier({ nli }) })).rejects.toThrow(/retriever.*needed for items without a reference/);
    await expect(detectHallucinations({ items: [], generator, verifier: createNliVerifier({ nli }), passageWindowSentences: 0 })).rejects.toThrow(/passageWindowSentences/);
  });

  it('passages go through a RetrieverFactory when one is given (one index per row, one text field)', async () => {
    const requests: RetrieverFactoryRequest[] = [];
    const factory = {
      id: 'spy',
      async createRetriever(request: RetrieverFactoryRequest) {
        requests.push(request);
        return createOverlapRetriever(request.documents);
      },
    };
    const [result] = await detectHallucinations({
      items: [{ id: 'r1', question: QUESTION, answer: ANSWER, reference: REFERENCE }],
      generator,
      verifier: createNliVerifier({ nli }),
      passageRetrieverFactory: factory,
      passageWindowSentences: 2,
    });
    expect(result?.responseLabel).toBe('not-hallucinated');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.fields).toEqual({ text: 1 });
    expect(requests[0]?.documents.map((d) => d.id)).toEqual(['r1:reference:0.0', 'r1:reference:0.1']);
    const [broken] = await detectHallucinations({
      items: [{ id: 'r1', question: QUESTION, answer: ANSWER, reference: REFERENCE }],
      generator,
      verifier: createNliVerifier({ nli }),
      passageRetrieverFactory: { id: 'broken', createRetriever: async () => Promise.reject(new Error('no index')) },
    });
    // A failed index of the passages fails the claims and so the item (never an "unverifiable" label).
    expect(broken?.claims[0]?.verdict.status).toBe('failed');
    expect(broken?.claims[0]?.verdict.label).toBeUndefined();
    expect(broken?.claims[0]?.verdict.reason).toMatch(/indexing the reference failed: no index/);
    expect(broken?.status).toBe('failed');
  });

  it('splits passages into overlapping sentence windows and ranks them by shared content words', async () => {
    expect(itemPassages({ reference: ['  ', ''], context: 'ctx' })).toEqual({ mode: 'context', passages: ['ctx'] });
    expect(itemPassages({ reference: 7 })).toBeUndefined();
    expect(splitPassages('a', 'reference', ['One. Two. Three.', 'Short one.']).map((w) => w.id)).toEqual(['a:reference:0', 'a:reference:1']);
    expect(splitPassages('a', 'reference', ['One. Two. Three.', 'Short one.'], 2).map((w) => [w.id, w.text])).toEqual([
      ['a:reference:0.0', 'One. Two.'],
      ['a:reference:0.1', 'Two. Three.'],
      ['a:reference:1', 'Short one.'],
    ]);
    const documents = ['The roof was renovated.', 'The library reopened in 2021.', 'Maps are archived.'].map((text, k) => ({ id: `w${k}`, fields: { text }, text, origin: { documentId: 'd' } }));
    const ranked = await createOverlapRetriever(documents).retrieve({ query: { text: 'When did the library reopen in 2021?' } });
    expect(ranked.evidence.map((e) => [e.documentId, e.rank])).toEqual([['w1', 1]]);
    expect((await createOverlapRetriever(documents).retrieve({ query: { text: 'the of and' } })).problems?.[0]?.code).toBe('empty-query');
  });
});
