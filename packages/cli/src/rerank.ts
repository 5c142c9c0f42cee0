import { InvalidArgumentError, type Reranker, type Retriever } from '@factkit/core';
import { createRankGptReranker, withReranker } from '@factkit/retrieval';
import { integerFlag } from './command.js';
import { connectLanguageModel, type Endpoint } from './endpoint.js';

/** The reranking flags (node:util parseArgs option table) of a command that searches. */
export const RERANK_OPTIONS = {
  rerank: { type: 'string' },
  'rerank-depth': { type: 'string' },
} as const;

/** What `--rerank` accepts. */
export const RERANK_USAGE = `--rerank llm                    RankGPT listwise reranking (sliding window 20, step 10) by the endpoint's chat model
                                  (--base-url/--model or OPENAI_BASE_URL/FACTKIT_MODEL; calls cached in --cache-dir)
  --rerank cross-encoder:<dir>    a local transformers.js cross-encoder (sequence-classification ONNX model folder)
  --rerank-depth 100              first-stage candidates reranked`;

/**
 * The reranker a `--rerank` value names: `llm` (RankGPT through the endpoint's chat model, behind the CLI's retry and
 * file call cache) or `cross-encoder:<dir>` (`@factkit/transformers`, loaded from the folder).
 * @throws InvalidArgumentError naming `--rerank` for an unknown value, `llm` without an endpoint, or a bad folder.
 */
export async function createCliReranker(spec: string, options: { readonly where: string; readonly job: string; readonly endpoint: Endpoint | undefined }): Promise<Reranker> {
  const { where, job, endpoint } = options;
  if (spec === 'llm') {
    if (!endpoint) throw new InvalidArgumentError({ where, argument: '--rerank', message: 'llm needs an OpenAI-compatible endpoint (--base-url or OPENAI_BASE_URL, and --model or FACTKIT_MODEL)' });
    return createRankGptReranker({ model: connectLanguageModel(endpoint, job) });
  }
  if (spec.startsWith('cross-encoder:') && spec.length > 'cross-encoder:'.length) {
    const { createTransformersCrossEncoder } = await import('@factkit/transformers');
    try {
      return createTransformersCrossEncoder({ modelPath: spec.slice('cross-encoder:'.length) });
    } catch (cause) {
      throw new InvalidArgumentError({ where, argument: '--rerank', message: `cannot use ${spec}: ${(cause as Error).message}`, cause });
    }
  }
  throw new InvalidArgumentError({ where, argument: '--rerank', message: `must be llm or cross-encoder:<model folder> (got ${JSON.stringify(spec)})` });
}

/**
 * `retriever` as given without `--rerank`, else wrapped by `withReranker` with the named reranker over the first
 * `--rerank-depth` (default 100) candidates.
 * @throws InvalidArgumentError naming `--rerank` or `--rerank-depth`.
 */
export async function withCliReranker(
  retriever: Retriever,
  values: { readonly rerank?: string | undefined; readonly 'rerank-depth'?: string | undefined },
  options: { readonly job: string; readonly endpoint: Endpoint | undefined },
): Promise<Retriever> {
  if (values.rerank === undefined) return retriever;
  const candidates = integerFlag(options.job, 'rerank-depth', values['rerank-depth'] ?? '100');
  const reranker = await createCliReranker(values.rerank, { where: `factkit ${options.job}`, job: options.job, endpoint: options.endpoint });
  return withReranker(retriever, reranker, { candidates });
}
