import type { Retriever } from '@factkit/core';
import { EMPTY_USAGE, InvalidArgumentError } from '@factkit/core';
import { createMockEmbedder } from '@factkit/core/testing';
import { describe, expect, it } from 'vitest';
import { buildFastTrackIndex } from '../index/fasttrack-index.js';
import { supportJudgement, type SupportJudge } from '../judge/support-judge.js';
import { createClassTfidfLabeller } from '../labels/class-tfidf-labeller.js';
import type { KeywordLabeller } from '../labels/keyword-labeller.js';
import { createFastTrack } from '../online/fasttrack.js';
import { runTraceStudy, scoreTraceMethod } from './run-trace-study.js';

const documents = [
  { id: 'd1', text: 'Cats purr when they are content.' },
  { id: 'd2', text: 'Dogs bark at strangers.' },
  { id: 'd3', text: 'A cat sleeps most of the day.' },
  { id: 'd4', text: 'Birds sing in the morning.' },
];

/** Supports a candidate when it shares the statement's first word stem (cat/dog/bird); null ("could not decide") for d4 on "birds". */
const judge: SupportJudge = {
  id: 'scripted-judge',
  batchSize: 10,
  async judge({ query, candidates }) {
    const stem = query.toLowerCase().slice(0, 3);
    return {
      judgements: candidates.map((candidate) => supportJudgement(candidate.documentId, stem === 'bir' && candidate.documentId === 'd4' ? undefined : candidate.text.toLowerCase().includes(stem), [])),
      calls: [],
      usage: EMPTY_USAGE,
    };
  },
};

const statements = [{ text: 'cats purr', gold: ['d1'] }, { text: 'dogs bark', gold: ['d2'] }, { text: 'birds sing', gold: ['d4'] }, { text: 'no gold here' }];

