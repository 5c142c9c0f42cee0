import type { ItemProblem, NliLabel, NliModel, NliPair, NliPrediction, ProgressCallback } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import { InvalidArgumentError, isAbortReason, isRefusal, splitSentences } from '@factkit/core';
import { isWrongLanguage } from './generation-checks.js';
import { rouge2F } from '../internal/rouge.js';
import type { MatchAggregation } from './aggregation.js';
import { aggregateLabelMatrix, entailmentScore, resolveAggregation } from './aggregation.js';
import { classifyNliPairs } from './classify-nli-pairs.js';

export interface MatchGenerationRequest {
  /** The claim the generation was written for. */
  readonly claim: string;
  /** The LLM-generated document d. */
  readonly generation: string;
  /** Gold evidence E = e_1..e_m (premises). */
  readonly evidence: readonly string[];
  readonly nli: NliModel;
  /** @default 'any' (the paper: matched if any pair is entailment) */
  readonly aggregation?: MatchAggregation;
  /** Sentences whose ROUGE-2 F1 with the claim is at least this are claim reproductions and removed. @default 0.95 */
  readonly reproductionThreshold?: number;
  /** Expected language of the generation; a generation in another language is flagged (and still matched). */
  readonly language?: 'en' | 'zh';
  /** Pairs per NLI call. @default nli.maxBatchSize ?? 32 */
  readonly maxBatchSize?: number;
  /** Longer premises are split into sentence windows. @default nli.maxInputLength ?? Infinity */
  readonly maxPremiseWords?: number;
  readonly abortSignal?: AbortSignal;
}

/** A (gold evidence, generated sentence) pair labelled entailment: the provenance of a match. */
export interface EntailingPair {
  readonly evidenceIndex: number;
  readonly sentenceIndex: number;
  readonly evidence: string;
  readonly sentence: string;
  /** Entailment score (model probability, or 1 for a bare label). */
  readonly score: number;
}

/** A generated sentence removed as a reproduction of the claim. */
export interface RemovedSentence {
  readonly text: string;
  readonly rouge2: number;
}

/** Outcome of matching one generation against its gold evidence. */
export interface GenerationMatch {
  /**
   * Matched (M) or unmatched (not M); null (unknown) when it cannot be decided: no gold evidence, or NLI calls that
   * failed or gave no label where their answer would decide it. An unknown claim is in neither M nor ¬M.
   */
  readonly matched: boolean | null;
  /** True when the claim has no gold evidence, so `matched` is null whatever the generation says. */
  readonly noEvidence?: boolean;
  /** Aggregate score (see {@link MatchAggregation}). */
  readonly score: number;
  /** Generated sentences S after removing claim reproductions, in order. */
  readonly sentences: readonly string[];
  readonly removedSentences: readonly RemovedSentence[];
  /** labels[i][j] = NLI label of (evidence[i], sentences[j]); null when the model's answer was unreadable. */
  readonly labels: readonly (readonly (NliLabel | null)[])[];
  /** Full predictions (scores, raw answers, problems), same shape as `labels`. */
  readonly predictions: readonly (readonly NliPrediction[])[];
  /** Every entailing pair, highest score first. */
  readonly entailingPairs: readonly EntailingPair[];
  /** Problems found (empty generation, refusal, wrong language, empty evidence, unreadable NLI answers). */
  readonly problems: readonly ItemProblem<NliMatchProblemCode>[];
}

interface ResolvedMatchOptions {
  readonly nli: NliModel;
  readonly aggregation: MatchAggregation;
  readonly reproductionThreshold: number;
  readonly language: 'en' | 'zh' | undefined;
  readonly maxBatchSize: number | undefined;
  readonly maxPremiseWords: number | undefined;
  readonly abortSignal: AbortSignal | undefined;
}

/** Validates shared options once. @throws InvalidArgumentError */
export function resolveMatchOptions(request: Omit<MatchGenerationRequest, 'claim' | 'generation' | 'evidence'>, where: string): ResolvedMatchOptions {
  const { nli, aggregation = 'any', reproductionThreshold = 0.95, language, maxBatchSize, maxPremiseWords, abortSignal } = request;
  if (!nli || typeof nli.classify !== 'function') throw new InvalidArgumentError({ where, argument: 'nli', message: 'must be an NliModel' });
  resolveAggregation(aggregation, where);
  if (!(reproductionThreshold > 0 && reproductionThreshold <= 1)) {
    throw new InvalidArgumentError({ where, argument: 'reproductionThreshold', message: `must be in (0, 1] (got ${reproductionThreshold})` });
  }
  if (language !== undefined && language !== 'en' && language !== 'zh') {
    throw new InvalidArgumentError({ where, argument: 'language', message: `must be 'en' or 'zh' (got ${String(language)})` });
  }
  return { nli, aggregation, reproductionThreshold, language, maxBatchSize, maxPremiseWords, abortSignal };
}

