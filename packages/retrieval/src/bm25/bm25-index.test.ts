import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, type Document } from '@factkit/core';
import type { Analyzer } from '../analysis/analyzer.js';
import { createBm25Index } from './bm25-index.js';
import { serializeBm25Index } from './bm25-serialization.js';
import { getIndexState } from './index-state.js';
import { capacityFor, createPostingsStore } from './postings-store.js';

/** Whitespace analyzer: makes hand computations easy. */
const whitespace: Analyzer = { id: 'whitespace', analyze: (text) => text.split(/\s+/).filter(Boolean) };

const corpus: Document[] = [
  { id: 'd1', text: 'cat cat dog' },
  { id: 'd2', text: 'cat fish fish fish bird' },
  { id: 'd3', text: 'dog bird' },
  { id: 'd4', text: 'emu' },
];

const f = Math.fround;
/** Lucene's BM25 in float32, written out independently from the index code. */
function luceneScore(tf: number, dl: number, avgdl: number, df: number, n: number, k1 = 0.9, b = 0.4, boost = 1): number {
  const idf = f(Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  const weight = f(f(boost) * idf);
  const normInverse = f(1 / f(f(k1) * f(f(1 - f(b)) + f(f(f(b) * dl) / f(avgdl)))));
  return f(weight - f(weight / f(1 + f(tf * normInverse))));
}

describe('createBm25Index: scoring', () => {
  it('scores like Lucene BM25Similarity (hand-computed)', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    const avgdl = (3 + 5 + 2 + 1) / 4;
    const result = index.search('cat', { topK: 10 });
    expect(result.hits.map((hit) => hit.id)).toEqual(['d1', 'd2']);
    expect(result.hits[0]?.score).toBe(luceneScore(2, 3, avgdl, 2, 4));
    expect(result.hits[1]?.score).toBe(luceneScore(1, 5, avgdl, 2, 4));
    const two = index.search('cat bird', { topK: 10 });
    const d2 = two.hits.find((hit) => hit.id === 'd2');
    expect(d2?.score).toBeCloseTo(luceneScore(1, 5, avgdl, 2, 4) + luceneScore(1, 5, avgdl, 2, 4), 6);
  });

  it("uses Lucene's lossy length for long documents, exact lengths on request", () => {
    const long = Array.from({ length: 99 }, (_, index) => `w${index}`).join(' ');
    const documents = [
      { id: 'long', text: `cat ${long}` },
      { id: 'short', text: 'cat' },
    ];
    const lucene = createBm25Index({ analyzer: whitespace, documents });
    const explanation = lucene.explain('cat', 'long');
    expect(explanation?.terms[0]).toMatchObject({ tf: 1, documentLength: 100, scoredLength: 96, df: 2 });
    expect(explanation?.score).toBe(luceneScore(1, 96, 50.5, 2, 2));
    const exact = createBm25Index({ analyzer: whitespace, documents, lengthEncoding: 'exact' });
    expect(exact.explain('cat', 'long')?.score).toBe(luceneScore(1, 100, 50.5, 2, 2));
  });

  it('implements Robertson, BM25+ and BM25L (hand-computed)', () => {
    const n = 4;
    const avgdl = 11 / 4;
    const k1 = 1.2;
    const b = 0.75;
    const norm = (dl: number) => 1 - b + (b * dl) / avgdl;
    const robertson = createBm25Index({ analyzer: whitespace, documents: corpus, variant: 'robertson', k1, b });
    // df = 3 of 4 ('cat' or 'dog' … use a 5th document): ln((5 − 3 + 0.5)/(3 + 0.5)) < 0 is floored at 0.
    robertson.addDocument({ id: 'd5', text: 'cat' });
    expect(Math.log((5 - 3 + 0.5) / (3 + 0.5))).toBeLessThan(0);
    expect(robertson.search('cat').hits.map((hit) => hit.score)).toEqual([0, 0, 0]);
    robertson.removeDocument('d5');
    const idfEmu = Math.log((n - 1 + 0.5) / (1 + 0.5));
    expect(robertson.search('emu').hits[0]?.score).toBeCloseTo((idfEmu * 1 * (k1 + 1)) / (1 + k1 * norm(1)), 12);
    const plus = createBm25Index({ analyzer: whitespace, documents: corpus, variant: 'bm25+', k1, b });
    expect(plus.search('cat').hits[0]?.score).toBeCloseTo(Math.log((n + 1) / 2) * (((k1 + 1) * 2) / (k1 * norm(3) + 2) + 1), 12);
    const l = createBm25Index({ analyzer: whitespace, documents: corpus, variant: 'bm25l', k1, b });
    const c = 3 / norm(5);
    expect(l.search('fish').hits[0]?.score).toBeCloseTo((Math.log((n + 1) / 1.5) * (k1 + 1) * (c + 0.5)) / (k1 + c + 0.5), 12);
  });

  it('honours query-term frequency like Lucene: n copies of a term add its score n times', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    const once = index.explain('cat', 'd1')?.score as number;
    const five = index.explain('cat cat cat cat cat', 'd1')?.score as number;
    expect(five).toBeCloseTo(5 * once, 5);
    // Query2doc: q+ = query × 5 + passage. Repetition flips the ranking towards the query's own terms.
    const documents = [{ id: 'query-doc', text: 'emu emu habitat' }, { id: 'passage-doc', text: 'bird bird flightless large bird' }, ...Array.from({ length: 8 }, (_, index) => ({ id: `filler${index}`, text: `bird filler${index}` }))];
    const q2d = createBm25Index({ analyzer: whitespace, documents });
    const passage = 'flightless large bird flightless large';
    expect(q2d.search(`emu ${passage}`).hits[0]?.id).toBe('passage-doc');
    expect(q2d.search(`${'emu '.repeat(5)}${passage}`).hits[0]?.id).toBe('query-doc');
  });

  it('combines per-field weights as Σ weight × BM25(field)', () => {
    const documents = [
      { id: 'a', title: 'cat', text: 'dog dog' },
      { id: 'b', title: 'dog', text: 'cat cat' },
    ];
    const titleHeavy = createBm25Index({ analyzer: whitespace, documents, fields: { title: 3, text: 1 } });
    expect(titleHeavy.search('cat').hits.map((hit) => hit.id)).toEqual(['a', 'b']);
    const explanation = titleHeavy.explain('cat', 'a');
    expect(explanation?.terms.map((term) => [term.field, term.boost])).toEqual([
      ['title', 3],
      ['text', 1],
    ]);
    const textHeavy = createBm25Index({ analyzer: whitespace, documents, fields: { title: 1, text: 3 } });
    expect(textHeavy.search('cat').hits.map((hit) => hit.id)).toEqual(['b', 'a']);
    // flat = title + ' ' + text in one field
    const flat = createBm25Index({ analyzer: whitespace, documents });
    expect(flat.explain('cat', 'b')?.terms[0]).toMatchObject({ tf: 2, documentLength: 3 });
  });

  it('reports raw and normalised scores; normalised is score / best possible', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    const [top] = index.search('cat dog').hits;
    expect(top?.normalizedScore).toBeGreaterThan(0);
    expect(top?.normalizedScore).toBeLessThanOrEqual(1);
    expect(index.search('emu').hits[0]?.normalizedScore).toBe(1);
  });
});

