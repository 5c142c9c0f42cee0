import type { Claim, Document, ExpandedQuery, GenerationProvenance, ItemProblem, LanguageModel, NliLabel, NliModel, ProgressCallback, Qrels, QueryExpander, Retriever } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import type { MatchAggregation } from '../match/aggregation.js';
import type { GenerationMatch } from '../match/match-generation-to-evidence.js';

/** A fact-verification dataset for the leakage study. */
export interface LeakageDataset {
  /** e.g. 'scifact', shown in reports. */
  readonly name?: string;
  readonly claims: readonly Claim[];
  /** Gold evidence texts per claim id (the NLI premises). */
  readonly evidence: Readonly<Record<string, readonly string[]>>;
  /** Relevance judgements: claim id -> document id -> relevance. */
  readonly qrels: Qrels;
  /** Gold verdict label per claim id (for verdict macro-F1), e.g. 'SUPPORTS'. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The knowledge store (optional; used to check that qrels point at known documents). */
  readonly corpus?: readonly Document[];
  /** Expected language of generations ('wrong-language' problems otherwise). */
  readonly language?: 'en' | 'zh';
}

/** Scores retrieved evidence texts against a claim's gold evidence (see `LeakageStudyOptions.evidenceScorer`). */
export interface EvidenceScorer {
  /** Metric names, e.g. ['meteor', 'bertscore']; reported as `<name>@<k>`. */
  readonly names: readonly string[];
  /** Scores (in [0, 1]) of the top `texts` (already cut to k) against the claim's gold evidence, one per name. */
  score(request: { readonly claimId: string; readonly texts: readonly string[]; readonly evidence: readonly string[]; readonly k: number }): Promise<Readonly<Record<string, number>>>;
}

export interface LeakageStudyOptions {
  readonly dataset: LeakageDataset;
  /**
   * Retrieves with the expanded query (BM25 for Query2doc, dense for HyDE); also the baseline with the bare claim.
   * Without one (no knowledge store, e.g. AVeriTeC without its store), only matching runs: the matched proportion
   * (Table 3) is reported and no retrieval or verdict metric. The query carries the claim id as `query.id`, so a
   * retriever may route each claim to its own store (AVeriTeC's per-claim knowledge stores).
   */
  readonly retriever?: Retriever;
  /**
   * Scores the top-k retrieved texts of a claim when its gold evidence is not a set of store documents (AVeriTeC's
   * human-written QA evidence: Hungarian METEOR / BERTScore against the references). Replaces Recall@k / NDCG@k.
   */
  readonly evidenceScorer?: EvidenceScorer;
  /** LLM (HyDE, Query2doc) or classical (RM3) query expander; called with `sample` = repeat index. */
  readonly expander: QueryExpander;
  /** NLI model that labels (gold evidence, generated sentence) pairs. */
  readonly nli: NliModel;
  /** Generations per claim (paper: 8). @default 8 */
  readonly repeats?: number;
  /** Cutoffs for Recall@k / NDCG@k and for the evidence given to the verdict model (paper: 5 and 10). @default [5, 10] */
  readonly ks?: readonly number[];
  /** Also run the retriever on the bare claim (the paper's BM25 / Contriever rows). @default true */
  readonly baseline?: boolean;
  /** Verdict model (paper: GPT-4o-mini); verdict macro-F1 is reported when given and the dataset has labels. */
  readonly verdictModel?: LanguageModel;
  /**
   * LLM-free verdicts (the classical counterpart of `verdictModel`; give one or the other): each top-k evidence text is
   * an NLI premise for the claim; any entailment gives `verdictLabelMap.entailment`, else any contradiction gives
   * `verdictLabelMap.contradiction`, else `verdictLabelMap.neutral`.
   */
  readonly verdictNli?: NliModel;
  /** NLI label -> dataset verdict label, for `verdictNli`. @default { entailment: 'SUPPORTS', contradiction: 'REFUTES', neutral: 'NOT ENOUGH INFO' } */
  readonly verdictLabelMap?: Readonly<Record<NliLabel, string>>;
  /** Labels offered to the verdict model. @default the sorted distinct gold labels of the dataset */
  readonly verdictLabels?: readonly string[];
  /** @default NLI_MATCH_PROMPTS.verdict (paper Figure A2) */
  readonly verdictPrompt?: string;
  /** @default 'any' */
  readonly aggregation?: MatchAggregation;
  /** @default 0.95 */
  readonly reproductionThreshold?: number;
  /** Claims processed at once. @default 4 */
  readonly concurrency?: number;
  /**
   * Called as claim runs finish, with core `Progress`: `stage: 'baseline'` counts the baseline runs (`total` = claims),
   * then `stage: 'repeat'` counts the runs of all repeats together (`total` = claims × repeats; repeat r's claim i is
   * run `r × claims + i + 1`).
   */
  readonly onProgress?: ProgressCallback<'baseline' | 'repeat'>;
  readonly abortSignal?: AbortSignal;
}

