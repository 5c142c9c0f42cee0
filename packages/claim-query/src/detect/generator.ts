import type { Claim, GenerationProvenance, ItemProblem, SearchQuery } from '@factkit/core';
import type { PromptLanguage } from '../prompts/prompts.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

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

/**
 * One claim a generator made and its search query, as core types from the generator on: the detector searches with the
 * query, verifies the claim and only adds the aligned answer sentence as the claim's `source`.
 */
export interface GeneratedPair {
  /** The claim; `id` is `<item id>:c<k>`, k its position among the item's pairs. */
  readonly claim: Claim;
  /** Its query (`claimId` = the claim's id); undefined when the generator gave none ("No query"): the claim is then unverifiable. */
  readonly query?: SearchQuery;
  /** Answer sentence the claim came from, when the generator knows it (the drafter does). */
  readonly sentenceIndex?: number;
  /** The model call(s) that generated the pair, when a model did: JointCQ's one call; the two-step baseline's claim and query calls. */
  readonly provenance?: readonly GenerationProvenance[];
  readonly problems?: readonly ItemProblem<ClaimQueryProblemCode>[];
}

/** The id of claim `k` of item `itemId`: `<itemId>:c<k>` (the same id the detection result and its sentences name). */
export function claimIdOf(itemId: string, k: number): string {
  return `${itemId}:c${k}`;
}

/** The id generators key an item's claims by: its own `id`, else its position in the batch. */
export function itemIdOf(item: { readonly id?: string }, index: number): string {
  return typeof item.id === 'string' ? item.id : String(index);
}

/**
 * Pair `k` of item `itemId` from a claim and query text: claim `<itemId>:c<k>`, its query pointing back to it (none
 * when `query` is undefined or empty). Every generator builds its pairs through it.
 */
export function generatedPair(itemId: string, k: number, claim: string, query: string | undefined, extra: Omit<GeneratedPair, 'claim' | 'query'> = {}): GeneratedPair {
  return pairOf({ id: claimIdOf(itemId, k), text: claim }, query, extra);
}

/** A claim and the query generated for it (none when `query` is undefined or empty), the query pointing back to the claim. */
export function pairOf(claim: Claim, query: string | undefined, extra: Omit<GeneratedPair, 'claim' | 'query'> = {}): GeneratedPair {
  return { claim, ...(query ? { query: { text: query, claimId: claim.id } } : {}), ...extra };
}

export interface GeneratedClaims {
  /** 'failed' when the model call failed: pairs are empty and the item is left out of every rate. */
  readonly status: 'ok' | 'failed';
  readonly pairs: readonly GeneratedPair[];
  /** True when the generator found nothing to check ("No claims." / 无陈述). */
  readonly noClaims: boolean;
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
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