describe('createBm25Index: both MaxScore strategies return exactly the exhaustive top-k', () => {
  const vocabulary = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const documentArbitrary = fc.array(fc.constantFrom(...vocabulary), { minLength: 0, maxLength: 40 }).map((words) => words.join(' '));
  it('for random corpora, queries, weights, variants and k', () => {
    fc.assert(
      fc.property(
        fc.array(documentArbitrary, { minLength: 1, maxLength: 60 }),
        fc.array(fc.record({ term: fc.constantFrom(...vocabulary, 'zzz'), weight: fc.double({ min: 0, max: 5, noNaN: true }) }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('lucene' as const, 'robertson' as const, 'bm25+' as const, 'bm25l' as const),
        (texts, terms, topK, variant) => {
          const index = createBm25Index({ analyzer: whitespace, variant, documents: texts.map((text, position) => ({ id: `d${position}`, text })) });
          const exhaustive = index.search({ terms }, { topK, strategy: 'exhaustive' });
          const daat = index.search({ terms }, { topK, strategy: 'maxscore-daat' });
          expect(daat.hits).toEqual(exhaustive.hits);
          expect(daat.scoredPostings).toBeLessThanOrEqual(exhaustive.scoredPostings);
          expect(index.search({ terms }, { topK, strategy: 'maxscore' }).hits).toEqual(exhaustive.hits);
          expect(index.search({ terms }, { topK }).hits).toEqual(exhaustive.hits); // default 'auto'
          // Independent reference without the search kernel: every matching document's explain() score, ranked.
          const reference = texts
            .map((_, position) => index.explain({ terms }, `d${position}`))
            .filter((explanation) => explanation !== undefined && explanation.terms.some((term) => term.tf > 0))
            .map((explanation) => ({ id: (explanation as { id: string }).id, score: (explanation as { score: number }).score, doc: Number((explanation as { id: string }).id.slice(1)) }))
            .sort((a, b) => b.score - a.score || a.doc - b.doc)
            .slice(0, topK);
          expect(exhaustive.hits.map((hit) => [hit.id, hit.score])).toEqual(reference.map((hit) => [hit.id, hit.score]));
        },
      ),
      { numRuns: 300 },
    );
  });

  // Large enough for the sparse exhaustive path (few postings vs documents) and for 'auto' to pick MaxScore (> 16,384 postings).
  const bigVocabulary = Array.from({ length: 400 }, (_, index) => `t${index}`);
  const bigCorpus = Array.from({ length: 3000 }, (_, doc) => {
    const words: string[] = [];
    for (let position = 0; position < 30; position++) words.push(position % 3 === 0 ? (vocabulary[(doc * 7 + position) % 8] as string) : (bigVocabulary[(doc * 31 + position * position * 17) % 400] as string));
    return { id: `b${doc}`, text: words.join(' ') };
  });
  const bigIndex = createBm25Index({ analyzer: whitespace, documents: bigCorpus });
  it("'auto' takes document-at-a-time MaxScore on a large collection with many postings, exhaustive scoring otherwise (same hits either way)", () => {
    const documents = Array.from({ length: 20_000 }, (_, doc) => ({ id: `l${doc}`, text: [...Array.from({ length: 1 + (doc % 5) }, () => `common${doc % 3}`), ...Array.from({ length: doc % 7 }, (_, word) => `filler${word}`)].join(' ') }));
    // The Lucene variant keeps a WebAssembly copy of a small index's postings, and 'auto' then scores a query touching
    // a quarter of the collection exhaustively; another variant has no copy, so 'auto' prunes.
    const lucene = createBm25Index({ analyzer: whitespace, documents });
    const luceneTerms = [
      { term: 'common0', weight: 1 },
      { term: 'common1', weight: 1 },
      { term: 'common2', weight: 1 },
    ];
    expect(lucene.search({ terms: luceneTerms }, { topK: 10 }).scoredPostings).toBe(20_000);
    expect(lucene.search({ terms: luceneTerms }, { topK: 10 }).hits).toEqual(lucene.search({ terms: luceneTerms }, { topK: 10, strategy: 'maxscore-daat' }).hits);
    const large = createBm25Index({ analyzer: whitespace, variant: 'bm25+', documents });
    const terms = [
      { term: 'common0', weight: 1 },
      { term: 'common1', weight: 1 },
      { term: 'common2', weight: 1 },
    ];
    const exhaustive = large.search({ terms }, { topK: 10, strategy: 'exhaustive' });
    const maxscore = large.search({ terms }, { topK: 10, strategy: 'maxscore' });
    const daat = large.search({ terms }, { topK: 10, strategy: 'maxscore-daat' });
    const auto = large.search({ terms }, { topK: 10 });
    expect(exhaustive.scoredPostings).toBe(20_000);
    expect(maxscore.scoredPostings).toBeLessThan(20_000);
    expect(daat.scoredPostings).toBeLessThan(20_000);
    expect(auto.scoredPostings).toBe(daat.scoredPostings);
    expect(daat.hits).toEqual(exhaustive.hits);
    expect(auto.hits).toEqual(exhaustive.hits);
    expect(maxscore.hits).toEqual(exhaustive.hits);
    const rare = large.search({ terms: [{ term: 'filler6', weight: 1 }] }, { topK: 10 }); // 0 postings (doc % 7 ≤ 6 fillers: filler0..filler5)
    expect(rare.hits).toEqual([]);
    const few = large.search({ terms: [{ term: 'filler5', weight: 1 }] }, { topK: 10 });
    expect(few.scoredPostings).toBe(large.documentFrequency('filler5')); // exhaustive: every posting scored
    expect(few.hits).toEqual(large.search({ terms: [{ term: 'filler5', weight: 1 }] }, { topK: 10, strategy: 'exhaustive' }).hits);
  });

  // Block-max skipping (search-kernel scanListBlockMax) closes 128-posting blocks whose best contribution cannot lift an
  // unseen document into the top k; widely varying lengths and tfs make block maxima differ, so blocks really close.
  const skewedCorpus = Array.from({ length: 6000 }, (_, doc) => {
    const length = 1 + (Math.floor(doc / 300) % 20) * 12 + ((doc * 7919) % 13); // clustered: block maxima differ
    const words: string[] = [];
    for (let position = 0; position < length; position++) words.push(`s${(doc * 13 + position * position * 7) % (position % 4 === 0 ? 5 : 300)}`);
    if (doc % 37 === 0) for (let repeat = 0; repeat < doc % 9; repeat++) words.push('s1', 's2');
    if (doc % 50 === 0) words.push('rare', ...(doc % 150 === 0 ? ['rare'] : []));
    words.push(doc % 3 === 0 ? 'x' : doc % 3 === 1 ? 'y' : 'z', ...(doc === 1 || doc === 4 ? ['y', 'y', 'y', 'y'] : []));
    return { id: `k${doc}`, text: words.join(' ') };
  });
  const skewedIndex = createBm25Index({ analyzer: whitespace, documents: skewedCorpus });
  it('block-max skipping in the pruned strategy returns exactly the exhaustive hits (skewed lengths and tfs)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ term: fc.constantFrom('rare', 'x', 'y', 'z', 'x', 'y', 's0', 's1', 's2', 's3', 's4', 's5', 's7', 's12', 's40', 's299'), weight: fc.constantFrom(1, 1, 2, 0.5) }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 20 }),
        (terms, topK) => {
          const exhaustive = skewedIndex.search({ terms }, { topK, strategy: 'exhaustive' }).hits;
          expect(skewedIndex.search({ terms }, { topK, strategy: 'maxscore' }).hits).toEqual(exhaustive);
          expect(skewedIndex.search({ terms }, { topK }).hits).toEqual(exhaustive);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('document-at-a-time MaxScore keeps exhaustive tie order when the initial threshold equals many scores', () => {
    // 1,000 documents of equal length holding 'x' once: every 'x' contribution is the same, so the 10th-largest
    // contribution (the initial threshold) ties with hundreds of documents spread over many 128-posting blocks.
    const tied = createBm25Index({
      analyzer: whitespace,
      documents: Array.from({ length: 1_000 }, (_, doc) => ({ id: `t${doc}`, text: doc % 3 === 0 ? 'x y z' : doc % 3 === 1 ? 'x y w' : 'x w v' })),
    });
    for (const terms of [
      [{ term: 'x', weight: 1 }],
      [
        { term: 'x', weight: 1 },
        { term: 'y', weight: 1 },
      ],
      [
        { term: 'w', weight: 2 },
        { term: 'x', weight: 1 },
        { term: 'z', weight: 0.5 },
      ],
    ]) {
      for (const topK of [1, 5, 10, 11, 40]) {
        const exhaustive = tied.search({ terms }, { topK, strategy: 'exhaustive' }).hits;
        expect(exhaustive).toHaveLength(topK);
        expect(tied.search({ terms }, { topK, strategy: 'maxscore-daat' }).hits).toEqual(exhaustive);
        expect(tied.search({ terms }, { topK }).hits).toEqual(exhaustive);
      }
    }
  });

  it('on a 3,000-document corpus: rare-term and common-term queries, every strategy equals the explain() reference', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ term: fc.constantFrom(...vocabulary, ...bigVocabulary.slice(0, 40)), weight: fc.constantFrom(1, 1, 1, 2, 0.5) }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 15 }), (terms, topK) => {
        const exhaustive = bigIndex.search({ terms }, { topK, strategy: 'exhaustive' });
        for (const strategy of ['auto', 'maxscore', 'maxscore-daat'] as const) expect(bigIndex.search({ terms }, { topK, strategy }).hits).toEqual(exhaustive.hits);
        const scored = bigCorpus
          .map((document, doc) => ({ doc, explanation: bigIndex.explain({ terms }, document.id) }))
          .filter(({ explanation }) => explanation?.terms.some((term) => term.tf > 0))
          .map(({ doc, explanation }) => ({ doc, id: (explanation as { id: string }).id, score: (explanation as { score: number }).score }))
          .sort((a, b) => b.score - a.score || a.doc - b.doc)
          .slice(0, topK);
        expect(exhaustive.hits.map((hit) => [hit.id, hit.score])).toEqual(scored.map((hit) => [hit.id, hit.score]));
      }),
      { numRuns: 40 },
    );
  });

  it("statistics() reports the postings arrays' spare room (reservedBytes) apart from typedArrayBytes", () => {
    // A first merge of P postings into D documents reserves capacityFor(P) doc ids (4 bytes), as many 1-byte tfs
    // (every tf < 256 here) and capacityFor(D) lengths (4 bytes); the spare room is the part not yet written.
    const index = createBm25Index({ analyzer: whitespace, documents: bigCorpus });
    const statistics = index.statistics();
    const postings = statistics.postingCount;
    const documents = statistics.documentCount;
    expect(statistics.reservedBytes).toBe((capacityFor(postings) - postings) * 5 + (capacityFor(documents) - documents) * 4);
  });

  it('precomputed per-posting scores change memory, never hits: with and without them every strategy agrees', () => {
    const withoutImpacts = createBm25Index({ analyzer: whitespace, documents: bigCorpus, precomputeImpacts: false });
    const withImpacts = createBm25Index({ analyzer: whitespace, documents: bigCorpus, precomputeImpacts: true });
    expect(withImpacts.statistics().typedArrayBytes).toBeGreaterThan(withoutImpacts.statistics().typedArrayBytes);
    // SharedArrayBuffer accounting: the postings, factors and impacts are shared (Node has SharedArrayBuffer); the
    // impacts add exactly 4 bytes per posting to the shared bytes.
    const shared = withImpacts.statistics();
    const sharedWithout = withoutImpacts.statistics();
    expect(shared.sharedArrayBufferBytes).toBeGreaterThan(0);
    expect(shared.sharedArrayBufferBytes).toBeLessThanOrEqual(shared.typedArrayBytes);
    expect(shared.sharedArrayBufferBytes - sharedWithout.sharedArrayBufferBytes).toBe(4 * shared.postingCount);
    fc.assert(
      fc.property(
        fc.array(fc.record({ term: fc.constantFrom(...vocabulary, ...bigVocabulary.slice(0, 40)), weight: fc.constantFrom(1, 1, 2, 0.5) }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 15 }),
        fc.constantFrom('auto', 'maxscore', 'maxscore-daat', 'exhaustive'),
        (terms, topK, strategy) => {
          const expected = withImpacts.search({ terms }, { topK, strategy }).hits;
          expect(expected.length).toBeGreaterThan(0);
          expect(withoutImpacts.search({ terms }, { topK, strategy }).hits).toEqual(expected);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('createBm25Index: incremental add and remove', () => {
  it('after removals and additions, scores equal a fresh build of the same documents', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    index.search('cat');
    expect(index.removeDocument('d2')).toBe(true);
    expect(index.removeDocument('d2')).toBe(false);
    index.addDocument({ id: 'd5', text: 'cat bird bird' });
    const fresh = createBm25Index({ analyzer: whitespace, documents: [corpus[0], corpus[2], corpus[3], { id: 'd5', text: 'cat bird bird' }] as Document[] });
    for (const query of ['cat', 'bird', 'cat dog bird emu', 'fish']) expect(index.search(query).hits).toEqual(fresh.search(query).hits);
    expect(index.documentFrequency('fish')).toBe(0);
    expect(index.documentCount).toBe(4);
  });
  it('removes a document that was added but not yet merged', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    index.addDocument({ id: 'x', text: 'cat' });
    expect(index.removeDocument('x')).toBe(true);
    const fresh = createBm25Index({ analyzer: whitespace, documents: corpus });
    expect(index.search('cat').hits).toEqual(fresh.search('cat').hits);
  });
  it('matches a fresh build under random add/remove sequences', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 }), fc.constantFrom('a b', 'a a c', 'b c d', 'd')), { maxLength: 30 }), (operations) => {
        const index = createBm25Index({ analyzer: whitespace });
        const live = new Map<string, string>();
        for (const [add, key, text] of operations) {
          const id = `k${key}`;
          if (add) {
            index.addDocument({ id, text }, { onDuplicate: 'replace' });
            live.delete(id);
            live.set(id, text);
          } else {
            expect(index.removeDocument(id)).toBe(live.delete(id));
          }
          if (key % 3 === 0) index.search('a');
        }
        const fresh = createBm25Index({ analyzer: whitespace, documents: [...live].map(([id, text]) => ({ id, text })) });
        for (const query of ['a', 'b c', 'd a']) {
          expect(index.search(query, { topK: 20 }).hits.map((hit) => [hit.id, hit.score])).toEqual(fresh.search(query, { topK: 20 }).hits.map((hit) => [hit.id, hit.score]));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('createBm25Index: merging additions in place', () => {
  it('batches merged one by one (in place or not, while retained or not) give the bytes of a one-shot build', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
    const batch = fc.array(
      fc.array(word, { maxLength: 8 }).map((words) => words.join(' ')),
      { minLength: 0, maxLength: 12 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(batch, fc.boolean(), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 8 }), (batches) => {
        const index = createBm25Index({ analyzer: whitespace });
        const state = getIndexState(index, 'test');
        const all: Document[] = [];
        let next = 0;
        for (const [texts, retain, longDocument, newTerm] of batches) {
          const documents: Document[] = texts.map((text) => ({ id: `d${next++}`, text }));
          // A term seen the first time late (vocabulary growth) and term frequencies over 255 (wider tf arrays).
          if (newTerm) documents.push({ id: `d${next++}`, text: `new${next} a` });
          if (longDocument) documents.push({ id: `d${next++}`, text: 'b '.repeat(300) });
          index.addDocuments(documents);
          all.push(...documents);
          const release = retain ? state.retain() : undefined; // a retained index merges into new arrays
          index.documentFrequency('a'); // merges
          release?.();
        }
        const fresh = createBm25Index({ analyzer: whitespace, documents: all });
        expect(serializeBm25Index(index)).toEqual(serializeBm25Index(fresh));
        for (const query of ['a', 'b c', 'g f e']) expect(index.search(query, { topK: 50 }).hits).toEqual(fresh.search(query, { topK: 50 }).hits);
      }),
      { numRuns: 150 },
    );
  });

  it('merges on its own once mergePendingAt postings are pending: same bytes and hits as merging only before reads', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 15 }),
            fc.array(word, { maxLength: 6 }).map((words) => words.join(' ')),
            fc.constantFrom('add', 'replace', 'remove', 'search'),
          ),
          { maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        (operations, mergePendingAt, titled) => {
          const eager = createBm25Index({ analyzer: whitespace, mergePendingAt, ...(titled ? { fields: { title: 2, text: 1 } } : {}) });
          const lazy = createBm25Index({ analyzer: whitespace, mergePendingAt: Number.POSITIVE_INFINITY, ...(titled ? { fields: { title: 2, text: 1 } } : {}) });
          for (const [key, text, operation] of operations) {
            const document = { id: `k${key}`, text, title: text.slice(0, 3) };
            for (const index of [eager, lazy]) {
              if (operation === 'remove') index.removeDocument(document.id);
              else if (operation === 'search') index.search('a b');
              else index.addDocuments([document, { ...document, id: `n${key}` }], { onDuplicate: operation === 'replace' ? 'replace' : 'skip' });
            }
          }
          expect(serializeBm25Index(eager)).toEqual(serializeBm25Index(lazy));
          for (const query of ['a', 'b c', 'g f e']) expect(eager.search(query, { topK: 50 }).hits).toEqual(lazy.search(query, { topK: 50 }).hits);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('bounds the pending postings of a large build by mergePendingAt (merged without any read)', () => {
    const store = createPostingsStore({ analyzer: whitespace, fieldNames: ['contents'], flat: true, storeDocuments: false, mergePendingAt: 100 });
    let added = 0;
    let merges = 0;
    let last = 0;
    for (let doc = 0; doc < 300; doc++) {
      store.addDocuments([{ id: `d${doc}`, text: `a${doc % 7} b${doc % 11} c${doc % 13} a${doc % 7}` }]);
      added += 3;
      const merged = (store.fields[0] as { postingDocs: Uint32Array }).postingDocs.length; // the store's getter never merges
      if (merged !== last) merges++;
      last = merged;
      expect(added - merged).toBeLessThan(100);
      expect(added - merged).toBeGreaterThanOrEqual(0);
    }
    expect(merges).toBe(Math.floor(900 / 102)); // every 34 documents (102 postings ≥ 100)
  });

  it('reserves 8× while small, then one 2²⁸-element reserve, so copying merges past 2²⁶ postings stop below 2²⁸', () => {
    expect(capacityFor(0)).toBe(0);
    expect(capacityFor(1000)).toBe(8000);
    expect(capacityFor(2 ** 23)).toBe(2 ** 26);
    expect(capacityFor(2 ** 23 + 1)).toBe(2 ** 28);
    expect(capacityFor(2 ** 28 - 1)).toBe(2 ** 28);
    expect(capacityFor(2 ** 28)).toBe(2 ** 29);
    expect(capacityFor(2 ** 31)).toBe(2 ** 31 + 2 ** 30);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 33 }), (needed) => {
        const capacity = capacityFor(needed);
        expect(capacity).toBeGreaterThanOrEqual(needed);
        // A growing index: once an allocation is past 2²⁶, the next copy is at 2²⁸ or more.
        if (capacity > 2 ** 26) expect(capacity).toBeGreaterThanOrEqual(2 ** 28);
        expect(capacity).toBeLessThanOrEqual(Math.max(2 ** 28, needed + 2 ** 30));
      }),
    );
  });

  it('does not overwrite arrays a retained reader holds', () => {
    const index = createBm25Index({
      analyzer: whitespace,
      documents: [
        { id: 'x', text: 'a b' },
        { id: 'y', text: 'b c' },
      ],
    });
    const state = getIndexState(index, 'test');
    const held = state.fields[0];
    const snapshot = held ? [Array.from(held.postingDocs), Array.from(held.postingTfs), Array.from(held.termOffsets)] : [];
    const release = state.retain();
    index.addDocuments([{ id: 'z', text: 'a a c' }]);
    index.documentFrequency('a');
    expect(held ? [Array.from(held.postingDocs), Array.from(held.postingTfs), Array.from(held.termOffsets)] : []).toEqual(snapshot);
    release();
    const buffer = state.fields[0]?.postingDocs.buffer;
    index.addDocuments([{ id: 'w', text: 'a' }]);
    expect(index.documentFrequency('a')).toBe(3);
    expect(state.fields[0]?.postingDocs.buffer).toBe(buffer); // released: merged in place, in the spare room
    expect(Array.from(state.fields[0]?.postingDocs ?? [])).toEqual([0, 2, 3, 0, 1, 1, 2]);
  });
});

