import { describe, expect, it } from 'vitest';
import { CorruptDataError, FactkitError, InvalidArgumentError, ProviderCallError, ResponseParseError, redactSecrets } from './factkit-error.js';

describe('FactkitError', () => {
  it('is recognised by marker, also from another copy of core', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('factkit.error')]: true, [Symbol.for('factkit.error.InvalidArgumentError')]: true, code: 'invalid_argument' });
    expect(FactkitError.isInstance(foreign)).toBe(true);
    expect(InvalidArgumentError.isInstance(foreign)).toBe(true);
    expect(ProviderCallError.isInstance(foreign)).toBe(false);
    expect(FactkitError.isInstance(new Error('plain'))).toBe(false);
    expect(FactkitError.isInstance(null)).toBe(false);
  });
  it('a subclass guard never trusts the code: a base error with a subclass code is not that subclass', () => {
    // The lie this fixes: ProviderCallError.isInstance was true for this object, which has no provider or isRetryable.
    const base = new FactkitError('provider_call_failed', 'model returned 2 vectors for 3 texts');
    expect(FactkitError.isInstance(base)).toBe(true);
    expect(ProviderCallError.isInstance(base)).toBe(false);
    expect(InvalidArgumentError.isInstance(new FactkitError('invalid_argument', 'x'))).toBe(false);
    expect(ResponseParseError.isInstance(new FactkitError('response_parse_failed', 'x'))).toBe(false);
    expect(CorruptDataError.isInstance(new FactkitError('corrupt_data', 'x'))).toBe(false);
    // Only the code of a foreign object says nothing either.
    expect(ProviderCallError.isInstance(Object.assign(new Error('x'), { [Symbol.for('factkit.error')]: true, code: 'provider_call_failed' }))).toBe(false);
  });
  it('each subclass is recognised by its own guard and the base guard, and by no sibling guard', () => {
    const cases = [
      [InvalidArgumentError, new InvalidArgumentError({ argument: 'k', message: 'bad' })],
      [ProviderCallError, new ProviderCallError({ provider: 'p', message: 'down', statusCode: 503 })],
      [ResponseParseError, new ResponseParseError({ message: 'bad', raw: '{' })],
      [CorruptDataError, new CorruptDataError({ message: 'truncated' })],
    ] as const;
    for (const [ownClass, error] of cases) {
      expect(FactkitError.isInstance(error)).toBe(true);
      for (const [otherClass] of cases) expect(otherClass.isInstance(error)).toBe(otherClass === ownClass);
    }
    const provider = cases[1][1];
    if (ProviderCallError.isInstance(provider)) expect([provider.provider, provider.isRetryable]).toEqual(['p', true]);
    else expect.unreachable('a ProviderCallError must pass its own guard');
  });
  it('subclasses carry code, name and details', () => {
    const invalid = new InvalidArgumentError({ where: 'createBm25Retriever', argument: 'k1', message: 'must be > 0 (got -1)' });
    expect(invalid.message).toBe('createBm25Retriever: argument "k1" must be > 0 (got -1)');
    expect(invalid.argument).toBe('k1');
    expect(invalid.name).toBe('InvalidArgumentError');
    const provider = new ProviderCallError({ provider: 'openai', message: 'rate limited', statusCode: 429, retryAfterSeconds: 2 });
    expect(provider.isRetryable).toBe(true);
    expect(new ProviderCallError({ provider: 'openai', message: 'bad request', statusCode: 400 }).isRetryable).toBe(false);
    expect(new ResponseParseError({ message: 'bad json', raw: '{' }).code).toBe('response_parse_failed');
    expect(new CorruptDataError({ message: 'truncated', source: 'index.bin' }).message).toBe('index.bin: truncated');
  });
  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new FactkitError('unsupported', 'x', { cause }).cause).toBe(cause);
  });
});

describe('redactSecrets', () => {
  it('removes API keys, bearer tokens and given secrets', () => {
    const text = 'key sk-abcdefghijklmnop123 header Authorization: Bearer abcdefghijklmnop api_key=xyz12345 and mysecretvalue';
    const out = redactSecrets(text, ['mysecretvalue']);
    expect(out).not.toMatch(/sk-abcdefghijklmnop123|abcdefghijklmnop|xyz12345|mysecretvalue/);
    expect(out).toContain('[redacted]');
  });
  it('never leaks the key through ProviderCallError', () => {
    const error = new ProviderCallError({ provider: 'openai', message: 'Incorrect API key provided: sk-live1234567890abcdef', responseBody: '{"error":"sk-live1234567890abcdef"}', statusCode: 401 });
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('sk-live1234567890abcdef');
  });
});
