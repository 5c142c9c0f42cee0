import { writeFile, mkdtemp, rm, cp } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorruptDataError, FactkitError, InvalidArgumentError, ProviderCallError } from '@factkit/core';
import { createGloveEmbedder, createGloveVectors } from '@factkit/glove';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeStaticEmbeddingModel } from '../test/fixtures/onnx-fixtures.js';
import { seededVectors } from '../test/fixtures/random-vectors.js';
import { createTransformersEmbedder } from './transformers-embedder.js';

const WORDS = ['query', 'passage', 'the', 'cat', 'sat', 'on', 'mat', 'a', 'dog', 'ran', 'in', 'park', 'vitamin', 'deficiency', 'is', 'common'];
const DIMENSIONS = 8;
const vectors = seededVectors(WORDS, DIMENSIONS);
let root: string;
let modelPath: string;

// Independent truth: @factkit/glove's average of the same word vectors (its own tokenizer and arithmetic).
const table = createGloveVectors(WORDS, Float32Array.from(WORDS.flatMap((word) => [...(vectors.get(word) as Float32Array)])), DIMENSIONS);
const gloveMean = createGloveEmbedder({ vectors: table, normalize: false });
const gloveUnit = createGloveEmbedder({ vectors: table, normalize: true });

function maxAbsDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i += 1) max = Math.max(max, Math.abs((a[i] as number) - (b[i] as number)));
  return max;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'factkit-transformers-embedder-'));
  modelPath = join(root, 'static-glove');
  await writeStaticEmbeddingModel({ directory: modelPath, vectors, dimensions: DIMENSIONS });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createTransformersEmbedder on a static word-embedding fixture', () => {
  it('loads only from disk: no http, https or fetch while loading and embedding', async () => {
    const fail = () => {
      throw new Error('network access attempted');
    };
    const spies = [vi.spyOn(http, 'request').mockImplementation(fail), vi.spyOn(https, 'request').mockImplementation(fail), vi.spyOn(globalThis, 'fetch').mockImplementation(fail)];
    const embedder = createTransformersEmbedder({ modelPath });
    const { embeddings } = await embedder.embed({ texts: ['the cat sat'], kind: 'passage' });
    expect(embeddings[0]).toHaveLength(DIMENSIONS);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('reads dimensions from config.json and names itself after the directory', () => {
    const embedder = createTransformersEmbedder({ modelPath, normalize: false });
    expect(embedder).toMatchObject({ id: 'transformers:static-glove', dimensions: DIMENSIONS, normalized: false, maxBatchSize: 32 });
  });

  it('mean pooling equals the averaged GloVe vector of the same words (property, normalized and not)', async () => {
    const raw = createTransformersEmbedder({ modelPath, normalize: false, maxBatchSize: 5 });
    const unit = createTransformersEmbedder({ modelPath, normalize: true, maxBatchSize: 5 });
    const sentence = fc.array(fc.constantFrom(...WORDS.slice(2)), { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
    await fc.assert(
      fc.asyncProperty(fc.array(sentence, { minLength: 1, maxLength: 12 }), async (texts) => {
        const [ours, oursUnit, truth, truthUnit] = await Promise.all([raw.embed({ texts, kind: 'passage' }), unit.embed({ texts, kind: 'passage' }), gloveMean.embed({ texts, kind: 'passage' }), gloveUnit.embed({ texts, kind: 'passage' })]);
        texts.forEach((_, index) => {
          expect(maxAbsDifference(ours.embeddings[index] as Float32Array, truth.embeddings[index] as Float32Array)).toBeLessThan(1e-5);
          expect(maxAbsDifference(oursUnit.embeddings[index] as Float32Array, truthUnit.embeddings[index] as Float32Array)).toBeLessThan(1e-5);
        });
      }),
      { numRuns: 25 },
    );
  });

  it('prepends queryPrefix / passagePrefix by kind', async () => {
    const embedder = createTransformersEmbedder({ modelPath, normalize: false, queryPrefix: 'query ', passagePrefix: 'passage ' });
    const [query, passage] = await Promise.all([embedder.embed({ texts: ['the cat'], kind: 'query' }), embedder.embed({ texts: ['the cat'], kind: 'passage' })]);
    const truth = await gloveMean.embed({ texts: ['query the cat', 'passage the cat'], kind: 'query' });
    expect(maxAbsDifference(query.embeddings[0] as Float32Array, truth.embeddings[0] as Float32Array)).toBeLessThan(1e-5);
    expect(maxAbsDifference(passage.embeddings[0] as Float32Array, truth.embeddings[1] as Float32Array)).toBeLessThan(1e-5);
  });

  it("pooling 'cls' returns the first token's vector", async () => {
    const embedder = createTransformersEmbedder({ modelPath, normalize: false, pooling: 'cls' });
    const { embeddings } = await embedder.embed({ texts: ['dog ran in the park'], kind: 'passage' });
    expect(maxAbsDifference(embeddings[0] as Float32Array, vectors.get('dog') as Float32Array)).toBeLessThan(1e-6);
  });

  it('returns a zero vector and a no-tokens problem for text without tokens, keeping the batch', async () => {
    const embedder = createTransformersEmbedder({ modelPath, normalize: false });
    const { embeddings, problems } = await embedder.embed({ texts: ['cat', '', 'dog'], kind: 'passage' });
    expect(embeddings).toHaveLength(3);
    expect([...(embeddings[1] as Float32Array)]).toEqual(new Array(DIMENSIONS).fill(0));
    expect(maxAbsDifference(embeddings[2] as Float32Array, vectors.get('dog') as Float32Array)).toBeLessThan(1e-6);
    expect(problems).toEqual([{ index: 1, code: 'no-tokens', message: expect.stringContaining('zero vector') }]);
  });

  it('rejects a dimensions option that does not match the model output', async () => {
    const embedder = createTransformersEmbedder({ modelPath, dimensions: 5 });
    const error = await embedder.embed({ texts: ['cat'], kind: 'query' }).catch((caught: unknown) => caught);
    // A ProviderCallError proper (its guard no longer passes a base FactkitError with that code), naming the model.
    expect(ProviderCallError.isInstance(error) && error.isRetryable === false && error.provider === embedder.id).toBe(true);
  });

  it('validates options and input with InvalidArgumentError', async () => {
    expect(() => createTransformersEmbedder({ modelPath, pooling: 'max' as 'mean' })).toThrowError(/pooling/);
    expect(() => createTransformersEmbedder({ modelPath, maxBatchSize: 0 })).toThrowError(/maxBatchSize/);
    expect(() => createTransformersEmbedder({ modelPath, dtype: 'fp64' as 'fp32' })).toThrowError(/dtype/);
    const embedder = createTransformersEmbedder({ modelPath });
    const error = await embedder.embed({ texts: [1 as unknown as string], kind: 'query' }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error) && error.argument === 'texts[0]').toBe(true);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createTransformersEmbedder({ modelPath }).embed({ texts: ['cat'], kind: 'query', abortSignal: controller.signal })).rejects.toBe(reason);
  });
});

