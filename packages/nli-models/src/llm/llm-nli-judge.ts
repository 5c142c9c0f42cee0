import type { GenerationProvenance, ItemProblem, LabelProblemCode, LanguageModel, NliLabel, NliModel, NliPrediction, NliRequest, StepProblemCode } from '@factkit/core';
import { assertPositiveInteger, createPromptTemplate, InvalidArgumentError, parseLabel, runPromptedStep } from '@factkit/core';
import { NLI_LABEL_PARSE_OPTIONS } from './nli-label.js';
import { NLI_PROMPT } from './nli-prompt.js';

export interface LlmNliJudgeOptions {
  /** The language model that answers the prompt (wrap it with core `withCache` / `withRetry`). */
  readonly model: LanguageModel;
  /** Prompt with `{{premise}}` and `{{hypothesis}}` placeholders. @default NLI_MODELS_PROMPTS.nli (paper Figure A3) */
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
 * Every problem code of `@factkit/nli-models` (the LLM judge is the package's one model with coded problems): core's
 * prompted step's ({@link StepProblemCode}: a failed call, `call-failed`, message redacted; a reply the model did not
 * return, `missing-reply`; a pair whose prompt could not be rendered, `invalid-input`; `parse-failed`, which the label
 * parser never causes) and the label parser's ({@link LabelProblemCode}: `empty-reply` / `no-label` /
 * `ambiguous-label` for a reply that is not one label).
 */
export type NliModelsProblemCode = StepProblemCode | LabelProblemCode;

/** A prediction of the LLM judge: the core NliPrediction plus the kit's problems and provenance of the call. */
export interface LlmNliPrediction extends NliPrediction {
  /** Why `label` is null: see `NliModelsProblemCode`. */
  readonly problems: readonly ItemProblem<NliModelsProblemCode>[];
  readonly provenance: GenerationProvenance;
}

/** The `NliModel` of `createLlmNliJudge`, whose predictions are `LlmNliPrediction`s. */
export interface LlmNliJudge extends NliModel {
  classify(request: NliRequest): Promise<{ readonly results: LlmNliPrediction[] }>;
}

/** Step name recorded in the provenance of every judge call. */
export const LLM_NLI_STEP = 'nli-models.llm-judge';

/**
 * An NliModel that asks a language model the paper's NLI question (Figure A3) for each pair, one call per pair,
 * through core `runPromptedStep` (bounded concurrency, provenance) and `parseLabel` (tolerant; negated or hedged labels
 * are never read as that label). A reply that is not one label becomes `label: null` with the raw text and a
 * `problem`; a failed call becomes `label: null` with `problem: "model call failed: …"` (secrets redacted), so one bad
 * pair never loses the others and never becomes a default label. Aborts rethrow the reason.
 * @throws InvalidArgumentError when the prompt lacks `{{premise}}` or `{{hypothesis}}`, or `pairs` is not an array.
 * @example createLlmNliJudge({ model: withCache(createOpenAICompatible().languageModel('gpt-4o-mini'), cache) }) // createOpenAICompatible from @factkit/openai
 */
export function createLlmNliJudge(options: LlmNliJudgeOptions): LlmNliJudge {
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
  assertPositiveInteger('concurrency', concurrency, 'createLlmNliJudge');
  return {
    id: `llm-nli(${model.id})`,
    maxInputLength,
    async classify({ pairs, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (!Array.isArray(pairs)) throw new InvalidArgumentError({ where: 'LlmNliJudge.classify', argument: 'pairs', message: 'must be an array of { premise, hypothesis }' });
      const items = await runPromptedStep(pairs, {
        step: LLM_NLI_STEP,
        model,
        template,
        variables: (pair) => ({ premise: String(pair?.premise ?? ''), hypothesis: String(pair?.hypothesis ?? '') }),
        parse: (reply) => parseLabel<NliLabel>(reply, NLI_LABEL_PARSE_OPTIONS),
        temperature,
        maxTokens,
        concurrency,
        ...(abortSignal ? { abortSignal } : {}),
      });
      const results = items.map((item): LlmNliPrediction => {
        const base = { problems: item.problems, provenance: item.provenance };
        if (item.status === 'failed') {
          const message = item.problems.map((problem) => problem.message).join('; ');
          return { ...base, label: null, problem: `model call failed: ${message}` };
        }
        const raw = item.raw[0] ?? '';
        if (item.value === undefined) return { ...base, label: null, raw, problem: item.problems.map((problem) => `${problem.code}: ${problem.message}`).join('; ') || 'unreadable answer' };
        return { ...base, label: item.value, raw };
      });
      return { results };
    },
  };
}
