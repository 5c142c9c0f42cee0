import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer } from './openai-server.js';
import type { ScriptedOpenAIServer } from './openai-server.js';

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify(body),
    signal,
  });
}

describe('startScriptedOpenAIServer', () => {
  it('listens on 127.0.0.1 with a base URL ending in /v1 and lists models', async () => {
    server = await startScriptedOpenAIServer({ models: ['a', 'b'] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${server.url}/models`);
    expect(response.status).toBe(200);
    const json = (await response.json()) as { data: { id: string }[] };
    expect(json.data.map((model) => model.id)).toEqual(['a', 'b']);
  });

  it('answers chat completions from an array script, with one choice per content and usage', async () => {
    server = await startScriptedOpenAIServer({ script: [{ content: ['one two', 'three'] }, { content: 'solo' }] });
    const first = await post(`${server.url}/chat/completions`, { model: 'm', n: 2, messages: [{ role: 'user', content: 'hello there world' }] });
    const firstJson = (await first.json()) as {
      choices: { index: number; message: { content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
      model: string;
    };
    expect(firstJson.choices.map((choice) => choice.message.content)).toEqual(['one two', 'three']);
    expect(firstJson.choices.map((choice) => choice.finish_reason)).toEqual(['stop', 'stop']);
    expect(firstJson.usage).toEqual({ prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
    expect(firstJson.model).toBe('m');
    const second = (await (await post(`${server.url}/chat/completions`, { model: 'm', messages: [] })).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(second.choices[0]?.message.content).toBe('solo');
    // the script is exhausted: a clear 500
    const third = await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    expect(third.status).toBe(500);
    expect(await third.text()).toContain('no reply scripted for request #2');
    expect(server.requests.map((request) => request.callIndex)).toEqual([0, 1, 2]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(server.requests[0]?.body).toMatchObject({ model: 'm', n: 2 });
  });

  it('passes path, body, headers and callIndex to a handler and echoes by default', async () => {
    server = await startScriptedOpenAIServer({
      script: (request) => (request.callIndex === 0 ? { status: 429, headers: { 'retry-after': '7' } } : { content: `call ${request.callIndex} ${request.path}` }),
    });
    const limited = await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(((await limited.json()) as { error: { message: string } }).error.message).toContain('429');
    const ok = (await (await post(`${server.url}/chat/completions`, { model: 'm', messages: [] })).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(ok.choices[0]?.message.content).toBe('call 1 /v1/chat/completions');

    const echo = await startScriptedOpenAIServer();
    try {
      const json = (await (await post(`${echo.url}/chat/completions`, { model: 'm', n: 2, messages: [{ role: 'user', content: 'ping' }] })).json()) as {
        choices: { message: { content: string } }[];
      };
      expect(json.choices.map((choice) => choice.message.content)).toEqual(['echo: ping', 'echo: ping']);
    } finally {
      await echo.close();
    }
  });

  it('sends custom status bodies verbatim', async () => {
    server = await startScriptedOpenAIServer({
      script: [
        { status: 400, body: { error: { message: 'bad thing' } } },
        { status: 503, body: 'plain text' },
      ],
    });
    const bad = await post(`${server.url}/chat/completions`, {});
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { message: 'bad thing' } });
    const unavailable = await post(`${server.url}/chat/completions`, {});
    expect(unavailable.status).toBe(503);
    expect(await unavailable.text()).toBe('plain text');
  });

  it('returns embeddings in order, reversed on request, and deterministic unit vectors by default', async () => {
    server = await startScriptedOpenAIServer({
      script: [
        {
          embeddings: [
            [1, 0],
            [0, 1],
          ],
          reverseOrder: true,
        },
      ],
    });
    const scripted = (await (await post(`${server.url}/embeddings`, { model: 'e', input: ['a', 'b'] })).json()) as {
      data: { index: number; embedding: number[] }[];
    };
    expect(scripted.data).toEqual([
      { object: 'embedding', index: 1, embedding: [0, 1] },
      { object: 'embedding', index: 0, embedding: [1, 0] },
    ]);

    const plain = await startScriptedOpenAIServer();
    try {
      const call = async (input: string[], dimensions?: number): Promise<number[][]> => {
        const json = (await (await post(`${plain.url}/embeddings`, { model: 'e', input, dimensions })).json()) as { data: { embedding: number[] }[] };
        return json.data.map((item) => item.embedding);
      };
      const [alpha, beta] = await call(['alpha', 'beta']);
      const [alphaAgain] = await call(['alpha']);
      expect(alpha).toHaveLength(8);
      expect(alphaAgain).toEqual(alpha);
      expect(beta).not.toEqual(alpha);
      expect(Math.hypot(...(alpha ?? []))).toBeCloseTo(1, 10);
      const [wide] = await call(['alpha'], 5);
      expect(wide).toHaveLength(5);
    } finally {
      await plain.close();
    }
  });

  it('streams chat completions as server-sent events when asked', async () => {
    server = await startScriptedOpenAIServer({ script: [{ content: 'hello streaming world' }] });
    const response = await post(`${server.url}/chat/completions`, { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [] });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const events = text
      .split('\n\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event) as { choices: { delta: { content?: string } }[]; usage?: unknown });
    const joined = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(joined).toBe('hello streaming world');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 0, completion_tokens: 3, total_tokens: 3 });
  });

  it('answers malformed JSON bodies and drops connections', async () => {
    server = await startScriptedOpenAIServer({ script: [{ malformed: true }, { drop: true }] });
    const malformed = await post(`${server.url}/chat/completions`, {});
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow(SyntaxError);
    await expect(post(`${server.url}/chat/completions`, {})).rejects.toThrow();
    expect(server.requests).toHaveLength(2);
  });

  it('delays replies, and close() ends pending delays and open sockets without hanging', async () => {
    server = await startScriptedOpenAIServer({
      script: [
        { delayMs: 30, content: 'late' },
        { delayMs: 60_000, content: 'never' },
      ],
    });
    const late = (await (await post(`${server.url}/chat/completions`, { messages: [] })).json()) as { choices: { message: { content: string } }[] };
    expect(late.choices[0]?.message.content).toBe('late');

    const url = new URL(`${server.url}/chat/completions`);
    const pending = new Promise<string>((resolve) => {
      const outgoing = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json' } }, () => resolve('answered'));
      outgoing.on('error', (error) => resolve(`error: ${error.message}`));
      outgoing.end('{}');
    });
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    await expect(pending).resolves.toMatch(/^error: /);
    await server.close(); // idempotent
  });

  it('ends a delay early when the client disconnects', async () => {
    server = await startScriptedOpenAIServer({ script: [{ delayMs: 60_000, content: 'never' }, { content: 'next' }] });
    const controller = new AbortController();
    const slow = post(`${server.url}/chat/completions`, { messages: [] }, controller.signal);
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('client gave up'));
    await expect(slow).rejects.toThrow('client gave up');
    const next = (await (await post(`${server.url}/chat/completions`, { messages: [] })).json()) as { choices: { message: { content: string } }[] };
    expect(next.choices[0]?.message.content).toBe('next');
  });

  it('reports a handler that throws as a 500 and unknown routes as 404', async () => {
    server = await startScriptedOpenAIServer({
      script: () => {
        throw new Error('boom');
      },
    });
    const failed = await post(`${server.url}/chat/completions`, {});
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain('boom');
    const plain = await startScriptedOpenAIServer();
    try {
      const missing = await post(`${plain.url}/nothing`, {});
      expect(missing.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
