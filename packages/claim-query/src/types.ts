import type { Claim, ClaimLabel, Evidence, EvidenceOrigin, GenerationProvenance, ItemProblem, NliLabel, SearchQuery } from '@factkit/core';
import type { ClaimQueryProblemCode } from './problem-codes.js';

/** One snippet a verifier judged for a claim: where it ranked, what it says, the verifier's label and whether it decided the verdict. */
export interface SnippetJudgement {
  /** 1-based position among the claim's snippets (the retriever's rank order). */
  readonly rank: number;
  readonly text: string;
  /** Where the snippet comes from, when the evidence carried an origin. */
  readonly origin?: EvidenceOrigin;
  /** The verifier's label for this snippet; null when its answer could not be read; absent when the verifier judges snippets together (the LLM verifier). */
  readonly label?: NliLabel | null;
  /** The model's probability of `label`, when the model gives probabilities (the feature and transformers models; the lexical rule gives none). */
  readonly score?: number;
  /** Share of the claim's content words found in the snippet, 0..1. */
  readonly overlap: number;
  /** Whether the snippet passes the relevance gate (names one of the claim's entities; see the aggregation). */
  readonly relevant: boolean;
  /** True when this snippet decided the verdict (a deciding snippet; several for a vote). */
  readonly decisive: boolean;
}

/** A verdict on one claim with everything that produced it. */
export interface ClaimVerdictRecord {
  /** 'ok' when the verifier answered; 'failed' when its call or the claim's search failed (never turned into a label). */
  readonly status: 'ok' | 'failed';
  /** Correct / Hallucination / Irrelevant→unverifiable (Appendix B); undefined when failed or unreadable. */
  readonly label?: ClaimLabel;
  /** Why no verifier ran: unverifiable (no query, no evidence) or failed (`search failed: …`). */
  readonly reason?: string;
  /** Reasoning text the verifier gave (e.g. a `<think>` block), kept verbatim. */
  readonly reasoning?: string;
  /** Raw replies (one per sample) or the NLI labels per evidence. */
  readonly raw: readonly string[];
  /** Votes per label when several samples were drawn (majority). */
  readonly votes?: Readonly<Partial<Record<ClaimLabel, number>>>;
  /** The verifier id (model id or 'nli(...)'). */
  readonly verifier: string;
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
  /** Provenance of the model call, when an LLM verified the claim. */
  readonly provenance?: GenerationProvenance;
  /** The judged snippets, in rank order, each with its label, score and whether it decided the verdict. */
  readonly snippets?: readonly SnippetJudgement[];
  /** One line saying why the claim got its label (which snippet(s) decided, by which rule). */
  readonly why?: string;
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
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
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
