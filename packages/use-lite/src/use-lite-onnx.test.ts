import { InvalidArgumentError } from '@factkit/core';
import { describeWithData } from '@factkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sciFactSentences } from '../test/scifact-sentences.js';
import { maxAbsDifference } from '../test/vectors.js';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

// Real sentences plus the edge cases: empty text, one word, and a text longer than the model's 128-piece limit
// (both paths must clip it the same way).
let TEXTS: string[] = [];

describeWithData('scifact', "createUseLiteEmbedder({ backend: 'onnx' }) on SciFact sentences", (scifact) => {
  beforeAll(() => {
    const long = sciFactSentences(scifact, 12).join(' ');
    TEXTS = [...sciFactSentences(scifact, 29), '', 'Short.', long, 'Ünïcödé — “quotes” and 数字 123.'];
  });
  const wasm = createUseLiteEmbedder({ maxBatchSize: 8 });
  const onnx = createUseLiteEmbedder({ backend: 'onnx', maxBatchSize: 8 });
  const onnxThreads = createUseLiteEmbedder({ backend: 'onnx', maxBatchSize: 8, threads: 2 });
  afterAll(() => {
    for (const embedder of [wasm, onnx, onnxThreads]) embedder.dispose();
  });

  it('computes the same vectors as the TF.js graph on wasm, to float32 rounding (max |difference| <= 1e-6)', async () => {
    const [reference, candidate] = [await wasm.embed({ texts: TEXTS, kind: 'passage' }), await onnx.embed({ texts: TEXTS, kind: 'passage' })];
    expect(candidate.embeddings).toHaveLength(TEXTS.length);
    for (const vector of candidate.embeddings) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(512);
    }
    expect(maxAbsDifference(candidate.embeddings, reference.embeddings)).toBeLessThanOrEqual(1e-6);
  }, 240_000);

  it('gives the same vectors with 2 intra-op threads as with 1 (within 1e-6)', async () => {
    const [single, multi] = [await onnx.embed({ texts: TEXTS, kind: 'passage' }), await onnxThreads.embed({ texts: TEXTS, kind: 'passage' })];
    expect(maxAbsDifference(multi.embeddings, single.embeddings)).toBeLessThanOrEqual(1e-6);
    expect(onnxThreads.threads).toBe(2);
    expect(onnxThreads.backend).toBe('onnx');
  }, 120_000);

  it('gives the same vectors whatever the pass size (each sentence is masked from the others)', async () => {
    const one = createUseLiteEmbedder({ backend: 'onnx', maxBatchSize: 1 });
    try {
      const [a, b] = [await one.embed({ texts: TEXTS, kind: 'query' }), await onnx.embed({ texts: TEXTS, kind: 'query' })];
      expect(maxAbsDifference(a.embeddings, b.embeddings)).toBeLessThanOrEqual(1e-5);
    } finally {
      one.dispose();
    }
  }, 120_000);
});

describe("createUseLiteEmbedder({ backend: 'onnx' })", () => {
  it('rejects bad backend options with InvalidArgumentError naming the argument', () => {
    expect(() => createUseLiteEmbedder({ backend: 'gpu' as never })).toThrow(InvalidArgumentError);
    expect(() => createUseLiteEmbedder({ backend: 'gpu' as never })).toThrow(/"backend"/);
    expect(() => createUseLiteEmbedder({ backend: 'onnx', threads: 0 })).toThrow(/"threads"/);
    expect(() => createUseLiteEmbedder({ backend: 'onnx', threads: 1.5 })).toThrow(/"threads"/);
    expect(() => createUseLiteEmbedder({ backend: 'onnx', workers: 2 })).toThrow(/"workers"/);
  });
});
