import type { LanguageModel, NliModel, NliPrediction } from '@factkit/core';
import { InvalidArgumentError, createPromptTemplate, isAbortReason, settleWithConcurrency } from '@factkit/core';
import { NLI_PROMPT } from './nli-prompt.js';
import { parseNliLabel } from './parse-nli-label.js';

export interface LlmNliJudgeOptions {
  /** The language model that answers the prompt (wrap it with core `withCache` / `withRetry`). */
  readonly model: LanguageModel;
  /** Prompt with `{{premise}}` and `{{hypothesis}}` placeholders. @default NLI_PROMPT (paper Figure A3) */
  readonly prompt?: string;
  /** @default 0 */
  readonly temperature?: number;
  /** @default 16 */
  readonly maxTokens?: number;
  /** Pairs judged at once (one call per pair). @default 4 */
  readonly concurrency?: number;
  /** Largest premise, in words, sent without splitting (matching splits longer premises into sentence windows). @default 400 */
  readonly maxInputLength?: number;
}

/**
 * An NliModel that asks a language model the paper's NLI question (Figure A3) for each pair, one call per pair.
 * Answers that are not one of the three labels become `label: null` with the raw text and a `problem`;
 * a failed call becomes a per-pair problem too, so one bad pair never loses the others. Aborts rethrow the reason.
 * @throws InvalidArgumentError when the prompt lacks `{{premise}}` or `{{hypothesis}}`.
 * @example createLlmNliJudge({ model: withCache(createOpenAICompatibleModel({ model: 'gpt-4o-mini' }), cache) }) // createOpenAICompatibleModel from @factkit/openai
 */
export function createLlmNliJudge(options: LlmNliJudgeOptions): NliModel {
  const { model, prompt = NLI_PROMPT, temperature = 0, maxTokens = 16, concurrency = 4, maxInputLength = 400 } = options ?? ({} as LlmNliJudgeOptions);
  if (!model || typeof model.generate !== 'function') {
    throw new InvalidArgumentError({ where: 'createLlmNliJudge', argument: 'model', message: 'must be a LanguageModel' });
  }
  const template = createPromptTemplate<'premise' | 'hypothesis'>(prompt);
  for (const name of ['premise', 'hypothesis'] as const) {
    if (!template.variables.includes(name)) {
      throw new InvalidArgumentError({ where: 'createLlmNliJudge', argument: 'prompt', message: `must contain the {{${name}}} placeholder` });
    }
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError({ where: 'createLlmNliJudge', argument: 'concurrency', message: `must be an integer >= 1 (got ${concurrency})` });
  }
  return {
    id: `llm-nli(${model.id})`,
    maxInputLength,
    async classify({ pairs, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (!Array.isArray(pairs)) throw new InvalidArgumentError({ where: 'LlmNliJudge.classify', argument: 'pairs', message: 'must be an array of { premise, hypothesis }' });
      const settled = await settleWithConcurrency(
        pairs,
        async (pair) => {
          const text = template.render({ premise: String(pair?.premise ?? ''), hypothesis: String(pair?.hypothesis ?? '') });
          const result = await model.generate({ prompt: text, temperature, maxTokens, ...(abortSignal ? { abortSignal } : {}) });
          return result.texts[0] ?? '';
        },
        { concurrency, ...(abortSignal ? { abortSignal } : {}) },
      );
      const results = settled.map((entry): NliPrediction => {
        if (entry.status === 'rejected') {
          if (isAbortReason(entry.error, abortSignal)) throw entry.error;
          const message = entry.error instanceof Error ? entry.error.message : String(entry.error);
          return { label: null, problem: `model call failed: ${message}` };
        }
        const parsed = parseNliLabel(entry.value);
        return parsed.label === null
          ? { label: null, raw: parsed.raw, problem: parsed.problem ?? 'unreadable answer' }
          : { label: parsed.label, raw: parsed.raw };
      });
      return { results };
    },
  };
}
