import type { Usage } from './usage.js';

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** One request to a language model. Give `prompt` or `messages`. */
export interface GenerateRequest {
  readonly prompt?: string;
  readonly messages?: readonly ChatMessage[];
  readonly system?: string;
  /** @default provider default */
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  /** Number of completions. @default 1 */
  readonly n?: number;
  readonly stop?: readonly string[];
  readonly seed?: number;
  readonly abortSignal?: AbortSignal;
}

export interface GenerateResult {
  /** One text per completion (`n` of them). */
  readonly texts: string[];
  readonly usage: Usage;
  /** Why generation stopped, per completion, when the provider says. */
  readonly finishReasons?: string[];
  /** True when the result came from a cache. */
  readonly cached?: boolean;
}

export type GenerateStreamPart = { readonly type: 'text-delta'; readonly text: string } | { readonly type: 'text-end'; readonly usage?: Usage } | { readonly type: 'error'; readonly error: unknown };

/** A text generator: a chat model behind an OpenAI-compatible endpoint, a local seq2seq model, a mock. */
export interface LanguageModel {
  /** e.g. 'openai:gpt-4o-mini'; part of cache keys. */
  readonly id: string;
  /** Provider name, e.g. 'openai-compatible'. */
  readonly provider?: string;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  stream?(request: GenerateRequest): AsyncIterable<GenerateStreamPart>;
}
