// The figure of issue 7: a real local OpenAI-compatible server (127.0.0.1) answers 5% of chat-completion requests with a
// 200 whose JSON body is cut off mid-way (seeded choice of which requests); a batch of 100 generations with bounded
// concurrency under core `withRetry` ends with 100 done and every retry counted. Prints one summary line:
//   pnpm --filter @factkit/openai exec vitest run test/truncated-replies.test.ts
// Another seed: FACTKIT_FAULT_SEED=<n>.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSeededRandom, createUsageMeter, ProviderCallError, settleWithConcurrency, withRetry } from '@factkit/core';
import type { GenerateResult, LanguageModel } from '@factkit/core';
import type { ScriptedReply, ScriptedRequest } from '@factkit/test-utils';
import { useListenerWarnings } from './listener-warnings.js';
import { useScriptedServers } from './scripted-server.js';
import { createOpenAICompatible } from '../src/index.js';
import { getEventListeners } from 'node:events';

const linkedListenerCount = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

const SEED = Number(process.env.FACTKIT_FAULT_SEED ?? 20_261_122);
const GENERATIONS = 100;
const TRUNCATED_SHARE = 0.05;
const CONCURRENCY = 8;

const serve = useScriptedServers();
const maxListenerWarnings = useListenerWarnings();

/** `count` distinct indices in [0, range), chosen by a seeded partial Fisher–Yates shuffle. */
function seededSample(range: number, count: number, seed: number): Set<number> {
  const random = createSeededRandom(seed);
  const pool = Array.from({ length: range }, (_, index) => index);
  for (let index = 0; index < count; index += 1) {
    const pick = index + Math.floor(random() * (range - index));
    [pool[index], pool[pick]] = [pool[pick] as number, pool[index] as number];
  }
  return new Set(pool.slice(0, count));
}

/**
 * A scripted-server handler: the chat requests whose arrival number is in `truncated` get a 200 with a cut-off JSON
 * body (`malformed`); every request waits a seeded 0–9 ms so calls really overlap; the rest echo their prompt.
 */
function faultyServer(truncated: ReadonlySet<number>) {
  const delays = createSeededRandom(SEED + 1);
  const counts = { chatRequests: 0, truncatedReplies: 0 };
  const handler = (request: ScriptedRequest): ScriptedReply => {
    const delayMs = Math.floor(delays() * 10);
    if (request.path !== '/v1/chat/completions') return { delayMs };
    const arrival = counts.chatRequests;
    counts.chatRequests += 1;
    if (truncated.has(arrival)) {
      counts.truncatedReplies += 1;
      return { malformed: true, delayMs };
    }
    return { delayMs };
  };
  return { handler, counts };
}

/** Wraps a model to record the most calls in flight at once (the batch's concurrency bound, seen from the client). */
function trackInFlight(model: LanguageModel): { model: LanguageModel; maxInFlight: () => number } {
  let inFlight = 0;
  let most = 0;
  return {
    maxInFlight: () => most,
    model: {
      ...model,
      async generate(request): Promise<GenerateResult> {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          return await model.generate(request);
        } finally {
          inFlight -= 1;
        }
      },
    },
  };
}

