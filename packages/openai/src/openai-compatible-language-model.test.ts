import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryCache, FactkitError, InvalidArgumentError, ProviderCallError, ResponseParseError, withCache, withRetry } from '@factkit/core';
import type { GenerateStreamPart, RetryOptions } from '@factkit/core';
import type { ScriptedOpenAIServer } from '@factkit/test-utils';
import { rejection, useScriptedServers } from '../test/scripted-server.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { OpenAICompatibleLanguageModelOptions, OpenAICompatibleSettings } from './openai-compatible-settings.js';

afterEach(() => {
  vi.unstubAllEnvs();
});
const serve = useScriptedServers();

function modelFor(server: ScriptedOpenAIServer, options: OpenAICompatibleLanguageModelOptions = {}, settings: OpenAICompatibleSettings = {}) {
  return createOpenAICompatible({ baseURL: server.url, apiKey: 'test-key-123', timeout: 2_000, ...settings }).languageModel('test-model', options);
}

/** The model under core withRetry, the one retry layer. Fast: no jitter (random 0), tiny delays; Retry-After still counts up to maxDelayMs. */
function retried(server: ScriptedOpenAIServer, retry: RetryOptions = {}, settings: OpenAICompatibleSettings = {}) {
  return withRetry(modelFor(server, {}, settings), { initialDelayMs: 1, maxDelayMs: 50, random: () => 0, ...retry });
}

function chatBody(server: ScriptedOpenAIServer, index = 0): Record<string, unknown> {
  return server.requests[index]?.body as Record<string, unknown>;
}

describe('createOpenAICompatible().languageModel: successful calls through the real SDK', () => {
  it('sends a prompt as one user message and returns text, usage and finish reason', async () => {
    const server = await serve([{ content: 'Paris is the capital.' }]);
    const model = modelFor(server);
    const result = await model.generate({ prompt: 'What is the capital of France?' });
    expect(result.texts).toEqual(['Paris is the capital.']);
    // the scripted server counts whitespace tokens: 6 in, 4 out
    expect(result.usage).toEqual({ inputTokens: 6, outputTokens: 4, totalTokens: 10 });
    expect(result.finishReasons).toEqual(['stop']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key-123');
    expect(chatBody(server)).toEqual({ model: 'test-model', messages: [{ role: 'user', content: 'What is the capital of France?' }] });
    expect(model.id).toBe('openai-compatible:test-model');
    expect(model.provider).toBe(`openai-compatible(${server.url})`);
  });

  it('keys the cache by endpoint: the same model name on two servers never shares cached answers', async () => {
    const first = await serve([{ content: 'from the first server' }]);
    const second = await serve([{ content: 'from the second server' }]);
    const cache = createMemoryCache();
    const a = withCache(modelFor(first), cache);
    const b = withCache(modelFor(second), cache);
    expect((await a.generate({ prompt: 'same prompt' })).texts).toEqual(['from the first server']);
    expect((await b.generate({ prompt: 'same prompt' })).texts).toEqual(['from the second server']);
    expect((await a.generate({ prompt: 'same prompt' })).cached).toBe(true);
  });

  it('maps system, messages, prompt and every sampling setting to the chat-completions body', async () => {
    const server = await serve([{ content: 'ok' }]);
    const model = modelFor(server, { maxTokensField: 'max_completion_tokens' });
    await model.generate({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
      ],
      prompt: 'And now?',
      temperature: 0.3,
      topP: 0.9,
      maxTokens: 12,
      stop: ['\n\n'],
      seed: 42,
    });
    expect(chatBody(server)).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'And now?' },
      ],
      temperature: 0.3,
      top_p: 0.9,
      max_completion_tokens: 12,
      stop: ['\n\n'],
      seed: 42,
    });
  });

  it('applies defaults only where the request leaves a setting unset', async () => {
    const server = await serve([{ content: 'a' }, { content: 'b' }]);
    const model = modelFor(server, { defaults: { temperature: 0, maxTokens: 64, seed: 7 } });
    await model.generate({ prompt: 'x' });
    await model.generate({ prompt: 'x', temperature: 1, seed: 8 });
    expect(chatBody(server, 0)).toMatchObject({ temperature: 0, max_tokens: 64, seed: 7 });
    expect(chatBody(server, 1)).toMatchObject({ temperature: 1, max_tokens: 64, seed: 8 });
  });

  it('returns one text per choice for n > 1, ordered by choice index', async () => {
    const server = await serve([{ content: ['red', 'green', 'blue'], finishReason: ['stop', 'length', 'stop'] }]);
    const result = await modelFor(server).generate({ prompt: 'Name a colour.', n: 3, temperature: 0.7 });
    expect(chatBody(server)).toMatchObject({ n: 3, temperature: 0.7 });
    expect(result.texts).toEqual(['red', 'green', 'blue']);
    expect(result.finishReasons).toEqual(['stop', 'length', 'stop']);
  });

  it('rejects a reply with fewer choices than n, or emulates n with separate calls when asked', async () => {
    const server = await serve([{ content: 'only one' }, { content: 'first' }, { content: 'second' }]);
    const error = await rejection(modelFor(server).generate({ prompt: 'x', n: 2 }));
    expect(ResponseParseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/n=2.*returned 1.*emulateN/);
    const result = await modelFor(server, { emulateN: true }).generate({ prompt: 'x', n: 2, seed: 10 });
    expect(result.texts).toEqual(['first', 'second']);
    expect(result.usage.outputTokens).toBe(2);
    expect(chatBody(server, 1).n).toBeUndefined();
    expect([chatBody(server, 1).seed, chatBody(server, 2).seed]).toEqual([10, 11]);
    expect(server.requests).toHaveLength(3);
  });
});

