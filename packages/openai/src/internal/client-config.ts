import OpenAI from 'openai';
import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Sent as the bearer token to local endpoints (Ollama, vLLM, llama.cpp, LM Studio) that need no key. */
export const PLACEHOLDER_API_KEY = 'no-key-needed';
export const PROVIDER = 'openai-compatible';
/** Time limit of one call, in ms, when none is given. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Connection settings after defaults: what every call of one provider shares. */
export interface ConnectionSettings {
  /** The base URL (already checked and without a trailing slash). */
  readonly baseUrl: string;
  /** Given key; without it `OPENAI_API_KEY` is read on every call. */
  readonly apiKey?: string | undefined;
  readonly organization?: string | undefined;
  readonly project?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly timeoutMs: number;
  readonly fetch?: typeof globalThis.fetch | undefined;
}

export interface ResolvedConnection {
  readonly client: OpenAI;
  readonly baseUrl: string;
  /** Strings that must never appear in errors (the key and auth-like header values). */
  readonly secrets: readonly string[];
}

export interface Connection {
  /** Resolves base URL and key (the key read now) and returns an SDK client, reused while they stay the same. */
  resolve(): ResolvedConnection;
  /** `openai-compatible(<base URL>)`, for cache keys and logs. */
  providerName(): string;
  readonly timeoutMs: number;
}

const AUTH_HEADER = /authorization|api[-_]?key|token|secret|password|cookie/i;

/** An environment variable, trimmed; undefined when unset or blank. */
export function readEnv(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** True for hosts that always need a real key: OpenAI itself and Azure OpenAI. */
export function requiresApiKey(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'api.openai.com' || host.endsWith('.openai.azure.com');
}

export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The URL without its userinfo when `value` is a URL holding credentials (`http://user:KEY@host/v1` →
 * `http://host/v1`), else `undefined` (no credentials, or not a URL).
 */
export function urlWithoutCredentials(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username === '' && url.password === '') return undefined;
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

/** `openai-compatible(<base URL>)`: two endpoints serving the same model name never share cached answers. */
export function providerNameFor(baseUrl: string): string {
  return `${PROVIDER}(${baseUrl.replace(/\/+$/, '')})`;
}

/** Checks a timeout in ms: an integer >= 1. */
export function validateTimeout(where: string, argument: string, value: unknown): void {
  if (value !== undefined) assertPositiveInteger(argument, value, where);
}

/**
 * A connection whose key is read on every call (the setting, else `OPENAI_API_KEY`), so creating it never fails over a
 * missing key. The SDK's own retries are off: core `withRetry` is the only retry layer.
 */
export function createConnection(where: string, settings: ConnectionSettings): Connection {
  let cached: { signature: string; connection: ResolvedConnection } | undefined;
  const { organization, project, headers = {}, timeoutMs, fetch: fetchImpl } = settings;
  const headerSecrets = Object.entries(headers)
    .filter(([name]) => AUTH_HEADER.test(name))
    .map(([, value]) => value);
  return {
    timeoutMs,
    providerName: () => providerNameFor(settings.baseUrl),
    resolve() {
      const { baseUrl } = settings;
      const givenKey = settings.apiKey ?? readEnv('OPENAI_API_KEY');
      if (givenKey === undefined && requiresApiKey(baseUrl)) {
        throw new InvalidArgumentError({
          where,
          argument: 'apiKey',
          message: `is missing for ${new URL(baseUrl).host}: pass the "apiKey" setting or set OPENAI_API_KEY`,
        });
      }
      const apiKey = givenKey ?? PLACEHOLDER_API_KEY;
      const signature = JSON.stringify([baseUrl, apiKey]);
      if (cached?.signature === signature) return cached.connection;
      const client = new OpenAI({
        apiKey,
        baseURL: baseUrl,
        organization: organization ?? null,
        project: project ?? null,
        defaultHeaders: headers,
        timeout: timeoutMs,
        maxRetries: 0,
        logLevel: 'off',
        fetch: withNormalizedErrorBodies(fetchImpl ?? ((input, init) => globalThis.fetch(input, init))),
      });
      const secrets = givenKey === undefined ? headerSecrets : [givenKey, ...headerSecrets];
      cached = { signature, connection: { client, baseUrl, secrets } };
      return cached.connection;
    },
  };
}

/**
 * Wraps fetch so error bodies without an OpenAI `error` envelope get one. Older vLLM answers
 * `{"object":"error","message":…}` and FastAPI servers `{"detail":…}`; the SDK only reads `body.error`, so their
 * message would otherwise be lost ("400 status code (no body)").
 */
function withNormalizedErrorBodies(fetchImpl: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (response.ok) return response;
    const text = await response.text();
    let body = text;
    try {
      const json = JSON.parse(text) as unknown;
      if (typeof json === 'object' && json !== null && !Array.isArray(json) && !('error' in json)) {
        const record = json as Record<string, unknown>;
        const message = typeof record.message === 'string' ? record.message : typeof record.detail === 'string' ? record.detail : undefined;
        body = JSON.stringify({ error: message === undefined ? record : { ...record, message } });
      }
    } catch {
      // not JSON: the SDK reports the text as the message
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