describe('createBm25Index: per-search k1 / b overrides', () => {
  const avgdl = (3 + 5 + 2 + 1) / 4;
  it('scores with the overriding k1 and b (hand-computed), and the index keeps its own afterwards', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    const overridden = index.search('cat', { k1: 1.2, b: 0.75 });
    expect(overridden.hits.map((hit) => [hit.id, hit.score])).toEqual([
      ['d1', luceneScore(2, 3, avgdl, 2, 4, 1.2, 0.75)],
      ['d2', luceneScore(1, 5, avgdl, 2, 4, 1.2, 0.75)],
    ]);
    // b = 0: no length normalisation, so the score depends on tf alone.
    const flat = index.search('fish bird', { b: 0 });
    const d2 = luceneScore(3, 5, avgdl, 1, 4, 0.9, 0) + luceneScore(1, 5, avgdl, 2, 4, 0.9, 0);
    expect(flat.hits[0]).toMatchObject({ id: 'd2' });
    expect(flat.hits[0]?.score).toBeCloseTo(d2, 6);
    expect(flat.hits[1]).toMatchObject({ id: 'd3', score: luceneScore(1, 2, avgdl, 2, 4, 0.9, 0) });
    // k1 only: b stays the index's 0.4.
    expect(index.search('cat', { k1: 2 }).hits[0]?.score).toBe(luceneScore(2, 3, avgdl, 2, 4, 2, 0.4));
    expect(index.search('cat').hits[0]?.score).toBe(luceneScore(2, 3, avgdl, 2, 4));
    expect(index.parameters).toMatchObject({ k1: 0.9, b: 0.4 });
    expect(index.explain('cat', 'd1', { k1: 1.2, b: 0.75 })?.score).toBe(luceneScore(2, 3, avgdl, 2, 4, 1.2, 0.75));
  });
  it('gives the same hits with every strategy under overrides', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    const expected = index.search('cat dog bird fish', { k1: 1.5, b: 1, strategy: 'exhaustive' }).hits;
    for (const strategy of ['auto', 'maxscore', 'maxscore-daat'] as const) expect(index.search('cat dog bird fish', { k1: 1.5, b: 1, strategy }).hits).toEqual(expected);
  });
  it('rejects out-of-range overrides, naming the argument', () => {
    const index = createBm25Index({ analyzer: whitespace, documents: corpus });
    expect(() => index.search('cat', { k1: -0.1 })).toThrow(/"k1"/);
    expect(() => index.search('cat', { b: 2 })).toThrow(/"b"/);
    expect(() => index.explain('cat', 'd1', { b: Number.NaN })).toThrow(/"b"/);
  });
});

