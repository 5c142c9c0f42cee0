import type { Claim, ClaimLabel, Evidence, GenerationProvenance, ItemProblem, SearchQuery } from '@factkit/core';

/** A verdict on one claim with everything that produced it. */
export interface ClaimVerdictRecord {
  /** 'ok' when the verifier answered; 'failed' when its call failed (never turned into a label). */
  readonly status: 'ok' | 'failed';
  /** Correct / Hallucination / Irrelevant→unverifiable (Appendix B); undefined when failed or unreadable. */
  readonly label?: ClaimLabel;
  /** Why a claim is unverifiable when no verifier ran (no query, search failed, no evidence). */
  readonly reason?: string;
  /** Reasoning text the verifier gave (e.g. a `<think>` block), kept verbatim. */
  readonly reasoning?: string;
  /** Raw replies (one per sample) or the NLI labels per evidence. */
  readonly raw: readonly string[];
  /** Votes per label when several samples were drawn (majority). */
  readonly votes?: Readonly<Partial<Record<ClaimLabel, number>>>;
  /** The verifier id (model id or 'nli(...)'). */
  readonly verifier: string;
  readonly problems: readonly ItemProblem[];
  /** Provenance of the model call, when an LLM verified the claim. */
  readonly provenance?: GenerationProvenance;
}

/** A claim with its query, the evidence found for it and the verdict: one link of the detection chain. */
export interface CheckedClaim {
  /** The claim; `id` is `<item id>:c<k>`, `source` the answer sentence it was aligned to, when it was. */
  readonly claim: Claim;
  /** The search query (its `claimId` is the claim's id); undefined when the generator gave none (then unverifiable). */
  readonly query?: SearchQuery;
  /** What the retriever returned for the query (top-k, in rank order), each with its typed origin. */
  readonly evidence: readonly Evidence[];
  readonly verdict: ClaimVerdictRecord;
  /** Index of the response sentence this claim is aligned to (cosine ≥ threshold), or undefined. */
  readonly sentenceIndex?: number;
  /** Cosine similarity to the aligned (or best) sentence. */
  readonly similarity?: number;
  readonly problems: readonly ItemProblem[];
}

/** Hallucination label of a sentence or response. */
export type SegmentLabel = 'hallucinated' | 'not-hallucinated' | 'unverifiable';

export interface CheckedSentence {
  readonly index: number;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly label: SegmentLabel;
  /** True when a verifier call failed for an aligned claim and none is hallucinated: the label is undecidable (scored as failed). */
  readonly incomplete?: boolean;
  /** Ids of the claims aligned to this sentence. */
  readonly claimIds: readonly string[];
}
