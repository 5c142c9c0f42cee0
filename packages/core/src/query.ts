import type { GenerationProvenance } from './provenance.js';

/** A search query. `text` is what a lexical retriever searches; `vector` overrides embedding for dense retrievers. */
export interface Query {
  readonly id?: string;
  readonly text: string;
  /** Precomputed query vector (e.g. HyDE's mean embedding). Dense retrievers use it instead of embedding `text`. */
  readonly vector?: Float32Array;
  /** Weighted expansion terms (RM3, Rocchio): lexical retrievers score `text` plus these terms at their weights. */
  readonly weightedTerms?: readonly WeightedTerm[];
  /** Alternative phrasings of the query (multi-query expansion); a fusing retriever searches each and fuses the lists. */
  readonly subQueries?: readonly string[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A query term with a weight, as produced by pseudo-relevance feedback. */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
}

/** A query after expansion: the new query, the generations it was built from, and their provenance. */
export interface ExpandedQuery extends Query {
  readonly original: Query;
  /** Texts the model generated (hypothetical documents, passages, sub-queries). */
  readonly generations: readonly string[];
  /**
   * How the generations were made, for LLM methods (HyDE, Query2doc, multi-query). Absent for classical methods (RM3,
   * Rocchio), which generate nothing; the expander's `id` names the method.
   */
  readonly provenance?: GenerationProvenance;
  /** Per-generation problems (empty, refusal, wrong language) kept instead of silently dropped. */
  readonly problems?: readonly ItemProblem[];
  /**
   * The model's raw replies, for LLM methods whose `generations` are parsed out of a reply (multi-query: the numbered
   * list before its markers and duplicates of the query were removed). Absent when `generations` are the replies.
   */
  readonly rawReplies?: readonly string[];
  /** For pseudo-relevance feedback (RM3, Rocchio): which documents the expansion was built from. */
  readonly feedback?: FeedbackProvenance;
}

/** Which documents a pseudo-relevance-feedback expansion (RM3, Rocchio) was built from, and its parameters. */
export interface FeedbackProvenance {
  /** The method, e.g. 'rm3' or 'rocchio'. */
  readonly method: string;
  /** The feedback documents treated as relevant, in the first-stage order. */
  readonly documentIds: readonly string[];
  /** Documents treated as non-relevant (Rocchio's γ term), when the method uses any. */
  readonly nonRelevantDocumentIds?: readonly string[];
  /** The method's numeric parameters (e.g. fbDocs, fbTerms, alpha, beta, gamma). */
  readonly parameters: Readonly<Record<string, number>>;
}

/** A search query generated for a claim (JointCQ). */
export interface SearchQuery {
  readonly text: string;
  readonly claimId?: string;
}

/**
 * A problem with one item of a batch; the batch keeps going. `Code` is the package's exported union of problem codes
 * (e.g. `ClaimQueryProblemCode`): codes are for people and reports; code that must branch reads a typed field or an
 * `ItemOutcome` instead of comparing codes.
 */
export interface ItemProblem<Code extends string = string> {
  readonly index?: number;
  readonly id?: string;
  readonly code: Code;
  readonly message: string;
  readonly raw?: string;
}