describe('createBm25Index: searchBatch', () => {
  it('returns exactly what search returns, query by query, for every strategy and with overrides', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const documents = Array.from({ length: 400 }, (_, index) => ({ id: `d${index}`, text: Array.from({ length: 20 }, () => `t${Math.floor(random() ** 3 * 200)}`).join(' ') }));
    const index = createBm25Index({ analyzer: whitespace, documents });
    const queries: (string | { terms: { term: string; weight: number }[] })[] = Array.from({ length: 30 }, () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => `t${Math.floor(random() ** 2 * 200)}`).join(' '));
    queries.push('', 'unknown-term', {
      terms: [
        { term: 't1', weight: 0.3 },
        { term: 't7', weight: 1.7 },
      ],
    });
    for (const strategy of ['auto', 'maxscore', 'maxscore-daat', 'exhaustive'] as const) {
      for (const options of [
        { topK: 5, strategy },
        { topK: 50, strategy, k1: 1.3, b: 0.9 },
      ]) {
        const batch = index.searchBatch(queries, options);
        expect(batch).toHaveLength(queries.length);
        batch.forEach((result, position) => expect(result).toEqual(index.search(queries[position] as string, options)));
      }
    }
    expect(index.searchBatch(queries)[0]?.hits.length).toBeGreaterThan(0);
    expect(() => index.searchBatch('t1' as never)).toThrow(/"queries"/);
  });
});