/** Segments a generation into sentences and removes reproductions of the claim (ROUGE-2 F1 >= threshold). Pure. */
export function segmentGeneration(claim: string, generation: string, options: { reproductionThreshold?: number } = {}): { sentences: string[]; removed: RemovedSentence[] } {
  const { reproductionThreshold = 0.95 } = options;
  const sentences: string[] = [];
  const removed: RemovedSentence[] = [];
  for (const sentence of splitSentences(generation)) {
    const rouge2 = rouge2F(claim, sentence);
    if (rouge2 >= reproductionThreshold) removed.push({ text: sentence, rouge2 });
    else sentences.push(sentence);
  }
  return { sentences, removed };
}

/** The matching algorithm with options already validated (shared by the single and batched entry points). */
export async function matchWithResolvedOptions(item: { readonly claim: string; readonly generation: string; readonly evidence: readonly string[]; readonly language?: 'en' | 'zh' }, options: ResolvedMatchOptions): Promise<GenerationMatch> {
  const problems: ItemProblem<NliMatchProblemCode>[] = [];
  const claim = typeof item.claim === 'string' ? item.claim : '';
  const generation = typeof item.generation === 'string' ? item.generation : '';
  if (typeof item.claim !== 'string' || claim.trim() === '') problems.push({ code: 'empty-claim', message: 'the claim is empty or not a string' });
  const language = item.language ?? options.language;

  const evidenceInput = Array.isArray(item.evidence) ? item.evidence : [];
  const evidence = evidenceInput.filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  if (evidence.length < evidenceInput.length) {
    problems.push({ code: 'blank-evidence-item', message: `${evidenceInput.length - evidence.length} gold evidence item(s) were blank or not strings and were skipped` });
  }

  if (generation.trim() === '') problems.push({ code: 'empty-generation', message: 'the generation is empty; nothing can be entailed (unmatched)' });
  else {
    if (isRefusal(generation)) problems.push({ code: 'refusal', message: 'the generation reads as a refusal', raw: generation.slice(0, 500) });
    if (language !== undefined && isWrongLanguage(generation, language)) {
      problems.push({ code: 'wrong-language', message: `the generation is not in the expected language (${language})`, raw: generation.slice(0, 500) });
    }
  }

  const { sentences, removed } = segmentGeneration(claim, generation, { reproductionThreshold: options.reproductionThreshold });
  if (generation.trim() !== '' && sentences.length === 0) {
    problems.push({ code: 'only-claim-reproductions', message: `every generated sentence reproduces the claim (ROUGE-2 >= ${options.reproductionThreshold})` });
  }
  if (evidence.length === 0) {
    problems.push({ code: 'empty-evidence', message: 'no gold evidence: the claim cannot be matched or unmatched' });
    return { matched: null, noEvidence: true, score: 0, sentences, removedSentences: removed, labels: [], predictions: [], entailingPairs: [], problems };
  }

  const pairs: NliPair[] = [];
  for (const premise of evidence) for (const hypothesis of sentences) pairs.push({ premise, hypothesis });
  const flat = await classifyNliPairs(options.nli, pairs, {
    ...(options.maxBatchSize === undefined ? {} : { maxBatchSize: options.maxBatchSize }),
    ...(options.maxPremiseWords === undefined ? {} : { maxPremiseWords: options.maxPremiseWords }),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  const predictions: NliPrediction[][] = evidence.map((_e, i) => sentences.map((_s, j) => flat[i * sentences.length + j] as NliPrediction));
  const unreadable = flat.filter((prediction) => prediction.label === null);
  if (unreadable.length > 0) {
    const first = unreadable[0] as NliPrediction;
    problems.push({
      code: 'nli-unreadable',
      message: `${unreadable.length} of ${flat.length} NLI pairs got no label (failed call or unreadable answer): ${first.problem ?? ''}`,
      ...(first.raw === undefined ? {} : { raw: first.raw }),
    });
  }
  const entailingPairs: EntailingPair[] = [];
  predictions.forEach((row, i) =>
    row.forEach((prediction, j) => {
      if (prediction.label === 'entailment') {
        entailingPairs.push({ evidenceIndex: i, sentenceIndex: j, evidence: evidence[i] as string, sentence: sentences[j] as string, score: entailmentScore(prediction) });
      }
    }),
  );
  entailingPairs.sort((a, b) => b.score - a.score || a.evidenceIndex - b.evidenceIndex || a.sentenceIndex - b.sentenceIndex);
  const outcome = aggregateLabelMatrix(predictions, options.aggregation);
  if (outcome.matched === null) {
    problems.push({ code: 'match-unknown', message: `${unreadable.length} of ${flat.length} NLI pairs have no label and the rest do not decide the match: the claim is unknown (neither M nor ¬M)` });
  }
  return {
    matched: outcome.matched,
    score: outcome.score,
    sentences,
    removedSentences: removed,
    labels: predictions.map((row) => row.map((prediction) => prediction.label)),
    predictions,
    entailingPairs,
    problems,
  };
}

/**
 * The paper's matching method (section 3.3): segment the generation into sentences, drop reproductions of the claim
 * (ROUGE-2 F1 >= 0.95), NLI-label every (gold evidence, sentence) pair, and aggregate (default: matched if any pair is
 * entailment). Bad input is reported in `problems`, never thrown; aborts rethrow the signal's reason.
 * @throws InvalidArgumentError for invalid options (nli, aggregation, reproductionThreshold, language).
 * @example await matchGenerationToEvidence({ claim, generation, evidence: ['Paris is the capital of France.'], nli })
 */
export async function matchGenerationToEvidence(request: MatchGenerationRequest): Promise<GenerationMatch> {
  const options = resolveMatchOptions(request, 'matchGenerationToEvidence');
  options.abortSignal?.throwIfAborted();
  return matchWithResolvedOptions(request, options);
}

/** One claim of a batch. */
export interface MatchItem {
  readonly id?: string;
  readonly claim: string;
  readonly generation: string;
  readonly evidence: readonly string[];
  readonly language?: 'en' | 'zh';
}

export interface MatchGenerationsRequest extends Omit<MatchGenerationRequest, 'claim' | 'generation' | 'evidence'> {
  readonly items: readonly MatchItem[];
  /** Called after each item. */
  /** Called as items finish. */
  readonly onProgress?: ProgressCallback;
}

export interface MatchGenerationsResult {
  /** One result per item, in order; an item that failed has `matched: null` and a `match-failed` problem. */
  readonly results: GenerationMatch[];
  /** Every item's problems, with `index` and `id`. */
  readonly problems: ItemProblem<NliMatchProblemCode>[];
}

/**
 * Matches many claims one after another (the NLI model batches pairs within a claim). One bad item never stops the
 * batch: its problems are recorded and the rest keep going. Aborts rethrow the signal's reason.
 * @throws InvalidArgumentError for invalid shared options or when `items` is not an array.
 */
export async function matchGenerationsToEvidence(request: MatchGenerationsRequest): Promise<MatchGenerationsResult> {
  const options = resolveMatchOptions(request, 'matchGenerationsToEvidence');
  const { items, onProgress } = request;
  if (!Array.isArray(items)) throw new InvalidArgumentError({ where: 'matchGenerationsToEvidence', argument: 'items', message: 'must be an array' });
  options.abortSignal?.throwIfAborted();
  const results: GenerationMatch[] = [];
  const problems: ItemProblem<NliMatchProblemCode>[] = [];
  for (const [index, item] of items.entries()) {
    options.abortSignal?.throwIfAborted();
    let result: GenerationMatch;
    try {
      result = await matchWithResolvedOptions(item, options);
    } catch (error) {
      if (isAbortReason(error, options.abortSignal)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      result = { matched: null, score: 0, sentences: [], removedSentences: [], labels: [], predictions: [], entailingPairs: [], problems: [{ code: 'match-failed', message }] };
    }
    results.push(result);
    for (const problem of result.problems) problems.push({ ...problem, index, ...(item?.id === undefined ? {} : { id: item.id }) });
    onProgress?.({ completed: index + 1, total: items.length });
  }
  return { results, problems };
}