describe('languageModel under core withRetry (the one retry layer): typed errors', () => {
  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    const server = await serve([{ status: 429, headers: { 'retry-after-ms': '30' } }, { content: 'after the wait' }]);
    const delays: number[] = [];
    const model = retried(server, { maxDelayMs: 5_000, onRetry: ({ delayMs }) => delays.push(delayMs) });
    const result = await model.generate({ prompt: 'x' });
    expect(result.texts).toEqual(['after the wait']);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([30]); // jitter is 0, so the whole delay is the server's Retry-After
  });

  it('reads Retry-After seconds into retryAfterSeconds and caps the wait at maxDelayMs', async () => {
    const server = await serve([{ status: 429, headers: { 'retry-after': '3' } }, { status: 429, headers: { 'retry-after': '3' } }, { content: 'ok' }]);
    const noRetry = await rejection(modelFor(server).generate({ prompt: 'x' })); // the bare model makes one call
    expect(ProviderCallError.isInstance(noRetry)).toBe(true);
    expect(noRetry).toMatchObject({ statusCode: 429, isRetryable: true, retryAfterSeconds: 3 });
    const delays: number[] = [];
    const model = retried(server, { maxDelayMs: 40, onRetry: ({ delayMs }) => delays.push(delayMs) });
    expect((await model.generate({ prompt: 'x' })).texts).toEqual(['ok']);
    expect(delays).toEqual([40]);
  });

  it('has exactly one retry layer: the bare model (and the SDK under it) makes one request; withRetry makes maxRetries + 1', async () => {
    const server = await serve(() => ({ status: 503 }));
    expect(await rejection(modelFor(server).generate({ prompt: 'x' }))).toMatchObject({ statusCode: 503, isRetryable: true });
    expect(server.requests).toHaveLength(1);
    expect(await rejection(retried(server, { maxRetries: 3 }).generate({ prompt: 'x' }))).toMatchObject({ statusCode: 503 });
    expect(server.requests).toHaveLength(1 + 4);
  });

  it('retries a 500 and succeeds; gives up after maxRetries with a retryable ProviderCallError', async () => {
    const server = await serve([{ status: 500 }, { content: 'recovered' }, { status: 503 }, { status: 502 }, { status: 500 }]);
    expect((await retried(server).generate({ prompt: 'x' })).texts).toEqual(['recovered']);
    const error = await rejection(retried(server, { maxRetries: 2 }).generate({ prompt: 'x' }));
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, provider: 'openai-compatible' });
    expect(server.requests).toHaveLength(5);
  });

  it('does not retry a 400 and keeps the server message and body', async () => {
    const server = await serve([{ status: 400, body: { error: { message: 'max_tokens is too large', type: 'invalid_request_error' } } }, { content: 'never' }]);
    const error = await rejection(retried(server).generate({ prompt: 'x' }));
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
    expect((error as Error).message).toContain('max_tokens is too large');
    expect((error as ProviderCallError).responseBody).toContain('invalid_request_error');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the message of error bodies without an OpenAI envelope (vLLM, FastAPI) and of plain-text bodies', async () => {
    const server = await serve([
      { status: 400, body: { object: 'error', message: 'This model supports at most 4096 tokens', type: 'BadRequestError', code: 400 } },
      { status: 422, body: { detail: 'field required: messages' } },
      { status: 404, body: 'no such route' },
    ]);
    const messages: string[] = [];
    for (let index = 0; index < 3; index += 1) messages.push(((await rejection(modelFor(server).generate({ prompt: 'x' }))) as Error).message);
    expect(messages[0]).toContain('at most 4096 tokens');
    expect(messages[1]).toContain('field required: messages');
    expect(messages[2]).toContain('no such route');
  });

  it('turns a reply slower than the timeout setting into a typed timeout (retried, then given up), without hanging', async () => {
    const server = await serve(() => ({ delayMs: 10_000, content: 'too late' }));
    const started = Date.now();
    const error = await rejection(retried(server, { maxRetries: 1 }, { timeout: 100 }).generate({ prompt: 'x' }));
    expect(FactkitError.isInstance(error)).toBe(true);
    expect((error as FactkitError).code).toBe('timeout');
    expect((error as Error).message).toMatch(/timed out after 100 ms/);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5_000); // a hang would hit the 10 s reply
  });

  it('retries a dropped connection, then succeeds or ends in a retryable connection error', async () => {
    const server = await serve([{ drop: true }, { content: 'second try' }, { drop: true }, { drop: true }]);
    expect((await retried(server).generate({ prompt: 'x' })).texts).toEqual(['second try']);
    const error = await rejection(retried(server, { maxRetries: 1 }).generate({ prompt: 'x' }));
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: undefined, isRetryable: true });
    expect((error as Error).message).toMatch(/connection/i);
    expect(server.requests).toHaveLength(4);
  });

  it('retries a 200 whose body is truncated like a dropped connection; gives up with a retryable error keeping the raw text', async () => {
    const server = await serve([{ malformed: true }, { content: 'second try' }, { malformed: true }, { malformed: true }]);
    const retries: unknown[] = [];
    expect((await retried(server, { onRetry: ({ error }) => retries.push(error) }).generate({ prompt: 'x' })).texts).toEqual(['second try']);
    expect(retries).toHaveLength(1);
    const error = await rejection(retried(server, { maxRetries: 1 }).generate({ prompt: 'x' }));
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 200, isRetryable: true });
    expect((error as Error).message).toMatch(/truncated or not JSON/);
    expect((error as ProviderCallError).responseBody).toContain('chatcmpl-broken');
    const cause = (error as Error).cause;
    expect(ResponseParseError.isInstance(cause)).toBe(true);
    expect((cause as ResponseParseError).raw).toContain('chatcmpl-broken');
    expect(server.requests).toHaveLength(4);
  });

  it('still reports JSON of the wrong shape as a ResponseParseError, not retried (the server answered, wrongly)', async () => {
    const server = await serve([{ status: 200, body: { choices: [] } }, { content: 'never' }]);
    const error = await rejection(retried(server).generate({ prompt: 'x' }));
    expect(ResponseParseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/no "choices"/);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with the exact abort reason mid-call, and during a retry wait', async () => {
    const server = await serve([
      { delayMs: 10_000, content: 'never' },
      { status: 429, headers: { 'retry-after': '30' } },
    ]);
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const pending = modelFor(server).generate({ prompt: 'x', abortSignal: controller.signal });
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);

    const second = new AbortController();
    const secondReason = { custom: 'reason object' };
    const waiting = retried(server, { maxDelayMs: 60_000 }).generate({ prompt: 'x', abortSignal: second.signal });
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    second.abort(secondReason);
    await expect(waiting).rejects.toBe(secondReason);
    expect(server.requests).toHaveLength(2);
  });

  it('rejects invalid requests with InvalidArgumentError naming the argument, before any call', async () => {
    const server = await serve();
    const model = modelFor(server);
    const cases: [Parameters<typeof model.generate>[0], string][] = [
      [{}, 'prompt'],
      [{ messages: [] }, 'prompt'],
      [{ prompt: 'x', n: 0 }, 'n'],
      [{ prompt: 'x', temperature: 3 }, 'temperature'],
      [{ prompt: 'x', maxTokens: 1.5 }, 'maxTokens'],
      [{ messages: [{ role: 'tool', content: 'x' } as never] }, 'messages[0]'],
    ];
    for (const [request, argument] of cases) {
      const error = await rejection(model.generate(request));
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe(argument);
    }
    expect(server.requests).toHaveLength(0);
    expect(() => createOpenAICompatible({ timeout: 0 })).toThrow(/timeout/);
    expect(() => createOpenAICompatible({ baseURL: 'ftp://x' })).toThrow(/baseURL/);
    expect(() => createOpenAICompatible({ baseURL: server.url }).languageModel('')).toThrow(/modelId/);
    expect(() => createOpenAICompatible({ baseURL: server.url }).languageModel('m', { defaults: { temperature: 5 } })).toThrow(/defaults\.temperature/);
  });
});

