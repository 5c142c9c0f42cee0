import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Evidence } from '@factkit/core';
import { InvalidArgumentError } from '@factkit/core';
import { describeRerankerContract } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBagOfWordsClassifier } from '../test/fixtures/onnx-fixtures.js';
import { createTransformersCrossEncoder } from './transformers-cross-encoder.js';

// A LOADING FIXTURE, not a relevance model: its one logit is the mean, over the [CLS] query [SEP] passage [SEP] tokens,
// of per-word weights ("vitamin" 6, "bone" 3, "paris" -6, other words 0), so scores can be worked out by hand.
const WEIGHTS: Record<string, number> = { vitamin: 6, bone: 3, paris: -6 };
const NEUTRAL_WORDS = ['d', 'deficiency', 'loss', 'the', 'capital', 'of', 'france', 'is', 'density', 'age', 'with', 'declines', 'notes'];
let root: string;

/** Hand computation of the fixture's logit for a token sequence. */
const logit = (tokens: string[]) => tokens.reduce((sum, token) => sum + (WEIGHTS[token] ?? 0), 0) / tokens.length;

const candidate = (documentId: string, text: string, title?: string): Evidence => ({ documentId, text, score: 0, origin: { documentId, ...(title ? { title } : {}) } });
const candidates = [candidate('paris', 'the capital of france is paris'), candidate('density', 'bone density declines with age'), candidate('vitamin', 'vitamin d deficiency', 'notes')];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'factkit-cross-encoder-'));
  const wordLogits = Object.entries(WEIGHTS).map(([word, weight]) => [word, [weight]] as [string, number[]]);
  await writeBagOfWordsClassifier({ directory: join(root, 'one-logit'), id2label: { 0: 'LABEL_0' }, wordLogits, neutralWords: NEUTRAL_WORDS });
  // Two labels (not relevant, relevant): "vitamin" votes relevant, "paris" not relevant.
  await writeBagOfWordsClassifier({
    directory: join(root, 'two-labels'),
    id2label: { 0: 'not_relevant', 1: 'relevant' },
    wordLogits: [
      ['vitamin', [0, 6]],
      ['paris', [6, 0]],
    ],
    neutralWords: [...NEUTRAL_WORDS, 'bone'],
  });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createTransformersCrossEncoder on a repo-built classifier fixture', () => {
  it('scores each (query, passage) pair as one text pair and sorts by the logit (hand-computed)', async () => {
    const reranker = createTransformersCrossEncoder({ modelPath: join(root, 'one-logit') });
    expect(reranker.id).toBe('cross-encoder:one-logit');
    const { evidence } = await reranker.rerank({ query: { text: 'bone' }, evidence: candidates });
    const expected = {
      paris: logit(['[CLS]', 'bone', '[SEP]', 'the', 'capital', 'of', 'france', 'is', 'paris', '[SEP]']),
      density: logit(['[CLS]', 'bone', '[SEP]', 'bone', 'density', 'declines', 'with', 'age', '[SEP]']),
      // The title goes before the text, as BEIR's reranking does.
      vitamin: logit(['[CLS]', 'bone', '[SEP]', 'notes', 'vitamin', 'd', 'deficiency', '[SEP]']),
    };
    expect(evidence.map((item) => item.documentId)).toEqual(['vitamin', 'density', 'paris']);
    for (const item of evidence) expect(item.score).toBeCloseTo(expected[item.documentId as keyof typeof expected], 5);
    expect(evidence.map((item) => item.rank)).toEqual([1, 2, 3]);
    expect(evidence[0]?.origin).toEqual({ documentId: 'vitamin', title: 'notes' });
  });

  it('gives the same scores whatever the batch size, and keeps topK of the full order', async () => {
    const [one, all] = await Promise.all([
      createTransformersCrossEncoder({ modelPath: join(root, 'one-logit'), maxBatchSize: 1 }).rerank({ query: { text: 'vitamin bone' }, evidence: candidates }),
      createTransformersCrossEncoder({ modelPath: join(root, 'one-logit'), maxBatchSize: 8 }).rerank({ query: { text: 'vitamin bone' }, evidence: candidates, topK: 2 }),
    ]);
    expect(all.evidence.map((item) => item.documentId)).toEqual(one.evidence.slice(0, 2).map((item) => item.documentId));
    all.evidence.forEach((item, index) => expect(item.score).toBeCloseTo(one.evidence[index]?.score as number, 6));
  });

  it("scores a two-label model by the relevant label's probability", async () => {
    const { evidence } = await createTransformersCrossEncoder({ modelPath: join(root, 'two-labels') }).rerank({ query: { text: 'bone' }, evidence: candidates });
    // vitamin passage: mean logits (0, 6/8) → p(relevant) = 1 / (1 + e^(-0.75)).
    expect(evidence[0]?.documentId).toBe('vitamin');
    expect(evidence[0]?.score).toBeCloseTo(1 / (1 + Math.exp(-6 / 8)), 5);
    expect(evidence.at(-1)?.documentId).toBe('paris');
  });

  it('rejects a missing directory and out-of-range options, and answers an empty query with a problem', async () => {
    expect(() => createTransformersCrossEncoder({ modelPath: join(root, 'missing') })).toThrow(InvalidArgumentError);
    expect(() => createTransformersCrossEncoder({ modelPath: join(root, 'two-labels'), relevantLabel: 2 })).toThrow(/relevantLabel/);
    const result = await createTransformersCrossEncoder({ modelPath: join(root, 'one-logit') }).rerank({ query: { text: ' ' }, evidence: candidates });
    expect(result.evidence).toEqual([]);
    expect(result.problems?.[0]?.code).toBe('empty-query');
  });
});

describeRerankerContract('transformers cross-encoder (fixture)', () => createTransformersCrossEncoder({ modelPath: join(root, 'one-logit') }), {
  query: 'vitamin',
  candidates,
  expectedFirstId: 'vitamin',
});
