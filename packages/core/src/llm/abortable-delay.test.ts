import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortableDelay } from './abortable-delay.js';
import { withRetry } from './with-retry.js';
import { ProviderCallError } from '../errors/factkit-error.js';
import type { LanguageModel } from '../language-model.js';

describe('abortableDelay on a shared signal (issue 21, smaller: MaxListenersExceededWarning)', () => {
  it('64 waits hold one abort listener, resolve without leaving one, and all reject with the reason on abort', async () => {
    const controller = new AbortController();
    const waits = Array.from({ length: 64 }, () => abortableDelay(5, controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await Promise.all(waits);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const pending = Array.from({ length: 64 }, () => abortableDelay(60_000, controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('stop');
    controller.abort(reason);
    const settled = await Promise.allSettled(pending);
    expect(settled.every((result) => result.status === 'rejected' && result.reason === reason)).toBe(true);
  });

  it('withRetry under concurrency 64 with failing calls emits no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const attempts = new Map<string, number>();
      const flaky: LanguageModel = {
        id: 'flaky',
        async generate({ prompt }) {
          const attempt = (attempts.get(prompt as string) ?? 0) + 1;
          attempts.set(prompt as string, attempt);
          if (attempt <= 2) throw new ProviderCallError({ provider: 'flaky', message: 'HTTP 503', statusCode: 503 });
          return { texts: ['ok'] } as never;
        },
      } as LanguageModel;
      const model = withRetry(flaky, { maxRetries: 3, initialDelayMs: 20, maxDelayMs: 40 });
      const controller = new AbortController();
      const replies = await Promise.all(Array.from({ length: 64 }, (_, index) => model.generate({ prompt: `x${index}`, abortSignal: controller.signal })));
      expect(replies.every((reply) => reply.texts[0] === 'ok')).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
