import { InvalidArgumentError, isRefusal, runPromptedStep } from '@factkit/core';
import type { GenerationProvenance, ItemProblem, LanguageModel } from '@factkit/core';
import { parseQueryKeywordReply } from '../knowledge/parse-chunk-knowledge.js';
import { QUERY_KEYWORDS_PROMPT } from '../knowledge/prompts.js';
import type { QueryKeywords } from './query-keywords.js';
import { buildQueryKeywords } from './query-keywords.js';

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
  readonly onProgress?: (progress: { readonly done: number; readonly total: number; readonly failed: number }) => void;
}

export interface QueryKeywordsWithModelResult {
  /** One per query that got a usable reply, in input order, with the call's provenance. */
  readonly items: Array<QueryKeywords & { readonly index: number; readonly provenance: GenerationProvenance }>;
  readonly failed: Array<{ readonly index: number; readonly query: string; readonly reason: string; readonly problems: readonly ItemProblem[] }>;
}

/**
 * Query keywords (§3.1) from a language model: the model lists keywords copied from the query; each is located in
 * the query as a span and the tokens are BIO-tagged (KB / KI / O). Keywords the query does not contain are reported
 * (`keyword-not-in-query`), never tagged. Failed calls, empty replies and refusals go to `failed`.
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
  const items: QueryKeywordsWithModelResult['items'] = [];
  const failed: QueryKeywordsWithModelResult['failed'] = [];
  steps.forEach((step, index) => {
    const query = queries[index]!;
    if (step.status === 'failed' || step.value === undefined) {
      failed.push({ index, query, reason: step.problems[0]?.message ?? 'no usable reply', problems: step.problems });
      return;
    }
    items.push({ ...buildQueryKeywords(query, step.value, QUERY_KEYWORDS_STEP, step.problems), index, provenance: step.provenance });
  });
  return { items, failed };
}
