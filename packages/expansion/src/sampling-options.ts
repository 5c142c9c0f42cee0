/** Sampling options every LLM expander takes (same defaults everywhere). */
export interface ExpanderSamplingOptions {
  /** Optional system message. @default undefined */
  readonly system?: string;
  /** @default 0.7 */
  readonly temperature?: number;
  /** @default 1.0 */
  readonly topP?: number;
  /** @default 512 */
  readonly maxTokens?: number;
}