describe('createTransformersEmbedder model directory errors', () => {
  it('throws InvalidArgumentError for a missing directory, naming modelPath', () => {
    let caught: unknown;
    try {
      createTransformersEmbedder({ modelPath: join(tmpdir(), 'factkit-no-such-model') });
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught) && caught.argument === 'modelPath').toBe(true);
    expect((caught as Error).message).toMatch(/never downloaded/);
    // A Hub-style id is a path too, never a download.
    expect(() => createTransformersEmbedder({ modelPath: 'Xenova/all-MiniLM-L6-v2' })).toThrowError(/not an existing directory/);
  });

  it('names the missing files of an incomplete directory', async () => {
    const incomplete = join(root, 'incomplete');
    await cp(modelPath, incomplete, { recursive: true });
    await rm(join(incomplete, 'onnx'), { recursive: true });
    await rm(join(incomplete, 'tokenizer.json'));
    expect(() => createTransformersEmbedder({ modelPath: incomplete })).toThrowError(/missing tokenizer\.json, onnx\/model\.onnx/);
    expect(() => createTransformersEmbedder({ modelPath, dtype: 'q8' })).toThrowError(/onnx\/model_quantized\.onnx/);
  });

  it('throws CorruptDataError for an unreadable config.json', async () => {
    const broken = join(root, 'broken-config');
    await cp(modelPath, broken, { recursive: true });
    await writeFile(join(broken, 'config.json'), '{ "model_type": ');
    expect(() => createTransformersEmbedder({ modelPath: broken })).toThrowError(expect.objectContaining({ code: 'corrupt_data' }));
    let caught: unknown;
    try {
      createTransformersEmbedder({ modelPath: broken });
    } catch (error) {
      caught = error;
    }
    expect(CorruptDataError.isInstance(caught)).toBe(true);
  });

  it('reports invalid ONNX weights as load_failed on first use, and retries the load next time', async () => {
    const invalid = join(root, 'invalid-onnx');
    await cp(modelPath, invalid, { recursive: true });
    await writeFile(join(invalid, 'onnx', 'model.onnx'), 'not a protobuf');
    const embedder = createTransformersEmbedder({ modelPath: invalid });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = await embedder.embed({ texts: ['cat'], kind: 'query' }).catch((caught: unknown) => caught);
    expect(FactkitError.isInstance(error) && error.code === 'load_failed').toBe(true);
    expect((error as Error).message).toContain(invalid);
    await cp(join(modelPath, 'onnx', 'model.onnx'), join(invalid, 'onnx', 'model.onnx'));
    const { embeddings } = await embedder.embed({ texts: ['cat'], kind: 'query' });
    expect(embeddings).toHaveLength(1);
    warn.mockRestore();
  });
});
