import { resolve } from 'node:path';
import { InvalidArgumentError, withCache, withRetry, type LanguageModel } from '@factkit/core';
import { createFileCache } from '@factkit/core/node';
import { createOpenAICompatible } from '@factkit/openai';

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

/** `--base-url`, else OPENAI_BASE_URL unless `--offline`; undefined means the offline path. */
export function resolveBaseUrl(values: EndpointValues, env: Readonly<Record<string, string | undefined>>): string | undefined {
  return values['base-url'] ?? (values.offline ? undefined : env['OPENAI_BASE_URL'] || undefined);
}

/**
 * The chat model of a subcommand: `--model` (else FACTKIT_MODEL) on the endpoint, behind core withRetry (the one
 * retry layer) and a file call cache (`--cache-dir`, default `.factkit-cache/<job>`), so an interrupted job resumes.
 * @throws InvalidArgumentError naming `--model` when no model id is given.
 */
export function createEndpointModel(job: string, baseURL: string, values: EndpointValues, env: Readonly<Record<string, string | undefined>>): LanguageModel {
  const modelId = values.model ?? (env['FACTKIT_MODEL'] || undefined);
  if (!modelId) throw new InvalidArgumentError({ where: `factkit ${job}`, argument: '--model', message: 'is needed with an endpoint (or set FACTKIT_MODEL)' });
  const provider = createOpenAICompatible({ baseURL, ...(values['api-key'] ? { apiKey: values['api-key'] } : {}) });
  return withCache(withRetry(provider.languageModel(modelId), { maxRetries: 2 }), createFileCache({ directory: resolve(values['cache-dir'] ?? `.factkit-cache/${job}`) }));
}
