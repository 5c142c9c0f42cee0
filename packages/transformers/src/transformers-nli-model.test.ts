import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@factkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBagOfWordsClassifier, writeStaticEmbeddingModel } from '../test/fixtures/onnx-fixtures.js';
import { createTransformersNliModel } from './transformers-nli-model.js';

// A LOADING FIXTURE, not an NLI model: the logits are the mean over [CLS] premise [SEP] hypothesis [SEP] tokens of
// per-word evidence: "yes" → entailment, "maybe" → neutral, "no" → contradiction, other words 0.
const ID2LABEL = { 0: 'CONTRADICTION', 1: 'NEUTRAL', 2: 'ENTAILMENT' } as const; // roberta-large-mnli's order
const WORD_LOGITS: Array<[string, number[]]> = [
  ['no', [6, 0, 0]],
  ['maybe', [0, 6, 0]],
  ['yes', [0, 0, 6]],
];
const NEUTRAL_WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'a', 'dog', 'ran', 'park', 'in'];

let root: string;
let modelPath: string;
let shortModelPath: string;

/** Hand computation: softmax over the (contradiction, neutral, entailment) means. */
function expectedScores(tokens: string[]): { entailment: number; neutral: number; contradiction: number } {
  const sums = [0, 0, 0];
  for (const token of tokens) {
    const logits = WORD_LOGITS.find(([word]) => word === token)?.[1] ?? [0, 0, 0];
    logits.forEach((value, index) => (sums[index] = (sums[index] as number) + value));
  }
  const means = sums.map((sum) => sum / tokens.length);
  const exps = means.map(Math.exp);
  const total = exps.reduce((a, b) => a + b, 0);
  return { contradiction: (exps[0] as number) / total, neutral: (exps[1] as number) / total, entailment: (exps[2] as number) / total };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'factkit-transformers-nli-'));
  modelPath = join(root, 'bow-nli');
  shortModelPath = join(root, 'bow-nli-16');
  await writeBagOfWordsClassifier({ directory: modelPath, id2label: ID2LABEL, wordLogits: WORD_LOGITS, neutralWords: NEUTRAL_WORDS });
  await writeBagOfWordsClassifier({ directory: shortModelPath, id2label: ID2LABEL, wordLogits: WORD_LOGITS, neutralWords: NEUTRAL_WORDS, modelMaxLength: 16 });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createTransformersNliModel on a bag-of-words classifier fixture', () => {
  it('encodes premise and hypothesis as a pair and maps id2label to NLI labels (hand-computed softmax)', async () => {
    const nli = createTransformersNliModel({ modelPath });
    const { results } = await nli.classify({
      pairs: [
        { premise: 'yes the cat', hypothesis: 'cat' },
        { premise: 'the dog ran', hypothesis: 'no' },
        { premise: 'maybe', hypothesis: 'maybe a cat' },
      ],
    });
    const expected = [
      expectedScores(['[CLS]', 'yes', 'the', 'cat', '[SEP]', 'cat', '[SEP]']),
      expectedScores(['[CLS]', 'the', 'dog', 'ran', '[SEP]', 'no', '[SEP]']),
      expectedScores(['[CLS]', 'maybe', '[SEP]', 'maybe', 'a', 'cat', '[SEP]']),
    ];
    expect(results.map((result) => result.label)).toEqual(['entailment', 'contradiction', 'neutral']);
    results.forEach((result, index) => {
      for (const label of ['entailment', 'neutral', 'contradiction'] as const) {
        expect(result.scores?.[label]).toBeCloseTo(expected[index]?.[label] as number, 5);
      }
    });
  });

  it('gives the same predictions whatever the batch size (padding is masked)', async () => {
    const pairs = [
      { premise: 'yes', hypothesis: 'the cat sat on the mat' },
      { premise: 'the cat sat on the mat in the park', hypothesis: 'no' },
      { premise: 'maybe the dog', hypothesis: 'ran' },
    ];
    const [one, all] = await Promise.all([createTransformersNliModel({ modelPath, maxBatchSize: 1 }).classify({ pairs }), createTransformersNliModel({ modelPath, maxBatchSize: 8 }).classify({ pairs })]);
    one.results.forEach((result, index) => {
      expect(result.label).toBe(all.results[index]?.label);
      expect(result.scores?.entailment).toBeCloseTo(all.results[index]?.scores?.entailment as number, 6);
    });
  });

  it('splits a long premise into sentence chunks instead of losing its end to truncation', async () => {
    const premise = 'The cat sat on the mat. The dog ran in the park. The cat sat in the park. Yes the dog sat.';
    const pair = { premise, hypothesis: 'the dog' };
    const split = await createTransformersNliModel({ modelPath: shortModelPath }).classify({ pairs: [pair] });
    const truncated = await createTransformersNliModel({ modelPath: shortModelPath, splitLongPremises: false }).classify({ pairs: [pair] });
    expect(split.results[0]?.label).toBe('entailment');
    // The deciding chunk is the last sentence: [CLS] yes the dog sat . [SEP] the dog [SEP] ("." is [UNK], weight 0).
    expect(split.results[0]?.scores?.entailment).toBeCloseTo(expectedScores(['[CLS]', 'yes', 'the', 'dog', 'sat', '.', '[SEP]', 'the', 'dog', '[SEP]']).entailment, 5);
    // Truncated to 16 tokens, the "yes" at the end is cut off: all logits 0, uniform scores.
    expect(truncated.results[0]?.scores?.entailment).toBeCloseTo(1 / 3, 5);
    expect(truncated.results[0]?.label).toBe('neutral');
  });

  it('reports malformed pairs per item and still classifies the rest', async () => {
    const nli = createTransformersNliModel({ modelPath });
    const { results } = await nli.classify({
      pairs: [{ premise: 'yes', hypothesis: 'cat' }, { premise: 3, hypothesis: 'x' } as unknown as { premise: string; hypothesis: string }, null as unknown as { premise: string; hypothesis: string }],
    });
    expect(results[0]?.label).toBe('entailment');
    expect(results[1]).toEqual({ label: null, problem: expect.stringContaining('premise') });
    expect(results[2]).toEqual({ label: null, problem: expect.stringContaining('premise') });
  });

  it('needs a labelMap for unrecognised labels, and uses it', async () => {
    const opaque = join(root, 'opaque');
    await writeBagOfWordsClassifier({ directory: opaque, id2label: { 0: 'LABEL_0', 1: 'LABEL_1', 2: 'LABEL_2' }, wordLogits: WORD_LOGITS, neutralWords: NEUTRAL_WORDS });
    let caught: unknown;
    try {
      createTransformersNliModel({ modelPath: opaque });
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught) && caught.argument === 'labelMap').toBe(true);
    expect((caught as Error).message).toContain('"LABEL_0"');
    const nli = createTransformersNliModel({ modelPath: opaque, labelMap: { LABEL_0: 'contradiction', LABEL_1: 'neutral', LABEL_2: 'entailment' } });
    expect((await nli.classify({ pairs: [{ premise: 'no', hypothesis: 'cat' }] })).results[0]?.label).toBe('contradiction');
  });

  it('sums probabilities of model labels mapped to the same NLI label (2-way model)', async () => {
    const binary = join(root, 'binary');
    await writeBagOfWordsClassifier({
      directory: binary,
      id2label: { 0: 'entailment', 1: 'not_entailment' },
      wordLogits: [
        ['yes', [4, 0]],
        ['no', [0, 4]],
      ],
      neutralWords: NEUTRAL_WORDS,
    });
    const nli = createTransformersNliModel({ modelPath: binary, labelMap: { not_entailment: 'neutral' } });
    const { results } = await nli.classify({ pairs: [{ premise: 'no', hypothesis: 'cat' }] });
    expect(results[0]?.label).toBe('neutral');
    expect(results[0]?.scores?.contradiction).toBe(0);
    expect((results[0]?.scores?.entailment as number) + (results[0]?.scores?.neutral as number)).toBeCloseTo(1, 6);
  });

  it('rejects directories that are not sequence classifiers, and bad options', async () => {
    const encoder = join(root, 'encoder-only');
    await writeStaticEmbeddingModel({ directory: encoder, vectors: [['cat', Float32Array.from([1, 0])]], dimensions: 2 });
    expect(() => createTransformersNliModel({ modelPath: encoder })).toThrowError(/no id2label/);
    expect(() => createTransformersNliModel({ modelPath: join(root, 'missing') })).toThrowError(/not an existing directory/);
    expect(() => createTransformersNliModel({ modelPath, maxBatchSize: 0 })).toThrowError(/maxBatchSize/);
    expect(() => createTransformersNliModel({ modelPath, maxInputLength: 2 })).toThrowError(/maxInputLength/);
    await expect(createTransformersNliModel({ modelPath }).classify({ pairs: 'x' as unknown as [] })).rejects.toThrowError(/pairs/);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createTransformersNliModel({ modelPath }).classify({ pairs: [{ premise: 'a', hypothesis: 'b' }], abortSignal: controller.signal })).rejects.toBe(reason);
  });
});