describe('createBm25Index: bad input', () => {
  it('an empty corpus gives no hits and no error', () => {
    const index = createBm25Index();
    expect(index.search('anything')).toMatchObject({ hits: [] });
    expect(index.statistics().documentCount).toBe(0);
  });
  it('an empty query gives no hits and a no-searchable-terms problem', () => {
    const index = createBm25Index({ documents: [{ id: 'a', text: 'cats' }] });
    for (const query of ['', '   ', 'the of and']) {
      const result = index.search(query);
      expect(result.hits).toEqual([]);
      expect(result.problems).toEqual([{ code: 'no-searchable-terms', message: 'query has no searchable terms after analysis' }]);
    }
    expect(index.search('cats').problems).toEqual([]);
  });
  it('rejects duplicate ids (the whole batch) unless told to skip or replace', () => {
    const index = createBm25Index({ documents: [{ id: 'a', text: 'cats' }] });
    expect(() =>
      index.addDocuments([
        { id: 'b', text: 'dogs' },
        { id: 'a', text: 'again' },
      ]),
    ).toThrow(/duplicate id "a"/);
    expect(index.hasDocument('b')).toBe(false);
    expect(() =>
      createBm25Index({
        documents: [
          { id: 'x', text: '1' },
          { id: 'x', text: '2' },
        ],
      }),
    ).toThrow(InvalidArgumentError);
    const skipped = index.addDocuments(
      [
        { id: 'a', text: 'again' },
        { id: 'c', text: 'cows' },
      ],
      { onDuplicate: 'skip' },
    );
    expect(skipped).toMatchObject({ added: 1, problems: [{ index: 0, id: 'a', code: 'duplicate-id' }] });
    index.addDocument({ id: 'a', text: 'dogs' }, { onDuplicate: 'replace' });
    expect(index.search('dog').hits.map((hit) => hit.id)).toEqual(['a']);
  });
  it('rejects malformed documents and out-of-range options, naming the argument', () => {
    expect(() => createBm25Index({ documents: [{ id: 'a' } as Document] })).toThrow(/has no string "text"/);
    expect(() => createBm25Index({ k1: -1 })).toThrow(/"k1"/);
    expect(() => createBm25Index({ b: 1.5 })).toThrow(/"b"/);
    expect(() => createBm25Index({ variant: 'bm26' as never })).toThrow(/"variant"/);
    // Any named field is allowed; one other than title / text needs fieldText to be read, and `contents` is reserved.
    expect(() => createBm25Index({ fields: { body: 1 }, documents: [{ id: 'a', text: 'x' }] })).toThrow(/"fieldText" is needed to read field "body"/);
    expect(() => createBm25Index({ fields: { contents: 1 } })).toThrow(/reserved/);
    expect(() => createBm25Index({ fields: { body: 1 }, fieldText: 'body' as never })).toThrow(/"fieldText" must be a function/);
    for (const bad of [0, -1, 1.5, Number.NaN, '5' as never]) expect(() => createBm25Index({ mergePendingAt: bad })).toThrow(/"mergePendingAt"/);
    const index = createBm25Index({ documents: corpus });
    expect(() => index.search('cat', { topK: 0 })).toThrow(/"topK"/);
    expect(() => index.search({ terms: [{ term: 'cat', weight: Number.NaN }] })).toThrow(/weight/);
  });
});
