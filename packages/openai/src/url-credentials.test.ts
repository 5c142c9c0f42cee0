import { InvalidArgumentError, redactSecrets } from '@factkit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { urlWithoutCredentials } from './internal/client-config.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';

// Issue 21 §9: a key inside the base URL is refused with a clear message and never echoed.
const KEY = 'sk-urlsecret1234567890';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('credentials in the base URL', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('refuses baseURL with user:key@ (InvalidArgumentError) and shows the URL without them', () => {
    for (const baseURL of [`http://user:${KEY}@127.0.0.1:8080/v1`, `https://${KEY}@example.com/v1`, `http://:${KEY}@localhost/v1`]) {
      const error = thrown(() => createOpenAICompatible({ baseURL }));
      expect(InvalidArgumentError.isInstance(error), baseURL).toBe(true);
      expect((error as Error).message).toMatch(/^createOpenAICompatible: argument "baseURL" must not contain credentials \(user:key@host\): pass the key as apiKey or OPENAI_API_KEY \(got https?:\/\/[a-z0-9.]+(:\d+)?\/v1\)$/);
      expect((error as Error).message).not.toContain(KEY);
    }
  });

  it('refuses OPENAI_BASE_URL with credentials, naming it', () => {
    vi.stubEnv('OPENAI_BASE_URL', `http://user:${KEY}@127.0.0.1:8080/v1`);
    const error = thrown(() => createOpenAICompatible());
    expect((error as Error).message).toMatch(/argument "OPENAI_BASE_URL" must not contain credentials/);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('accepts a URL without credentials; urlWithoutCredentials strips only userinfo', () => {
    expect(createOpenAICompatible({ baseURL: 'http://127.0.0.1:8080/v1' }).baseURL).toBe('http://127.0.0.1:8080/v1');
    expect(urlWithoutCredentials('http://127.0.0.1:8080/v1')).toBeUndefined();
    expect(urlWithoutCredentials('not a url')).toBeUndefined();
    expect(urlWithoutCredentials(`http://u:${KEY}@h.example:81/v1?x=1`)).toBe('http://h.example:81/v1?x=1');
  });

  it('core redactSecrets removes URL userinfo wherever a URL is printed', () => {
    expect(redactSecrets(`provider openai-compatible(http://user:${KEY.slice(3)}@host/v1) failed`)).toBe('provider openai-compatible(http://[redacted]@host/v1) failed');
    expect(redactSecrets('mail me at a@b.org, see https://host/v1')).toBe('mail me at a@b.org, see https://host/v1');
  });
});