describe('runTraceStudy', () => {
  it('scores FastTrack, Ours*, brute force and a best-k ranking baseline by set P/R/F1 (hand-checked)', async () => {
    const embedder = createMockEmbedder({ dimensions: 16 });
    // One leaf holds the whole corpus, so FastTrack's candidates are every document.
    const { index } = await buildFastTrackIndex(documents, { embedder, labeller: createClassTfidfLabeller(), k: 2, maxLeafSize: 10, seed: 0 });
    const fastTrack = createFastTrack({ index, judge, embedder });
    const result = await runTraceStudy({
      statements,
      tracers: [{ name: 'FastTrack', fastTrack }],
      bruteForce: { judge, documents },
      rankers: [
        {
          name: 'BM25',
          rankings: [
            ['d3', 'd1', 'd2'],
            ['d2', 'd1', 'd3'],
            ['d4', 'd2', 'd1'],
            ['d1', 'd2', 'd3'],
          ],
        },
      ],
    });
    expect(result.methods.map((method) => [method.method, method.kind])).toEqual([
      ['FastTrack', 'fasttrack'],
      ['Ours* (stage-1 upper bound of FastTrack)', 'upper-bound'],
      ['brute force (scripted-judge, every document)', 'brute-force'],
      ['BM25', 'ranking'],
    ]);
    const [fast, upper, brute, bm25] = result.methods;
    // "cats purr": {d1, d3} vs {d1}: P 1/2, R 1, F1 2/3. "dogs bark": {d2}: 1, 1, 1. "birds sing": d4 undecided → left out.
    expect(fast!.perStatement[0]!.supporting).toEqual(['d1', 'd3']);
    expect(fast!.perStatement[2]!.incomplete).toBe(true);
    expect(fast!.scores!.statements).toBe(2);
    expect(fast!.scores!.leftOut).toBe(1);
    expect(fast!.scores!.precision.mean).toBeCloseTo(0.75, 12);
    expect(fast!.scores!.recall.mean).toBe(1);
    expect(fast!.scores!.f1.mean).toBeCloseTo((2 / 3 + 1) / 2, 12);
    expect(fast!.scores!.f1.standardError).toBeCloseTo(Math.abs(1 - 2 / 3) / 2, 12); // SD of two values / √2
    // Ours*: gold among the candidates → perfect on all three statements with gold.
    expect(upper!.scores).toMatchObject({ statements: 3, leftOut: 0, f1: { mean: 1 } });
    expect(brute!.scores!.f1.mean).toBeCloseTo(fast!.scores!.f1.mean, 12);
    // BM25 at one k: k=1 → F1 (0 + 1 + 1)/3 = 2/3; k=2 → (2/3 + 2/3 + 2/3)/3 = 2/3 (tie: smallest k wins).
    expect(bm25!.k).toBe(1);
    expect(bm25!.scores!.f1.mean).toBeCloseTo(2 / 3, 12);
    expect(bm25!.perStatement[3]!.supporting).toEqual(['d1']);
    expect(result.statementsWithGold).toBe(3);
    expect(result.incomplete).toEqual([
      'FastTrack: 1 of 4 statements incomplete (judge undecided or call failed), left out of its scores',
      'brute force (scripted-judge, every document): 1 of 4 statements incomplete (judge undecided or call failed), left out of its scores',
    ]);
  });

  it('a failed keyword call is never hidden: every statement is incomplete and left out of the scores (issue 21 §1)', async () => {
    const embedder = createMockEmbedder({ dimensions: 16 });
    const tfidf = createClassTfidfLabeller();
    // The class TF-IDF labeller, except that the call for the first leaf fails (as an LLM call failing after retries).
    const flaky: KeywordLabeller = {
      id: 'flaky-labeller',
      async label(request) {
        const labels = await tfidf.label(request);
        const failedLeaf = request.clusters[0]!.leafId;
        return labels.map((label) => (label.leafId === failedLeaf ? { leafId: label.leafId, status: 'failed' as const, keywords: [], problems: [{ code: 'call-failed', message: 'HTTP 500 after 2 retries' }] } : label));
      },
    };
    const { index } = await buildFastTrackIndex(documents, { embedder, labeller: flaky, k: 2, maxLeafSize: 2, seed: 0 });
    expect(index.tree.leaves.length).toBeGreaterThan(1);
    const fastTrack = createFastTrack({ index, judge, embedder });
    const traced = await fastTrack.trace('cats purr');
    expect(traced.unlabelledLeaves).toHaveLength(1);
    expect(traced.problems.map((problem) => problem.code)).toContain('unlabelled-leaves');
    const result = await runTraceStudy({ statements: statements.slice(0, 2), tracers: [{ name: 'FastTrack', fastTrack }] });
    const [fast, upper] = result.methods;
    expect(fast!.perStatement.map((run) => run.incomplete)).toEqual([true, true]);
    expect(fast!.scores).toBeUndefined();
    expect(upper!.scores).toBeUndefined();
    expect(result.incomplete[0]).toBe('FastTrack: 2 of 2 statements incomplete (judge undecided or call failed), left out of its scores');
  });

  it('a failed retrieval is never a ranking: the statement is left out and reported', async () => {
    const retriever: Retriever = {
      id: 'flaky',
      async retrieve({ query }) {
        if (query.text.startsWith('dogs')) throw new Error('index offline');
        return { evidence: [{ documentId: 'd1', text: 'x', score: 1 }] } as never;
      },
    };
    const result = await runTraceStudy({ statements: statements.slice(0, 2), rankers: [{ name: 'flaky', retriever }] });
    const [run] = result.methods;
    expect(run!.perStatement[1]).toMatchObject({ supporting: [], incomplete: true, problems: [{ code: 'retrieval-failed' }] });
    expect(run!.scores).toMatchObject({ statements: 1, leftOut: 1, f1: { mean: 1 } });
  });

  it('no statement with gold: no scores, ranking k = defaultK; bad options throw', async () => {
    const result = await runTraceStudy({ statements: [{ text: 'cats' }], rankers: [{ name: 'r', rankings: [['d1', 'd2', 'd3']] }], defaultK: 2 });
    expect(result.methods[0]!.scores).toBeUndefined();
    expect(result.methods[0]!.perStatement[0]!.supporting).toEqual(['d1', 'd2']);
    expect(scoreTraceMethod([{ text: 'x', gold: ['a'] }], [{ supporting: [], incomplete: true, problems: [] }])).toBeUndefined();
    await expect(runTraceStudy({ statements: [{ text: '' }] })).rejects.toThrow(InvalidArgumentError);
    await expect(runTraceStudy({ statements: [{ text: 'x', gold: [] }] })).rejects.toThrow(/gold/);
    await expect(runTraceStudy({ statements: [{ text: 'x' }], rankers: [{ name: 'r', rankings: [] }] })).rejects.toThrow(/"r"/);
    await expect(runTraceStudy({ statements: [{ text: 'x' }], maxK: 0 })).rejects.toThrow(/maxK/);
  });
});
