import type { GenerationProvenance, ItemProblem, LanguageModel } from '@factkit/core';
import { InvalidArgumentError, runPromptedStep } from '@factkit/core';
import { parseCriterionJudgement } from '../criteria/check-criteria.js';
import type { QaItem } from '../detect/generator.js';
import { detectPromptLanguage } from '../prompts/language.js';
import { createPaperPromptTemplate } from '../prompts/paper-template.js';
import { LLM_JUDGE_BASELINE_PROMPT_EN, LLM_JUDGE_BASELINE_PROMPT_ZH } from '../prompts/prompts.js';
import type { SegmentLabel } from '../types.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface ResponseJudgement {
  readonly status: 'ok' | 'failed';
  /** Yes/是 → 'hallucinated', No/否 → 'not-hallucinated'; undefined when unreadable or failed. */
  readonly label?: Exclude<SegmentLabel, 'unverifiable'>;
  readonly raw: readonly string[];
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
  readonly provenance: GenerationProvenance;
}

/**
 * The paper's response-level LLM baseline (Appendix C.2, Tables 25/26): the model is asked whether the answer contains
 * non-factual or hallucinated information and answers Yes / No (是 / 否). Temperature 0 by default.
 */
export async function judgeResponses(items: readonly QaItem[], options: { readonly model: LanguageModel; readonly temperature?: number; readonly concurrency?: number; readonly abortSignal?: AbortSignal }): Promise<ResponseJudgement[]> {
  const { model, temperature = 0, concurrency = 4, abortSignal } = options;
  if (!model || typeof model.generate !== 'function') throw new InvalidArgumentError({ where: 'judgeResponses', argument: 'model', message: 'must be a LanguageModel' });
  const out: ResponseJudgement[] = new Array(items.length);
  for (const language of ['en', 'zh'] as const) {
    const positions = items.map((item, i) => ((item.language ?? detectPromptLanguage(`${item.question}${item.answer}`)) === language ? i : -1)).filter((i) => i >= 0);
    if (positions.length === 0) continue;
    const steps = await runPromptedStep<QaItem, boolean, ClaimQueryProblemCode>(
      positions.map((i) => items[i]!),
      {
        step: 'jointcq.llm-judge-baseline',
        model,
        template: createPaperPromptTemplate(language === 'zh' ? LLM_JUDGE_BASELINE_PROMPT_ZH : LLM_JUDGE_BASELINE_PROMPT_EN),
        variables: (item) => ({ question: item.question, answer: item.answer }),
        parse: (reply) => {
          const parsed = parseCriterionJudgement(reply);
          return { ...(parsed.pass === undefined ? {} : { value: parsed.pass }), problems: parsed.problems };
        },
        temperature,
        concurrency,
        ...(abortSignal ? { abortSignal } : {}),
      },
    );
    steps.forEach((step, k) => {
      out[positions[k]!] = {
        status: step.status,
        ...(step.value === undefined ? {} : { label: step.value ? 'hallucinated' : 'not-hallucinated' }),
        raw: step.raw,
        problems: step.problems,
        provenance: step.provenance,
      };
    });
  }
  return out;
}
