import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseParseError } from '@factkit/core';
import { parseChatCompletionBody, parseEmbeddingsBody, readStreamChunk, readUsage } from './parse-responses.js';
import { readRetryAfterSeconds } from './call-once.js';

/** Runs `parse` and reports whether it returned, or threw a ResponseParseError; any other throw fails the property. */
function outcome(parse: () => unknown): 'ok' | 'parse-error' {
  try {
    parse();
    return 'ok';
  } catch (error) {
    if (ResponseParseError.isInstance(error)) return 'parse-error';
    throw error;
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 4 });
const almostChat = fc.record(
  {
    choices: fc.oneof(fc.array(fc.record({ index: fc.oneof(fc.integer(), jsonValue), message: fc.oneof(jsonValue, fc.record({ content: jsonValue })), finish_reason: jsonValue }, { requiredKeys: [] })), jsonValue),
    usage: fc.oneof(jsonValue, fc.record({ prompt_tokens: jsonValue, completion_tokens: jsonValue, total_tokens: jsonValue }, { requiredKeys: [] })),
    error: jsonValue,
  },
  { requiredKeys: [] },
);

describe('parseChatCompletionBody', () => {
  it('never throws anything but ResponseParseError, on any text or near-valid JSON', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => outcome(() => parseChatCompletionBody(raw)) !== undefined),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(jsonValue, (value) => outcome(() => parseChatCompletionBody(JSON.stringify(value))) !== undefined),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(almostChat, (value) => outcome(() => parseChatCompletionBody(JSON.stringify(value))) !== undefined),
      { numRuns: 500 },
    );
  });

  it('returns the texts ordered by choice index whatever order the choices arrive in, with sane usage', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 6 }).chain((texts) =>
          fc.tuple(
            fc.constant(texts),
            fc.shuffledSubarray(
              texts.map((_, index) => index),
              { minLength: texts.length },
            ),
          ),
        ),
        fc.option(fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat() }), { nil: undefined }),
        ([texts, order], usage) => {
          const choices = order.map((index) => ({ index, message: { role: 'assistant', content: texts[index] }, finish_reason: 'stop' }));
          const result = parseChatCompletionBody(JSON.stringify({ choices, ...(usage ? { usage } : {}) }));
          expect(result.texts).toEqual(texts);
          expect(result.finishReasons).toEqual(texts.map(() => 'stop'));
          const expected = usage ? usage.prompt_tokens + usage.completion_tokens : 0;
          expect(result.usage.totalTokens).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles the hand-checked edge cases', () => {
    expect(parseChatCompletionBody('{"choices":[{"message":{"content":null},"finish_reason":"content_filter"}]}')).toEqual({
      texts: [''],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      finishReasons: ['content_filter'],
    });
    expect(parseChatCompletionBody('{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}').texts).toEqual(['ab']);
    expect(() => parseChatCompletionBody('{"choices":[]}')).toThrow(/no "choices"/);
    expect(() => parseChatCompletionBody('{"error":{"message":"overloaded"}}')).toThrow(/overloaded/);
    expect(() => parseChatCompletionBody('not json')).toThrow(ResponseParseError);
    expect(readUsage({ prompt_tokens: 3, completion_tokens: 4 })).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
    expect(readUsage({ prompt_tokens: -1, completion_tokens: 'x', total_tokens: 5 })).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 5 });
  });
});

describe('parseEmbeddingsBody', () => {
  it('never throws anything but ResponseParseError', () => {
    const almostEmbeddings = fc.record(
      { data: fc.oneof(jsonValue, fc.array(fc.record({ index: fc.oneof(fc.integer({ min: -2, max: 4 }), jsonValue), embedding: fc.oneof(jsonValue, fc.array(fc.double()), fc.base64String()) }, { requiredKeys: [] }))) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.string(), (raw) => outcome(() => parseEmbeddingsBody(raw, { count: 1 })) !== undefined),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(
        almostEmbeddings,
        fc.integer({ min: 0, max: 4 }),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        (value, count, dimensions) => outcome(() => parseEmbeddingsBody(JSON.stringify(value), { count, ...(dimensions === undefined ? {} : { dimensions }) })) !== undefined,
      ),
      { numRuns: 500 },
    );
  });

  it('puts every vector at its index for any permutation of the items', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }).chain((count) => fc.tuple(fc.constant(count), fc.shuffledSubarray([...Array(count).keys()], { minLength: count }))),
        ([count, order]) => {
          const data = order.map((index) => ({ object: 'embedding', index, embedding: [index, index * 0.5] }));
          const { embeddings } = parseEmbeddingsBody(JSON.stringify({ data }), { count, dimensions: 2 });
          expect(embeddings.map((vector) => Array.from(vector))).toEqual([...Array(count).keys()].map((index) => [index, index * 0.5]));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rejects repeated indices, non-finite values and out-of-range indices', () => {
    const body = (data: unknown) => JSON.stringify({ data });
    expect(() =>
      parseEmbeddingsBody(
        body([
          { index: 0, embedding: [1] },
          { index: 0, embedding: [2] },
        ]),
        { count: 2 },
      ),
    ).toThrow(/repeats index 0/);
    expect(() => parseEmbeddingsBody(body([{ index: 5, embedding: [1] }]), { count: 1 })).toThrow(/outside/);
    expect(() => parseEmbeddingsBody('{"data":[{"index":0,"embedding":[1e999]}]}', { count: 1 })).toThrow(/non-finite/);
    expect(() => parseEmbeddingsBody(body([{ index: 0, embedding: 'AAA' }]), { count: 1 })).toThrow(/multiple of 4/);
  });
});

describe('readStreamChunk and readRetryAfterSeconds', () => {
  it('reads deltas, finish reasons and usage, and never throws', () => {
    expect(readStreamChunk({ choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] })).toEqual({ text: 'hi' });
    expect(readStreamChunk({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } })).toEqual({ text: '', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } });
    expect(readStreamChunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })).toEqual({ text: '', finishReason: 'stop' });
    fc.assert(
      fc.property(fc.anything(), (value) => typeof readStreamChunk(value).text === 'string'),
      { numRuns: 300 },
    );
  });

  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(readRetryAfterSeconds(new Headers({ 'retry-after-ms': '250' }), now)).toBe(0.25);
    expect(readRetryAfterSeconds(new Headers({ 'retry-after': '7' }), now)).toBe(7);
    expect(readRetryAfterSeconds(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30);
    expect(readRetryAfterSeconds(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(readRetryAfterSeconds(new Headers(), now)).toBeUndefined();
    expect(readRetryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
