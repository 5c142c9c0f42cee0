// Many calls sharing one AbortSignal (one signal for a whole batch is the normal way to cancel a batch) must not add a
// listener per call to it: Node prints MaxListenersExceededWarning past 10. Before the fix, 30 concurrent generate calls
// or 15 sequential streams on one signal each triggered the warning (one listener per in-flight call; streams never
// removed theirs).
import { describe, expect, it } from 'vitest';
import { settleWithConcurrency } from '@factkit/core';
import type { GenerateStreamPart } from '@factkit/core';
import { useListenerWarnings } from './listener-warnings.js';
import { useScriptedServers } from './scripted-server.js';
import { createOpenAICompatible } from '../src/index.js';
import { getEventListeners } from 'node:events';

const linkedListenerCount = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

const serve = useScriptedServers();
const listenerWarnings = useListenerWarnings();

async function drain(parts: AsyncIterable<GenerateStreamPart>): Promise<string> {
  let text = '';
  for await (const part of parts) if (part.type === 'text-delta') text += part.text;
  return text;
}

describe('one AbortSignal shared by many calls', () => {
  it('the listener check can fail: 11 listeners on one signal do warn', async () => {
    const controller = new AbortController();
    const listeners = Array.from({ length: 11 }, () => () => {});
    for (const listener of listeners) controller.signal.addEventListener('abort', listener);
    expect(await listenerWarnings()).toHaveLength(1);
    for (const listener of listeners) controller.signal.removeEventListener('abort', listener);
  });

  it('40 concurrent generate calls, embeds and 25 sequential streams (some left early) add no MaxListenersExceededWarning', async () => {
    const server = await serve(() => ({ delayMs: 20 }));
    const openai = createOpenAICompatible({ baseURL: server.url, apiKey: 'k' });
    const model = openai.languageModel('m');
    const embedder = openai.embedder('e', { dimensions: 8 });
    const controller = new AbortController();
    const { signal } = controller;
    const prompts = Array.from({ length: 40 }, (_, index) => `prompt ${index}`);
    const settled = await settleWithConcurrency(prompts, (prompt) => model.generate({ prompt, abortSignal: signal }), { concurrency: 40 });
    expect(settled.map((entry) => (entry.status === 'fulfilled' ? entry.value.texts[0] : 'failed'))).toEqual(prompts.map((prompt) => `echo: ${prompt}`));
    await Promise.all(prompts.slice(0, 20).map((prompt) => embedder.embed({ texts: [prompt], kind: 'query', abortSignal: signal })));
    for (let index = 0; index < 25; index += 1) {
      if (index % 5 === 0) {
        for await (const part of model.stream!({ prompt: 'leave early', abortSignal: signal })) if (part.type === 'text-delta') break;
      } else {
        expect(await drain(model.stream!({ prompt: `s${index}`, abortSignal: signal }))).toBe(`echo: s${index}`);
      }
    }
    expect(await listenerWarnings()).toEqual([]);
    expect(linkedListenerCount(signal)).toBe(0); // every call, streams included, let go of the signal
    expect(server.requests).toHaveLength(40 + 20 + 25);
  });

  it('an abort of the shared signal still rejects every in-flight call with the exact reason', async () => {
    const server = await serve(() => ({ delayMs: 10_000, content: 'never' }));
    const model = createOpenAICompatible({ baseURL: server.url, apiKey: 'k' }).languageModel('m');
    const controller = new AbortController();
    const reason = new Error('batch cancelled');
    const pending = Array.from({ length: 25 }, (_, index) => model.generate({ prompt: `p${index}`, abortSignal: controller.signal }).catch((error: unknown) => error));
    while (server.requests.length < 25) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    const outcomes = await Promise.all(pending);
    expect(outcomes.every((outcome) => outcome === reason)).toBe(true);
    expect(await listenerWarnings()).toEqual([]);
  });
});
