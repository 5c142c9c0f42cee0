import { InvalidArgumentError } from '@factkit/core';
import type { Embedder, LanguageModel } from '@factkit/core';
import { createChatModel } from './internal/chat-model.js';
import { createConnection, DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, isHttpUrl, readEnv, urlWithoutCredentials, validateTimeout } from './internal/client-config.js';
import { createEmbeddingModel } from './internal/embedding-model.js';
import type { OpenAICompatibleEmbeddingOptions, OpenAICompatibleLanguageModelOptions, OpenAICompatibleSettings } from './openai-compatible-settings.js';

const WHERE = 'createOpenAICompatible';

/** Makes models of one OpenAI-compatible endpoint; the connection is set once, the model id per use. */
export interface OpenAICompatibleProvider {
  /** The endpoint's base URL (the setting, else `OPENAI_BASE_URL` at creation, else OpenAI's). */
  readonly baseURL: string;
  /** A core LanguageModel over `POST {baseURL}/chat/completions` (optional `stream`). @throws InvalidArgumentError for a bad id or option. */
  languageModel(modelId: string, options?: OpenAICompatibleLanguageModelOptions): LanguageModel;
  /** A core Embedder over `POST {baseURL}/embeddings`. @throws InvalidArgumentError for a bad id or option (or no `dimensions` for an unknown model). */
  embedder(modelId: string, options?: OpenAICompatibleEmbeddingOptions): Embedder;
}

/**
 * Creates a provider for any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp server, LM
 * Studio) on the official `openai` SDK. Connection settings are given once; the API key is read at call time, so
 * creating a provider never throws over a missing key. Models make one HTTP call per request and never retry: wrap
 * them with core `withRetry` / `withEmbeddingRetry`, the one retry layer (timeouts, dropped connections, 408/409/429/5xx
 * and 200 replies whose body is truncated or not JSON are retryable).
 * @throws InvalidArgumentError for a `baseURL` (or `OPENAI_BASE_URL`) that is not an http(s) URL or holds credentials
 * (`http://user:KEY@host`: refused, never echoed; pass the key as `apiKey`), or a bad `timeout`.
 * @example
 * const ollama = createOpenAICompatible({ baseURL: 'http://localhost:11434/v1' });
 * const model = withRetry(ollama.languageModel('llama3.1', { emulateN: true }), { maxRetries: 2 });
 * const { texts } = await model.generate({ prompt: 'Say hello.' });
 */
export function createOpenAICompatible(settings: OpenAICompatibleSettings = {}): OpenAICompatibleProvider {
  if (typeof settings !== 'object' || settings === null) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'settings', message: 'must be an object' });
  }
  const { apiKey, organization, project, headers, fetch, timeout = DEFAULT_TIMEOUT_MS } = settings;
  const fromEnv = settings.baseURL === undefined ? readEnv('OPENAI_BASE_URL') : undefined;
  const baseURL = (settings.baseURL ?? fromEnv ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!isHttpUrl(baseURL)) {
    throw new InvalidArgumentError({ where: WHERE, argument: fromEnv === undefined ? 'baseURL' : 'OPENAI_BASE_URL', message: 'must be an http(s) URL' });
  }
  const withoutCredentials = urlWithoutCredentials(baseURL);
  if (withoutCredentials !== undefined) {
    // Never echoed: provider ids, reports and error messages show the URL without its userinfo.
    throw new InvalidArgumentError({
      where: WHERE,
      argument: fromEnv === undefined ? 'baseURL' : 'OPENAI_BASE_URL',
      message: `must not contain credentials (user:key@host): pass the key as apiKey or OPENAI_API_KEY (got ${withoutCredentials})`,
    });
  }
  validateTimeout(WHERE, 'timeout', timeout);
  if (apiKey !== undefined && typeof apiKey !== 'string') {
    throw new InvalidArgumentError({ where: WHERE, argument: 'apiKey', message: 'must be a string' });
  }
  const connection = createConnection(WHERE, { baseUrl: baseURL, apiKey, organization, project, headers, fetch, timeoutMs: timeout });

  const checkId = (method: string, modelId: unknown): string => {
    if (typeof modelId !== 'string' || modelId.trim() === '') {
      throw new InvalidArgumentError({ where: `${WHERE}().${method}`, argument: 'modelId', message: 'must be a non-empty string' });
    }
    return modelId;
  };

  return {
    baseURL,
    languageModel(modelId, options = {}) {
      const id = checkId('languageModel', modelId);
      return createChatModel(`${WHERE}().languageModel('${id}')`, connection, id, options);
    },
    embedder(modelId, options = {}) {
      const id = checkId('embedder', modelId);
      return createEmbeddingModel(`${WHERE}().embedder('${id}')`, connection, id, options);
    },
  };
}
