import type { GenerationProvenance, ItemProblem } from '@factkit/core';
import type { PromptLanguage } from '../prompts/prompts.js';

/** A question–answer pair to check. */
export interface QaItem {
  readonly id?: string;
  readonly question: string;
  readonly answer: string;
  /** @default detected from the answer */
  readonly language?: PromptLanguage;
  /**
   * An accurate reference (RefChecker's "accurate context": a source document, one string or a list of passages): the
   * claims are verified against it, the corpus is not searched. Wins over `context` when both are given.
   */
  readonly reference?: string | readonly string[];
  /** The (noisy) context the answering model saw, e.g. a RAG system's retrieved passages: verified against like `reference`. */
  readonly context?: string | readonly string[];
}

export interface GeneratedPair {
  readonly claim: string;
  /** undefined when the generator gave no query ("No query"); the claim is then unverifiable. */
  readonly query?: string;
  /** Answer sentence the claim came from, when the generator knows it (the drafter does). */
  readonly sentenceIndex?: number;
  readonly problems?: readonly ItemProblem[];
}

export interface GeneratedClaims {
  /** 'failed' when the model call failed: pairs are empty and the item is left out of every rate. */
  readonly status: 'ok' | 'failed';
  readonly pairs: readonly GeneratedPair[];
  /** True when the generator found nothing to check ("No claims." / 无陈述). */
  readonly noClaims: boolean;
  readonly problems: readonly ItemProblem[];
  /** Raw model replies, when a model generated the pairs. */
  readonly raw?: readonly string[];
  /** Provenance of the model call(s), one per call, when a model generated the pairs. */
  readonly provenance?: readonly GenerationProvenance[];
}

/** Turns (question, answer) into claim–query pairs: JointCQ, the two-step baseline, the drafter, ... */
export interface ClaimQueryGenerator {
  /** e.g. 'jointcq(model)', 'two-step(model)', 'drafter-baseline'. */
  readonly id: string;
  generate(request: { readonly items: readonly QaItem[]; readonly abortSignal?: AbortSignal }): Promise<GeneratedClaims[]>;
}
