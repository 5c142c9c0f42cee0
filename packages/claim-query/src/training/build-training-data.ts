import type { ItemProblem, LanguageModel, ProgressCallback } from '@factkit/core';
import { assertNonNegativeInteger, assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import type { CriterionCheck, CriterionResult } from '../criteria/check-criteria.js';
import { checkCriteria } from '../criteria/check-criteria.js';
import type { ClaimQueryGenerator, QaItem } from '../detect/generator.js';
import { detectPromptLanguage } from '../prompts/language.js';
import type { Criterion } from '../prompts/prompts.js';
import { CLAIM_CRITERIA, QUERY_CRITERIA } from '../prompts/prompts.js';
import type { TrainingSample } from './training-data.js';
import { splitTrainTest, stratifyByClaimCount } from './training-data.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface BuildTrainingDataOptions {
  /** QA pairs with answers already sampled from the answer models (§3.2.1); `id` is required for resumable bookkeeping. */
  readonly items: readonly (QaItem & { readonly id: string })[];
  /** The synthesiser (§3.2: the two-step generator at temperature 0.9). */
  readonly synthesizer: ClaimQueryGenerator;
  /** The evaluator for the six criteria (§3.3, temperature 0). */
  readonly evaluator: LanguageModel;
  /** Samples kept per language after stratification (paper: 1,000). */
  readonly totalPerLanguage: number;
  /** Cap per claim-count group in the stratified pass. @default ceil(total / groups) */
  readonly perGroupCap?: number;
  /** @default 0.1 (9:1) */
  readonly testFraction?: number;
  /** @default 0 */
  readonly seed?: number;
  /** QA pairs synthesised and evaluated per batch (progress and checkpoints between batches). @default 16 */
  readonly batchSize?: number;
  readonly abortSignal?: AbortSignal;
  /**
   * Called after each batch, over QA items: `failed` counts those left out so far (synthesis failed, no claim with a
   * query, a criterion failed or undecided), so `completed - failed` samples have passed every criterion.
   */
  readonly onProgress?: ProgressCallback;
}

/** Counts per stage (the paper's funnel, Table 6). Criterion counts are over the units each criterion judges. */
export interface TrainingFunnel {
  readonly qaPairs: number;
  readonly synthesized: number;
  readonly synthesisFailed: number;
  readonly noClaims: number;
  readonly judged: Readonly<Record<Criterion, number>>;
  readonly passed: Readonly<Record<Criterion, number>>;
  /** Criterion calls that failed or could not be read (their sample is left out, never counted as pass or fail). */
  readonly undecided: number;
  readonly passedAll: number;
  readonly selected: number;
  readonly train: number;
  readonly test: number;
}

export interface TrainingDataResult {
  readonly train: TrainingSample[];
  readonly test: TrainingSample[];
  readonly funnel: TrainingFunnel;
  /** Samples left out, with the criteria they failed or why they could not be judged. */
  readonly rejected: readonly { readonly id: string; readonly failed: readonly Criterion[]; readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[] }[];
  readonly perGroup: Readonly<Record<string, Readonly<Record<number, number>>>>;
}

const zeroCounts = (): Record<Criterion, number> => Object.fromEntries([...CLAIM_CRITERIA, ...QUERY_CRITERIA].map((c) => [c, 0])) as Record<Criterion, number>;

/**
 * The JointCQ training-data pipeline (§3.2–3.4): synthesise claims and queries, filter with the six criteria, stratify
 * by claim count with per-group caps, split 9:1 per language. Resumable: wrap both models with core `withCache` and a
 * file cache, and a re-run repeats no answered call. Returns the samples (write them with `toChatJsonl`) and the funnel.
 */