describe('createOpenAICompatible: settings once, the key at call time', () => {
  it('reads OPENAI_BASE_URL when the provider is created and OPENAI_API_KEY on every call', async () => {
    const server = await serve([{ content: 'one' }, { content: 'two' }]);
    vi.stubEnv('OPENAI_BASE_URL', server.url);
    vi.stubEnv('OPENAI_API_KEY', 'env-key-1');
    const openai = createOpenAICompatible();
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1'); // too late: the base URL was read at creation
    expect(openai.baseURL).toBe(server.url);
    const model = openai.languageModel('model-a');
    expect(model.id).toBe('openai-compatible:model-a');
    expect(model.provider).toBe(`openai-compatible(${server.url})`);
    await model.generate({ prompt: 'x' });
    vi.stubEnv('OPENAI_API_KEY', 'env-key-2');
    await openai.languageModel('model-b').generate({ prompt: 'x' });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer env-key-1', 'Bearer env-key-2']);
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual(['model-a', 'model-b']);
  });

  it('never throws at creation over a missing key; a call to api.openai.com without a key is a typed error with no request', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    const calls: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      calls.push(String(input));
      return new Response('{}', { status: 500 });
    };
    const openai = createOpenAICompatible({ fetch: recordingFetch });
    expect(openai.baseURL).toBe('https://api.openai.com/v1');
    const error = await rejection(openai.languageModel('gpt-4o-mini').generate({ prompt: 'x' }));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('apiKey');
    expect((error as Error).message).toMatch(/OPENAI_API_KEY/);
    const azure = createOpenAICompatible({ baseURL: 'https://my-resource.openai.azure.com/openai/v1', fetch: recordingFetch }).languageModel('gpt-4o');
    expect(InvalidArgumentError.isInstance(await rejection(azure.generate({ prompt: 'x' })))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('sends a placeholder key to local endpoints when none is set, plus custom headers and organization', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const server = await serve([{ content: 'local' }]);
    const model = createOpenAICompatible({ baseURL: server.url, headers: { 'x-trace': 'abc' }, organization: 'org-1', project: 'proj-1' }).languageModel('llama3');
    expect((await model.generate({ prompt: 'x' })).texts).toEqual(['local']);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key-needed');
    expect(server.requests[0]?.headers['x-trace']).toBe('abc');
    expect(server.requests[0]?.headers['openai-organization']).toBe('org-1');
    expect(server.requests[0]?.headers['openai-project']).toBe('proj-1');
  });

  it('uses an injected fetch for every request', async () => {
    const server = await serve([{ content: 'through my fetch' }]);
    const seen: string[] = [];
    const model = modelFor(
      server,
      {},
      {
        fetch: (input, init) => {
          seen.push(String(input));
          return fetch(input, init);
        },
      },
    );
    expect((await model.generate({ prompt: 'x' })).texts).toEqual(['through my fetch']);
    expect(seen).toEqual([`${server.url}/chat/completions`]);
  });
});

