import type { ClaimLabel, ItemProblem } from '@factkit/core';

/** One search result used as evidence for a claim: text plus where it came from (URL, document id). */
export interface Snippet {
  readonly text: string;
  /** URL of a web result, or document id of a local corpus hit. */
  readonly source: string;
  readonly title?: string;
  readonly rank?: number;
  readonly score?: number;
  /** 'organic' | 'answer-box' | 'knowledge-graph' for web results; 'corpus' for a local retriever. */
  readonly kind?: string;
}

/** A verdict on one claim with everything that produced it. */
export interface ClaimVerdictRecord {
  /** 'ok' when the verifier answered; 'failed' when its call failed (never turned into a label). */
  readonly status: 'ok' | 'failed';
  /** Correct / Hallucination / Irrelevant→unverifiable (Appendix B); undefined when failed or unreadable. */
  readonly label?: ClaimLabel;
  /** Why a claim is unverifiable when no verifier ran (no query, search failed, no snippets). */
  readonly reason?: string;
  /** Reasoning text the verifier gave (e.g. a `<think>` block), kept verbatim. */
  readonly reasoning?: string;
  /** Raw replies (one per sample) or the NLI labels per snippet. */
  readonly raw: readonly string[];
  /** Votes per label when several samples were drawn (majority). */
  readonly votes?: Readonly<Partial<Record<ClaimLabel, number>>>;
  /** The verifier id (model id or 'nli(...)'). */
  readonly verifier: string;
  readonly problems: readonly ItemProblem[];
  /** Provenance of the model call(s), when an LLM verified the claim (JSON-serialisable). */
  readonly provenance?: unknown;
}

/** A claim with its query, the evidence found for it and the verdict: one link of the detection chain. */
export interface CheckedClaim {
  readonly id: string;
  readonly claim: string;
  /** The search query; undefined when the generator gave none (the claim is then unverifiable). */
  readonly query?: string;
  readonly snippets: readonly Snippet[];
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
