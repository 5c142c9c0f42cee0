import { InvalidArgumentError, type Reranker } from '@factkit/core';
import { createRankGptReranker } from '@factkit/retrieval';
import { connectLanguageModel, type Endpoint } from './endpoint.js';

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
