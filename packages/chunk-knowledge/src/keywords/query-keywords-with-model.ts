import { InvalidArgumentError, isRefusal, itemFailed, itemOk, runPromptedStep } from '@factkit/core';
import type { GenerationProvenance, ItemOutcome, LanguageModel, ProgressCallback } from '@factkit/core';
import { parseQueryKeywordReply } from '../knowledge/parse-chunk-knowledge.js';
import { QUERY_KEYWORDS_PROMPT } from '../knowledge/prompts.js';
import type { QueryKeywords } from './query-keywords.js';
import { buildQueryKeywords } from './query-keywords.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

export const QUERY_KEYWORDS_STEP = 'chunk-knowledge.query-keywords';

export interface QueryKeywordsWithModelOptions {
  readonly model: LanguageModel;
  /** Placeholder `{{query}}`. @default CHUNK_KNOWLEDGE_PROMPTS.queryKeywords */
  readonly prompt?: string;
  /** @default 0 */
  readonly temperature?: number;
  /** @default 100 */
  readonly maxTokens?: number;
  /** @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called as queries finish (`failed` counts failed calls so far). */
  readonly onProgress?: ProgressCallback;
}

export interface QueryKeywordsWithModelResult {
  /**
   * One outcome per query, in input order: `ok` with the keywords and the call's provenance, or `failed` (call failed,
   * empty reply, refusal) with problems carrying the query's `index`, and `raw` = the reply when there was one.
   */
  readonly outcomes: ItemOutcome<QueryKeywords & { readonly provenance: GenerationProvenance }, ChunkKnowledgeProblemCode>[];
}

/**
 * Query keywords (§3.1) from a language model: the model lists keywords copied from the query; each is located in
 * the query as a span and the tokens are BIO-tagged (KB / KI / O). Keywords the query does not contain are reported
 * (`keyword-not-in-query`), never tagged. Failed calls, empty replies and refusals are `failed` outcomes.
 */
export async function extractQueryKeywordsWithModel(queries: readonly string[], options: QueryKeywordsWithModelOptions): Promise<QueryKeywordsWithModelResult> {
  const { model, prompt = QUERY_KEYWORDS_PROMPT, temperature = 0, maxTokens = 100, concurrency = 4, abortSignal, onProgress } = options;
  if (!Array.isArray(queries) || queries.some((query) => typeof query !== 'string')) {
    throw new InvalidArgumentError({ where: 'extractQueryKeywordsWithModel', argument: 'queries', message: 'must be an array of strings' });
  }
  const steps = await runPromptedStep(queries, {
    step: QUERY_KEYWORDS_STEP,
    model,
    template: prompt,
    variables: (query) => ({ query }),
    parse: (reply, query) => {
      if (reply.trim() === '') return { problems: [{ code: 'empty-reply', message: 'the model returned no text' }] };
      if (isRefusal(reply)) return { problems: [{ code: 'refusal', message: 'the model refused', raw: reply.slice(0, 500) }] };
      const parsed = parseQueryKeywordReply(reply, query);
      return { value: parsed.spans, problems: parsed.problems };
    },
    temperature,
    maxTokens,
    concurrency,
    ...(abortSignal ? { abortSignal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const outcomes = steps.map((step, index): QueryKeywordsWithModelResult['outcomes'][number] => {
    const query = queries[index]!;
    if (step.status === 'failed' || step.value === undefined) {
      const problems = (step.problems.length > 0 ? step.problems : [{ code: 'no-usable-reply' as const, message: 'no usable reply' }]).map((problem) => ({ ...problem, index }));
      return itemFailed(
        problems,
        step.raw.find((reply) => reply !== ''),
      );
    }
    return itemOk({ ...buildQueryKeywords(query, step.value, QUERY_KEYWORDS_STEP, step.problems), provenance: step.provenance });
  });
  return { outcomes };
}