describe(`a local server answering ${TRUNCATED_SHARE * 100}% of chat completions with a truncated 200 body (seed ${SEED})`, () => {
  const prompts = Array.from({ length: GENERATIONS }, (_, index) => `claim number ${index}`);
  const truncated = seededSample(GENERATIONS, Math.round(GENERATIONS * TRUNCATED_SHARE), SEED);

  it(`a batch of ${GENERATIONS} generations (concurrency ${CONCURRENCY}) under withRetry ends with ${GENERATIONS} done and the retries counted`, async () => {
    // Control, same faults, no retry layer: the truncated replies are per-item failures (retryable), nothing else lost.
    const control = faultyServer(truncated);
    const controlServer = await serve(control.handler);
    const bare = createOpenAICompatible({ baseURL: controlServer.url, apiKey: 'k', timeout: 10_000 }).languageModel('m');
    const controlRun = await settleWithConcurrency(prompts, (prompt) => bare.generate({ prompt, temperature: 0 }), { concurrency: CONCURRENCY });
    const controlFailures = controlRun.flatMap((entry) => (entry.status === 'rejected' ? [entry.error] : []));
    expect(controlFailures).toHaveLength(truncated.size);
    for (const error of controlFailures) {
      expect(ProviderCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 200, isRetryable: true });
    }

    // The figure: the same faults, the model under core withRetry (the one retry layer), a usage meter inside it.
    const faults = faultyServer(truncated);
    const server = await serve(faults.handler);
    const meter = createUsageMeter();
    const retries: { attempt: number; error: unknown }[] = [];
    const inner = trackInFlight(createOpenAICompatible({ baseURL: server.url, apiKey: 'k', timeout: 10_000 }).languageModel('m'));
    const model = withRetry(meter.track(inner.model), {
      maxRetries: 3,
      initialDelayMs: 5,
      maxDelayMs: 50,
      random: createSeededRandom(SEED + 2),
      onRetry: (event) => retries.push(event),
    });
    const controller = new AbortController(); // one signal for the whole batch
    const run = await settleWithConcurrency(prompts, (prompt) => model.generate({ prompt, temperature: 0, abortSignal: controller.signal }), {
      concurrency: CONCURRENCY,
      abortSignal: controller.signal,
    });

    const done = run.filter((entry) => entry.status === 'fulfilled');
    const texts = run.map((entry) => (entry.status === 'fulfilled' ? entry.value.texts[0] : undefined));
    const report = meter.report();
    const listenerWarnings = await maxListenerWarnings();
    const summary = {
      seed: SEED,
      generations: GENERATIONS,
      concurrency: CONCURRENCY,
      maxInFlight: inner.maxInFlight(),
      done: done.length,
      failed: GENERATIONS - done.length,
      chatRequests: faults.counts.chatRequests,
      truncatedReplies: faults.counts.truncatedReplies,
      retries: retries.length,
      meter: { calls: report.calls, failedCalls: report.failedCalls, totalTokens: report.totalTokens },
      controlWithoutRetry: { done: controlRun.length - controlFailures.length, failed: controlFailures.length },
      maxListenersWarnings: listenerWarnings.length,
    };
    console.log(`[truncated-200 figure] ${JSON.stringify(summary)}`);

    expect(texts).toEqual(prompts.map((prompt) => `echo: ${prompt}`)); // 100 done, each with its own prompt's answer
    expect(summary.truncatedReplies).toBe(truncated.size);
    expect(summary.retries).toBe(truncated.size); // one retry per truncated reply, none for anything else
    expect(retries.every(({ error }) => ProviderCallError.isInstance(error) && error.statusCode === 200)).toBe(true);
    expect(summary.chatRequests).toBe(GENERATIONS + truncated.size);
    expect(summary.meter).toMatchObject({ calls: GENERATIONS + truncated.size, failedCalls: truncated.size });
    expect(summary.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
    expect(listenerWarnings).toEqual([]);
    expect(linkedListenerCount(controller.signal)).toBe(0);
  });

  it('a 200 whose connection closes before the announced Content-Length is retried the same way (raw node:http server)', async () => {
    let requests = 0;
    const body = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'whole reply' }, finish_reason: 'stop' }] });
    const raw = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        requests += 1;
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        if (requests === 1) {
          response.write(body.slice(0, 40)); // cut mid-body: the client sees fewer bytes than announced
          setTimeout(() => response.socket?.destroy(), 10);
        } else response.end(body);
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = raw.address() as AddressInfo;
      const bare = createOpenAICompatible({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k' }).languageModel('m');
      const error = await bare.generate({ prompt: 'x' }).catch((failure: unknown) => failure);
      expect(ProviderCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ isRetryable: true });
      const retries: unknown[] = [];
      requests = 0;
      const model = withRetry(bare, { initialDelayMs: 1, random: () => 0, onRetry: (event) => retries.push(event) });
      expect((await model.generate({ prompt: 'x' })).texts).toEqual(['whole reply']);
      expect(retries).toHaveLength(1);
      expect(requests).toBe(2);
    } finally {
      await new Promise<void>((resolve) => {
        raw.closeAllConnections();
        raw.close(() => resolve());
      });
    }
  });
});
