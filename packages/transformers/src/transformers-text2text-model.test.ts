import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@factkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEchoSeq2SeqModel, writeStaticEmbeddingModel } from '../test/fixtures/onnx-fixtures.js';
import { createTransformersText2TextModel, renderText2TextInput } from './transformers-text2text-model.js';

// A LOADING FIXTURE, not a text2text model: a layer-less T5-shaped encoder-decoder that answers with the most
// frequent input word (ties: earliest in WORDS) and stops.
const WORDS = ['the', 'cat', 'dog', 'sat', 'mat', 'question', 'answer'];
let root: string;
let modelPath: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'factkit-transformers-t2t-'));
  modelPath = join(root, 'echo-t5');
  await writeEchoSeq2SeqModel({ directory: modelPath, words: WORDS });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('renderText2TextInput', () => {
  it('joins system and prompt, or system and message contents, by blank lines', () => {
    expect(renderText2TextInput({ prompt: 'p' })).toBe('p');
    expect(renderText2TextInput({ system: 's', prompt: 'p' })).toBe('s\n\np');
    expect(
      renderText2TextInput({
        system: 's',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      }),
    ).toBe('s\n\na\n\nb');
  });
});

describe('createTransformersText2TextModel on an echo seq2seq fixture', () => {
  it('loads encoder + decoder from disk and generates greedily through transformers.js', async () => {
    const model = createTransformersText2TextModel({ modelPath });
    expect(model).toMatchObject({ id: 'transformers:echo-t5', provider: 'transformers.js' });
    const result = await model.generate({ prompt: 'the cat cat sat' });
    expect(result.texts).toEqual(['cat']);
    // Input: 4 words + </s>; output: 1 word.
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 1, totalTokens: 6 });
    expect(result.finishReasons).toEqual(['stop']);
  });

  it('uses system and messages as input, returns n texts, and cuts at stop sequences', async () => {
    const model = createTransformersText2TextModel({ modelPath });
    const chat = await model.generate({ system: 'dog', messages: [{ role: 'user', content: 'dog mat' }] });
    expect(chat.texts).toEqual(['dog']);
    const many = await model.generate({ prompt: 'question answer answer', n: 2 });
    expect(many.texts).toEqual(['answer', 'answer']);
    const stopped = await model.generate({ prompt: 'the the mat', stop: ['he'] });
    expect(stopped.texts).toEqual(['t']);
    expect(stopped.finishReasons).toEqual(['stop']);
  });

  it('validates requests and options', async () => {
    const model = createTransformersText2TextModel({ modelPath });
    await expect(model.generate({})).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error) && error.argument === 'prompt');
    await expect(model.generate({ prompt: 'x', n: 0 })).rejects.toThrowError(/"n"/);
    await expect(model.generate({ prompt: 'x', maxTokens: 0 })).rejects.toThrowError(/maxTokens/);
    expect(() => createTransformersText2TextModel({ modelPath, defaultMaxTokens: 0 })).toThrowError(/defaultMaxTokens/);
  });

  it('throws InvalidArgumentError naming modelPath for missing or non-seq2seq directories', async () => {
    expect(() => createTransformersText2TextModel({ modelPath: join(root, 'nope') })).toThrowError(/argument "modelPath" is not an existing directory/);
    const encoderOnly = join(root, 'encoder-only');
    await writeStaticEmbeddingModel({ directory: encoderOnly, vectors: [['cat', Float32Array.from([1])]], dimensions: 1 });
    expect(() => createTransformersText2TextModel({ modelPath: encoderOnly })).toThrowError(/missing onnx\/encoder_model\.onnx, onnx\/decoder_model_merged\.onnx/);
  });

  it('rethrows the abort reason unchanged', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(createTransformersText2TextModel({ modelPath }).generate({ prompt: 'cat', abortSignal: controller.signal })).rejects.toBe(reason);
  });
});
