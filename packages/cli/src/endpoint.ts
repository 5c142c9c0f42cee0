import { resolve } from 'node:path';
import { type Embedder, InvalidArgumentError, type LanguageModel, withCache, withEmbeddingRetry, withRetry } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { type OpenAICompatibleProvider, createOpenAICompatible, urlWithoutCredentials } from '@factkit/openai';

/** The endpoint flags every LLM-capable subcommand takes (node:util parseArgs option table). */
export const ENDPOINT_OPTIONS = {
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  'cache-dir': { type: 'string' },
  offline: { type: 'boolean', default: false },
} as const;

export interface EndpointValues {
  readonly 'base-url'?: string | undefined;
  readonly model?: string | undefined;
  readonly 'api-key'?: string | undefined;
  readonly 'cache-dir'?: string | undefined;
  readonly offline?: boolean | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * An OpenAI-compatible endpoint from the flags (a config file's values are already flags, see applyConfig) and the
 * environment: flags > OPENAI_BASE_URL / OPENAI_API_KEY / FACTKIT_MODEL. Retries (core withRetry, 2 after the first
 * attempt) and, for chat models, a file call cache (`cacheDirectory`) so an interrupted job resumes.
 */
export interface Endpoint {
  /** Base URL including `/v1`. */
  readonly baseURL: string;
  /** API key; never logged, cached or reported. */
  readonly apiKey?: string;
  /** `--model`, else FACTKIT_MODEL. */
  readonly model?: string;
  /** Directory of the chat call cache. @default no cache */
  readonly cacheDirectory?: string;
  /** Retries per call after the first attempt. @default 2 */
  readonly maxRetries?: number;
}

/**
 * The endpoint a subcommand was given: `--base-url`, else OPENAI_BASE_URL unless `--offline`; `undefined` means
 * the offline path. The call cache is `--cache-dir`, default `.factkit-cache/<job>`.
 * @throws InvalidArgumentError naming `--base-url` (or OPENAI_BASE_URL) for a URL with credentials (never echoed).
 */
export function resolveEndpoint(job: string, values: EndpointValues, env: Env): Endpoint | undefined {
  const baseURL = values['base-url'] ?? (values.offline ? undefined : env['OPENAI_BASE_URL'] || undefined);
  if (!baseURL) return undefined;
  const withoutCredentials = urlWithoutCredentials(baseURL);
  if (withoutCredentials !== undefined) {
    // Refused before anything is printed or written: the key never reaches stdout, --out or a report.
    throw new InvalidArgumentError({
      where: `factkit ${job}`,
      argument: values['base-url'] === undefined ? 'OPENAI_BASE_URL' : '--base-url',
      message: `must not contain credentials (user:key@host): pass the key with --api-key or OPENAI_API_KEY (got ${withoutCredentials})`,
    });
  }
  const apiKey = values['api-key'] ?? (env['OPENAI_API_KEY'] || undefined);
  const model = values.model ?? (env['FACTKIT_MODEL'] || undefined);
  return { baseURL, ...(apiKey ? { apiKey } : {}), ...(model ? { model } : {}), cacheDirectory: resolve(values['cache-dir'] ?? `.factkit-cache/${job}`) };
}

function provider(endpoint: Endpoint): OpenAICompatibleProvider {
  return createOpenAICompatible({ baseURL: endpoint.baseURL, ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}) });
}

/**
 * The endpoint's model id.
 * @throws InvalidArgumentError naming `--model` (in `factkit <job>`) when there is none.
 */
export function requireModel(endpoint: Endpoint, job: string): string {
  if (!endpoint.model) throw new InvalidArgumentError({ where: `factkit ${job}`, argument: '--model', message: 'is needed with an endpoint (or set FACTKIT_MODEL; --offline ignores OPENAI_BASE_URL)' });
  return endpoint.model;
}

/**
 * A chat model on the endpoint (`modelId`, default the endpoint's model), behind core withRetry (the one retry
 * layer) and the file call cache when the endpoint has one.
 * @throws InvalidArgumentError naming `--model` (in `factkit <job>`) when no model id is given.
 */
export function connectLanguageModel(endpoint: Endpoint, job: string, modelId: string = requireModel(endpoint, job)): LanguageModel {
  const model = withRetry(provider(endpoint).languageModel(modelId), { maxRetries: endpoint.maxRetries ?? 2 });
  return endpoint.cacheDirectory ? withCache(model, createFileCache({ directory: endpoint.cacheDirectory })) : model;
}

/** An embedding model on the endpoint, behind core withEmbeddingRetry. */
export function connectEmbedder(endpoint: Endpoint, modelId: string, dimensions: number): Embedder {
  return withEmbeddingRetry(provider(endpoint).embedder(modelId, { dimensions }), { maxRetries: endpoint.maxRetries ?? 2 });
}

/** The endpoint's provider, for `factkit models` (which lists models and makes one uncached chat call). */
export function endpointProvider(endpoint: Endpoint): OpenAICompatibleProvider {
  return provider(endpoint);
}