/** Outcome for one claim in one repeat (or in the baseline). */
export interface ClaimRun {
  readonly claimId: string;
  /** Repeat index; -1 for the baseline. */
  readonly sample: number;
  /** Texts the expander generated (empty for the baseline). */
  readonly generations: readonly string[];
  /** Retrieved document ids, best first (up to max k). */
  readonly retrieved: readonly string[];
  /** e.g. { 'recall@5': 0.5, 'ndcg@5': 0.39 }; absent when the claim has no qrels or retrieval failed. */
  readonly metrics: Readonly<Record<string, number>>;
  /** Verdict per k ('5' -> label or null when unreadable); absent without a verdict model. */
  readonly verdicts?: Readonly<Record<string, string | null>>;
  /** Provenance of each verdict call per k (prompt, model, sampling, usage, cached), with a verdict model. */
  readonly verdictProvenance?: Readonly<Record<string, GenerationProvenance>>;
  /** The matching outcome (absent for the baseline or when expansion failed). */
  readonly match?: GenerationMatch;
  /** How the expansion was generated (model, exact prompt, sampling and seed, usage); absent for the baseline. */
  readonly provenance?: ExpandedQuery['provenance'];
  /**
   * The stage that failed, absent when none did: `claim` (the run threw), `expansion` (no generations: the run is left
   * out of every row) or `retrieval` (left out of Recall/NDCG). Read this, not the problem codes.
   */
  readonly failedStage?: 'claim' | 'expansion' | 'retrieval';
  readonly problems: readonly ItemProblem<NliMatchProblemCode>[];
}

/** Mean ± standard error over repeats (SE is NaN with a single repeat). */
export interface MeanWithError {
  readonly mean: number;
  readonly standardError: number;
  /** Number of repeats with a value. */
  readonly n: number;
}

/** A significance test as reported beside a p-value: which test, on what, and its result. */
export interface SignificanceTest {
  /** 'mann-whitney-u' (two-sided, over per-claim means) or 'bootstrap' (two-sided percentile bootstrap over claims). */
  readonly test: 'mann-whitney-u' | 'bootstrap';
  /** One line saying what was compared, e.g. "Mann–Whitney U, two-sided, per-claim means over repeats (M 310 vs ¬M 280 claims)". */
  readonly description: string;
  /** U for Mann–Whitney; the observed difference for the bootstrap. */
  readonly statistic: number;
  readonly pvalue: number;
  /** Claims in each group. */
  readonly sizes: readonly [number, number];
}

/** One metric split by matching condition, as in the paper's Table 4. */
export interface ConditionSummary {
  /** Mean ± standard error over repeats (the paper's ± column). */
  readonly all: MeanWithError | null;
  readonly matched: MeanWithError | null;
  readonly unmatched: MeanWithError | null;
  /** Runs whose match is unknown (NLI failed): reported in their own row, in neither M nor ¬M. */
  readonly unknown: MeanWithError | null;
  /** M vs ¬M over claims: one value per claim and condition (its mean over the repeats in that condition). */
  readonly matchedVsUnmatched: SignificanceTest | null;
  /** M vs ALL over claims. */
  readonly matchedVsAll: SignificanceTest | null;
  /** The expansion (ALL, per-claim mean over repeats) vs its baseline retriever on the bare claim. */
  readonly versusBaseline: SignificanceTest | null;
}

/** How the repeat runs split by matching outcome, and what failed. */
export interface MatchCounts {
  /** Runs (claim × repeat) per outcome; `unknown` = the expansion worked but NLI could not decide the match. */
  readonly matched: number;
  readonly unmatched: number;
  readonly unknown: number;
  /** Runs of claims without gold evidence: in ALL, but matching cannot apply (a dataset property, not a failure). */
  readonly undecidable: number;
  /** Runs without a usable expansion (the call failed): no metrics, no match. */
  readonly expansionFailed: number;
  /** Runs (incl. baseline) whose retrieval failed. */
  readonly retrievalFailed: number;
  /** Verdict predictions that failed or were unreadable (each is left out of F1). */
  readonly verdictFailed: number;
}

export interface LeakageStudyResult {
  readonly datasetName: string;
  readonly expanderId: string;
  /** 'none' when the study ran without a retriever (matching only). */
  readonly retrieverId: string;
  readonly nliId: string;
  readonly verdictModelId?: string;
  readonly repeats: number;
  readonly ks: readonly number[];
  /** Metric names in report order: recall@k, ndcg@k, f1@k (f1 only with a verdict model). */
  readonly metricNames: readonly string[];
  /** Baseline (bare claim) means per metric; absent when `baseline: false`. */
  readonly baseline?: Readonly<Record<string, number>>;
  readonly baselineRuns?: readonly ClaimRun[];
  /** Every (claim, repeat) outcome. */
  readonly runs: readonly ClaimRun[];
  /** Per metric: ALL / matched / unmatched with SE and p-values (Tables 2 and 4). */
  readonly summary: Readonly<Record<string, ConditionSummary>>;
  /** Proportion of claims matched among claims whose match is known, mean ± SE over repeats (Table 3). */
  readonly matchedProportion: MeanWithError | null;
  readonly counts: MatchCounts;
  /**
   * Why some numbers of this result are not whole (failed calls, unknown matches); empty when every number is
   * complete. A caller that prints a table must say so and, as a command, exit non-zero.
   */
  readonly incomplete: readonly string[];
  /** Verdict labels offered to the verdict model / used for F1. */
  readonly verdictLabels?: readonly string[];
  /** Every problem, with the claim id and repeat in `id` ("<claimId>#<repeat>"). Nothing is dropped silently. */
  readonly problems: readonly ItemProblem<NliMatchProblemCode>[];
}
