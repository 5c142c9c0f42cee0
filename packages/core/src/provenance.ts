import type { ChatMessage } from './language-model.js';
import type { Usage } from './usage.js';

/** Sampling settings sent with a generation (only those that were set). */
export interface GenerationSampling {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly n?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
}

/**
 * Where a generated artefact came from, so it can be audited and replayed: the step, the model, the exact prompt(s),
 * the sampling (with its seed), usage, whether the reply came from a cache, and when the call ran.
 * Every generated artefact in every factkit package carries one.
 */
export interface GenerationProvenance {
  /** Method or step name, e.g. 'hyde', 'jointcq.generate', 'fasttrack.judge'. */
  readonly step: string;
  /** `LanguageModel.provider`, when the model says. */
  readonly provider?: string;
  /** `LanguageModel.id`. */
  readonly modelId: string;
  /** The exact prompt(s) sent, rendered; for chat requests, each message's content. */
  readonly prompts: readonly string[];
  readonly messages?: readonly ChatMessage[];
  readonly system?: string;
  readonly sampling: Readonly<GenerationSampling>;
  readonly usage: Usage;
  /** From `GenerateResult.cached`: true when the reply came from a cache. */
  readonly cached: boolean;
  /** ISO timestamp when the call started. */
  readonly startedAt: string;
  /** ISO timestamp when the call ended (successfully or not). */
  readonly finishedAt: string;
}