export async function buildTrainingData(options: BuildTrainingDataOptions): Promise<TrainingDataResult> {
  const { items, synthesizer, evaluator, totalPerLanguage, perGroupCap, testFraction = 0.1, seed = 0, batchSize = 16, abortSignal, onProgress } = options;
  const where = 'buildTrainingData';
  if (!Array.isArray(items)) throw new InvalidArgumentError({ where, argument: 'items', message: 'must be an array of QA pairs' });
  assertNonNegativeInteger('totalPerLanguage', totalPerLanguage, where);
  assertPositiveInteger('batchSize', batchSize, where);

  const judged = zeroCounts();
  const passed = zeroCounts();
  let synthesized = 0;
  let synthesisFailed = 0;
  let noClaims = 0;
  let undecided = 0;
  const kept: TrainingSample[] = [];
  const rejected: { id: string; failed: Criterion[]; problems: ItemProblem<ClaimQueryProblemCode>[] }[] = [];

  for (let start = 0; start < items.length; start += batchSize) {
    abortSignal?.throwIfAborted();
    const batch = items.slice(start, start + batchSize);
    const generated = await synthesizer.generate({ items: batch, ...(abortSignal ? { abortSignal } : {}) });
    const checks: { sample: number; check: CriterionCheck }[] = [];
    const candidates: Array<TrainingSample | undefined> = batch.map((item, k) => {
      const result = generated[k];
      if (!result || result.status === 'failed') {
        synthesisFailed += 1;
        rejected.push({ id: item.id, failed: [], problems: result?.problems.slice() ?? [{ code: 'call-failed', message: 'no synthesis result' }] });
        return undefined;
      }
      synthesized += 1;
      const pairs = result.pairs.flatMap(({ claim, query }) => (query ? [{ claim, query }] : []));
      if (pairs.length === 0) {
        noClaims += 1;
        rejected.push({ id: item.id, failed: [], problems: [{ code: 'no-claims', message: 'no claim with a query was synthesised' }] });
        return undefined;
      }
      const language = item.language ?? detectPromptLanguage(`${item.question}${item.answer}`);
      const claims = pairs.map((pair) => pair.claim.text);
      checks.push({ sample: k, check: { criterion: 'entailment', question: item.question, answer: item.answer, claims, language } });
      checks.push({ sample: k, check: { criterion: 'coverage', question: item.question, answer: item.answer, claims, language } });
      for (const pair of pairs) {
        checks.push({ sample: k, check: { criterion: 'decontextualization', question: item.question, answer: item.answer, claim: pair.claim.text, language } });
        for (const criterion of QUERY_CRITERIA) checks.push({ sample: k, check: { criterion, claim: pair.claim.text, query: pair.query.text, language } });
      }
      return { id: item.id, language, question: item.question, answer: item.answer, pairs };
    });
    const verdicts: CriterionResult[] =
      checks.length > 0
        ? await checkCriteria(
            checks.map((c) => c.check),
            { model: evaluator, ...(abortSignal ? { abortSignal } : {}) },
          )
        : [];
    candidates.forEach((sample, k) => {
      if (!sample) return;
      const mine = verdicts.filter((_, index) => checks[index]!.sample === k);
      const failed = new Set<Criterion>();
      const problems: ItemProblem<ClaimQueryProblemCode>[] = [];
      let open = false;
      for (const verdict of mine) {
        if (verdict.status === 'failed' || verdict.pass === undefined) {
          open = true;
          undecided += 1;
          problems.push(...verdict.problems);
          continue;
        }
        judged[verdict.criterion] += 1;
        if (verdict.pass) passed[verdict.criterion] += 1;
        else failed.add(verdict.criterion);
      }
      if (failed.size === 0 && !open) kept.push(sample);
      else rejected.push({ id: sample.id, failed: [...failed], problems });
    });
    onProgress?.({ completed: Math.min(start + batchSize, items.length), total: items.length, failed: rejected.length });
  }

  const train: TrainingSample[] = [];
  const test: TrainingSample[] = [];
  const perGroup: Record<string, Record<number, number>> = {};
  let selectedCount = 0;
  for (const language of ['en', 'zh'] as const) {
    const pool = kept.filter((sample) => sample.language === language);
    if (pool.length === 0) continue;
    const { selected, perGroup: groups } = stratifyByClaimCount(pool, { total: totalPerLanguage, seed, ...(perGroupCap === undefined ? {} : { perGroupCap }) });
    perGroup[language] = groups;
    selectedCount += selected.length;
    const split = splitTrainTest(selected, { testFraction, seed });
    train.push(...split.train);
    test.push(...split.test);
  }
  return {
    train,
    test,
    rejected,
    perGroup,
    funnel: { qaPairs: items.length, synthesized, synthesisFailed, noClaims, judged, passed, undecided, passedAll: kept.length, selected: selectedCount, train: train.length, test: test.length },
  };
}
