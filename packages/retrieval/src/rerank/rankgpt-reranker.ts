import type { Evidence, LanguageModel, ProgressCallback, Reranker, StepItem } from '@factkit/core';
import { assertPositiveInteger, createPromptTemplate, InvalidArgumentError, runPromptedStep } from '@factkit/core';
import { parseRankGptPermutation } from './parse-rankgpt-permutation.js';
import { RANKGPT_PROMPT, RANKGPT_SYSTEM } from './rankgpt-prompt.js';
import type { RetrievalProblem, RetrievalProblemCode } from '../problem-codes.js';

export interface RankGptRerankerOptions {
  /** The listwise ranker; wrap it with core `withCache` (free reruns, resumable batches) and `withRetry`. */
  readonly model: LanguageModel;
  /** Passages per call (RankGPT: 20). @default 20 */
  readonly windowSize?: number;
  /** How far the window moves up between calls (RankGPT: 10). Must be ≤ windowSize. @default 10 */
  readonly step?: number;
  /** Words of each passage sent (RankGPT: 300). @default 300 */
  readonly maxPassageWords?: number;
  /** Prompt with `{{num}}`, `{{query}}` and `{{passages}}`. @default the paper's permutation-generation prompt */
  readonly prompt?: string;
  /** @default the paper's system message */
  readonly system?: string;
  /** RankGPT decodes greedily. @default 0 */
  readonly temperature?: number;
  /** @default provider default */
  readonly maxTokens?: number;
  /** Called after each window (`completed` windows of `total` for the query). */
  readonly onProgress?: ProgressCallback;
}

/** The step name recorded in the provenance of every RankGPT call. */
export const RANKGPT_STEP = 'retrieval.rankgpt';

/** The windows RankGPT visits, bottom first: [start, end) pairs, the last one always starting at 0. */
export function rankGptWindows(count: number, windowSize: number, step: number): [number, number][] {
  const windows: [number, number][] = [];
  for (let start = count - windowSize; ; start -= step) {
    const from = Math.max(start, 0);
    const to = Math.min(from + windowSize, count);
    if (to - from > 1) windows.push([from, to]);
    if (from === 0) return windows;
  }
}

function passageText(evidence: Evidence, maxWords: number): string {
  const title = evidence.origin?.title;
  const content = title ? `Title: ${title} Content: ${evidence.text}` : evidence.text;
  return content.split(/\s+/).filter(Boolean).slice(0, maxWords).join(' ');
}

/**
 * RankGPT (Sun et al., 2023) as a core {@link Reranker}: permutation generation over a sliding window (20 passages,
 * step 10) moved from the bottom of the candidate list to the top, so strong passages bubble up; each window is one
 * call of the paper's permutation-generation prompt through core `runPromptedStep`, its reply parsed tolerantly (repaired as
 * RankGPT does). Listwise ranking gives an order, not scores: the result's score is `1 / rank`. RankGPT's loop skips
 * the top passages when (n − window) is not a multiple of the step; here the last window always starts at the top.
 *
 * A refused or unreadable reply keeps that window's incoming order and is reported in `problems` (with the window);
 * a failed call rejects with its error (no partial ranking passes for a reranked one); an abort rejects with the
 * reason. The LLM-free counterpart is the cross-encoder (`createTransformersCrossEncoder` in `@factkit/transformers`).
 * @throws InvalidArgumentError for a missing model, bad sizes, or a prompt without its placeholders.
 * @example withReranker(bm25, createRankGptReranker({ model: withCache(openai.languageModel('gpt-4o-mini'), cache) }), { candidates: 100 })
 */
export function createRankGptReranker(options: RankGptRerankerOptions): Reranker {
  const where = 'createRankGptReranker';
  if (!options || typeof options !== 'object') throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object with a model' });
  const { model, windowSize = 20, step = 10, maxPassageWords = 300, prompt = RANKGPT_PROMPT, system = RANKGPT_SYSTEM, temperature = 0, maxTokens, onProgress } = options;
  if (!model || typeof model.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'model', message: 'must be a LanguageModel (an object with generate())' });
  assertPositiveInteger('windowSize', windowSize, where);
  assertPositiveInteger('step', step, where);
  assertPositiveInteger('maxPassageWords', maxPassageWords, where);
  if (windowSize < 2) throw new InvalidArgumentError({ where, argument: 'windowSize', message: `must be >= 2 (got ${windowSize})` });
  if (step > windowSize) throw new InvalidArgumentError({ where, argument: 'step', message: `must be <= windowSize (${windowSize}), or passages between windows are never compared (got ${step})` });
  const template = createPromptTemplate<'num' | 'query' | 'passages'>(prompt);
  for (const name of ['num', 'query', 'passages'] as const) {
    if (!template.variables.includes(name)) throw new InvalidArgumentError({ where, argument: 'prompt', message: `must contain the {{${name}}} placeholder` });
  }

  return {
    id: `rankgpt(${model.id})`,
    async rerank(request) {
      const { query, evidence: candidates, abortSignal } = request;
      abortSignal?.throwIfAborted();
      if (!Array.isArray(candidates)) throw new InvalidArgumentError({ where: 'rankgpt.rerank', argument: 'evidence', message: 'must be an array of Evidence' });
      const topK = request.topK ?? candidates.length;
      if (topK === 0 || candidates.length === 0) return { evidence: [] };
      if (typeof query?.text !== 'string' || query.text.trim() === '') return { evidence: [], problems: [{ code: 'empty-query', message: 'the query has no text to rank passages for' }] };
      const ranking = [...candidates];
      const problems: RetrievalProblem[] = [];
      const windows = rankGptWindows(ranking.length, windowSize, step);
      for (const [windowIndex, [start, end]] of windows.entries()) {
        const slice = ranking.slice(start, end);
        const [item] = (await runPromptedStep([slice], {
          step: RANKGPT_STEP,
          model,
          template,
          system,
          temperature,
          ...(maxTokens === undefined ? {} : { maxTokens }),
          variables: (passages) => ({ num: passages.length, query: query.text, passages: passages.map((passage, index) => `[${index + 1}] ${passageText(passage, maxPassageWords)}`).join('\n') }),
          parse: (reply, passages) => parseRankGptPermutation(reply, passages.length),
          concurrency: 1,
          ...(abortSignal === undefined ? {} : { abortSignal }),
        })) as [StepItem<number[]>];
        if (item.status === 'failed') throw item.error ?? new InvalidArgumentError({ where: 'rankgpt.rerank', argument: 'model', message: item.problems[0]?.message ?? 'call failed' });
        const at = `window ${start + 1}-${end}`;
        // An ok item's problems are the parser's or core's `missing-reply` (the parser never throws: no `parse-failed`).
        for (const problem of item.problems) problems.push({ ...problem, code: problem.code as RetrievalProblemCode, message: `${at}: ${problem.message}` });
        if (item.value !== undefined) {
          const permuted = item.value.map((index) => slice[index] as Evidence);
          ranking.splice(start, permuted.length, ...permuted);
        }
        onProgress?.({ completed: windowIndex + 1, total: windows.length, failed: 0 });
      }
      const evidence = ranking.slice(0, topK).map((item, index) => ({ ...item, score: 1 / (index + 1), rank: index + 1 }));
      return problems.length === 0 ? { evidence } : { evidence, problems };
    },
  };
}