describe('createOpenAICompatible().languageModel: stream', () => {
  async function collect(parts: AsyncIterable<GenerateStreamPart>): Promise<GenerateStreamPart[]> {
    const out: GenerateStreamPart[] = [];
    for await (const part of parts) out.push(part);
    return out;
  }

  it('yields text deltas that join to the reply, then text-end with usage', async () => {
    const server = await serve([{ content: 'streamed reply in pieces' }]);
    const model = modelFor(server);
    const parts = await collect(model.stream!({ prompt: 'x' }));
    const text = parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
    expect(text).toBe('streamed reply in pieces');
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(1);
    expect(parts.at(-1)).toEqual({ type: 'text-end', usage: { inputTokens: 1, outputTokens: 4, totalTokens: 5 } });
    expect(chatBody(server)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('yields an error part for a failed call and rejects n > 1', async () => {
    const server = await serve([{ status: 400, body: { error: { message: 'nope' } } }]);
    const model = modelFor(server);
    const parts = await collect(model.stream!({ prompt: 'x' }));
    expect(parts).toHaveLength(1);
    expect(parts[0]?.type).toBe('error');
    expect(ProviderCallError.isInstance((parts[0] as { error: unknown }).error)).toBe(true);
    await expect(collect(model.stream!({ prompt: 'x', n: 2 }))).rejects.toMatchObject({ argument: 'n' });
  });

  it('reads a server that ignores stream: true and answers one JSON completion; a malformed one is an error part', async () => {
    const whole = { choices: [{ index: 0, message: { role: 'assistant', content: 'all at once' }, finish_reason: 'stop' }], usage: { prompt_tokens: 2, completion_tokens: 3 } };
    const server = await serve([{ status: 200, body: whole }, { malformed: true }]);
    const model = modelFor(server);
    expect(await collect(model.stream!({ prompt: 'x' }))).toEqual([
      { type: 'text-delta', text: 'all at once' },
      { type: 'text-end', usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 } },
    ]);
    const parts = await collect(model.stream!({ prompt: 'x' }));
    expect(parts).toHaveLength(1);
    expect((parts[0] as { error: unknown }).error).toMatchObject({ code: 'provider_call_failed', statusCode: 200, isRetryable: true });
  });

  it('rejects with the exact abort reason when aborted while text is flowing', async () => {
    const server = await serve([{ content: 'one two three four five' }]);
    const controller = new AbortController();
    const reason = new Error('enough');
    const seen: string[] = [];
    const run = async () => {
      for await (const part of modelFor(server).stream!({ prompt: 'x', abortSignal: controller.signal })) {
        if (part.type === 'text-delta') {
          seen.push(part.text);
          controller.abort(reason);
        }
      }
    };
    await expect(run()).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
  });
});
