import { EMPTY_USAGE, isAbortReason, mapWithConcurrency, redactSecrets, throwIfAborted } from '@factkit/core';
import type { ChatMessage, ItemProblem, LanguageModel, Usage } from '@factkit/core';

/**
 * Where a generation came from (same fields as core's `GenerationProvenance` of the LLM-step kit; this package
 * switches to the core type when the kit is merged).
 */
export interface StepProvenance {
  readonly step: string;
  readonly provider?: string;
  readonly modelId: string;
  readonly prompts: readonly string[];
  readonly messages?: readonly ChatMessage[];
  readonly system?: string;
  readonly sampling: Readonly<{ temperature?: number; topP?: number; maxTokens?: number; n?: number; seed?: number; stop?: readonly string[] }>;
  readonly usage: Usage;
  readonly cached: boolean;
  readonly startedAt: string;
  readonly finishedAt: string;
}

export interface StepCall {
  readonly prompt: string;
}

export interface StepOutcome {
  readonly status: 'ok' | 'failed';
  readonly text: string;
  readonly problems: ItemProblem[];
  readonly provenance: StepProvenance;
}

/**
 * Sends one prompt per call with bounded concurrency. A failed call becomes `status: 'failed'` with a `call-failed`
 * problem (message with secrets redacted), never a default reply; an abort rethrows the abort reason.
 */
export async function runPromptCalls(
  calls: readonly StepCall[],
  options: { step: string; model: LanguageModel; temperature?: number; maxTokens?: number; system?: string; concurrency?: number; abortSignal?: AbortSignal; onDone?: (outcome: StepOutcome) => void },
): Promise<StepOutcome[]> {
  const { step, model, temperature, maxTokens, system, concurrency = 4, abortSignal, onDone } = options;
  return mapWithConcurrency(
    calls,
    async (call) => {
      throwIfAborted(abortSignal);
      const startedAt = new Date().toISOString();
      const sampling = { ...(temperature !== undefined ? { temperature } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
      const base = { step, modelId: model.id, prompts: [call.prompt], ...(system !== undefined ? { system } : {}), sampling, startedAt };
      let outcome: StepOutcome;
      try {
        const result = await model.generate({ prompt: call.prompt, ...(system !== undefined ? { system } : {}), ...sampling, ...(abortSignal ? { abortSignal } : {}) });
        outcome = { status: 'ok', text: result.texts[0] ?? '', problems: [], provenance: { ...base, usage: result.usage, cached: result.cached === true, finishedAt: new Date().toISOString() } };
      } catch (error) {
        if (isAbortReason(error, abortSignal) || abortSignal?.aborted) throw abortSignal?.reason ?? error;
        const message = redactSecrets(error instanceof Error ? error.message : String(error));
        outcome = { status: 'failed', text: '', problems: [{ code: 'call-failed', message }], provenance: { ...base, usage: EMPTY_USAGE, cached: false, finishedAt: new Date().toISOString() } };
      }
      onDone?.(outcome);
      return outcome;
    },
    { concurrency, ...(abortSignal ? { abortSignal } : {}) },
  );
}
