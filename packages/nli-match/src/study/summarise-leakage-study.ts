import type { ItemProblem } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import { bootstrapTest, computeClassificationReport, computeMeanStandardError, mannWhitneyU } from '@factkit/metrics';
import type { ClaimRun, ConditionSummary, LeakageStudyResult, MatchCounts, MeanWithError, SignificanceTest } from './leakage-study-types.js';
import type { ResolvedLeakageStudy } from './resolve-leakage-study.js';

/** Bootstrap resamples for the verdict-F1 tests over claims. */
const BOOTSTRAP_RESAMPLES = 2000;

type RunFilter = (run: ClaimRun) => boolean;

function meanWithError(values: readonly number[]): MeanWithError | null {
  if (values.length === 0) return null;
  const { mean, standardError, n } = computeMeanStandardError(values);
  return { mean, standardError, n };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const metricValues = (subset: readonly ClaimRun[], name: string) => subset.flatMap((run) => (run.metrics[name] === undefined ? [] : [run.metrics[name] as number]));

function runsByClaim(subset: readonly ClaimRun[]): Map<string, ClaimRun[]> {
  const grouped = new Map<string, ClaimRun[]>();
  for (const run of subset) {
    const list = grouped.get(run.claimId);
    if (list) list.push(run);
    else grouped.set(run.claimId, [run]);
  }
  return grouped;
}

/** One value per claim: the mean of `name` over that claim's runs in `subset`. */
function perClaimMeans(subset: readonly ClaimRun[], name: string): number[] {
  const means: number[] = [];
  for (const claimRuns of runsByClaim(subset).values()) {
    const values = metricValues(claimRuns, name);
    if (values.length > 0) means.push(mean(values));
  }
  return means;
}

function mannWhitneyOverClaims(x: readonly number[], y: readonly number[], what: string): SignificanceTest | null {
  if (x.length === 0 || y.length === 0) return null;
  let test: { statistic: number; pvalue: number };
  try {
    test = mannWhitneyU(x, y, { alternative: 'two-sided' });
  } catch {
    return null;
  }
  return { test: 'mann-whitney-u', description: `Mann–Whitney U, two-sided, over claims (${what}: ${x.length} vs ${y.length} claims)`, statistic: test.statistic, pvalue: test.pvalue, sizes: [x.length, y.length] };
}

/** The run's outcome classes: ALL (expanded), M, ¬M, unknown (NLI failed) and undecidable (no gold evidence). */
function conditions() {
  const wasExpanded: RunFilter = (run) => run.failedStage !== 'expansion' && run.failedStage !== 'claim';
  const isMatched: RunFilter = (run) => run.match?.matched === true;
  const isUnmatched: RunFilter = (run) => run.match?.matched === false;
  const noEvidence: RunFilter = (run) => run.match?.noEvidence === true;
  const isUnknown: RunFilter = (run) => wasExpanded(run) && run.match?.matched !== true && run.match?.matched !== false && !noEvidence(run);
  return { isAll: wasExpanded, isMatched, isUnmatched, isUnknown, isUndecidable: (run: ClaimRun) => wasExpanded(run) && noEvidence(run) };
}

/** Verdict macro-F1 and its bootstrap test over claims. */
function verdictScoring(study: ResolvedLeakageStudy) {
  const { goldLabels, verdictLabels } = study;
  /** Macro-F1 over the runs that have a readable verdict at k and a gold label; failed verdicts are left out. */
  const macroF1 = (subset: readonly ClaimRun[], k: number): number | null => {
    const scored = subset.filter((run) => typeof run.verdicts?.[String(k)] === 'string' && goldLabels[run.claimId] !== undefined);
    if (scored.length === 0) return null;
    const gold = scored.map((run) => goldLabels[run.claimId] as string);
    const predicted = scored.map((run) => run.verdicts?.[String(k)] as string);
    const labels = [...new Set([...verdictLabels, ...gold])];
    return computeClassificationReport(gold, predicted, { labels: labels.filter((label) => gold.includes(label) || predicted.includes(label)) }).macro.f1;
  };
  /** Bootstrap over claims of macro-F1(groupA runs) − macro-F1(groupB runs) at k. */
  const bootstrapF1 = (groupA: readonly ClaimRun[], groupB: readonly ClaimRun[], k: number, what: string): SignificanceTest | null => {
    const byClaimA = runsByClaim(groupA);
    const byClaimB = runsByClaim(groupB);
    const claimIds = [...new Set([...byClaimA.keys(), ...byClaimB.keys()])];
    const difference = (ids: readonly string[]) => {
      const a = macroF1(
        ids.flatMap((id) => byClaimA.get(id) ?? []),
        k,
      );
      const b = macroF1(
        ids.flatMap((id) => byClaimB.get(id) ?? []),
        k,
      );
      return a === null || b === null ? 0 : a - b;
    };
    if (claimIds.length === 0 || macroF1(groupA, k) === null || macroF1(groupB, k) === null) return null;
    const result = bootstrapTest(claimIds, { statistic: difference, resamples: BOOTSTRAP_RESAMPLES, seed: 0 });
    return {
      test: 'bootstrap',
      description: `bootstrap over claims, ${BOOTSTRAP_RESAMPLES} resamples (seed 0), two-sided, of the macro-F1 difference (${what}: ${byClaimA.size} vs ${byClaimB.size} claims)`,
      statistic: result.estimate,
      pvalue: result.pvalue,
      sizes: [byClaimA.size, byClaimB.size],
    };
  };
  return { macroF1, bootstrapF1 };
}

/**
 * Per metric: ALL / M / ¬M / unknown as mean ± SE over repeats (the paper's ±), and significance tests over claims,
 * one value per claim and condition (its mean over the repeats in that condition), never pooled claim × repeat values.
 */
function summariseMetrics(study: ResolvedLeakageStudy, runs: readonly ClaimRun[], baselineRuns: readonly ClaimRun[] | undefined): Record<string, ConditionSummary> {
  const byRepeat: ClaimRun[][] = Array.from({ length: study.repeats }, () => []);
  for (const run of runs) byRepeat[run.sample]?.push(run);
  const { isAll, isMatched, isUnmatched, isUnknown } = conditions();
  const { macroF1, bootstrapF1 } = verdictScoring(study);
  const summary: Record<string, ConditionSummary> = {};
  for (const name of study.metricNames) {
    const [kind, kText] = name.split('@') as [string, string];
    const k = Number(kText);
    if (kind === 'f1') {
      const perRepeat = (filter: RunFilter) => byRepeat.map((repeatRuns) => macroF1(repeatRuns.filter(filter), k)).filter((value): value is number => value !== null);
      summary[name] = {
        all: meanWithError(perRepeat(isAll)),
        matched: meanWithError(perRepeat(isMatched)),
        unmatched: meanWithError(perRepeat(isUnmatched)),
        unknown: meanWithError(perRepeat(isUnknown)),
        matchedVsUnmatched: bootstrapF1(runs.filter(isMatched), runs.filter(isUnmatched), k, 'M vs ¬M'),
        matchedVsAll: bootstrapF1(runs.filter(isMatched), runs.filter(isAll), k, 'M vs ALL'),
        versusBaseline: baselineRuns ? bootstrapF1(runs.filter(isAll), baselineRuns, k, 'expansion vs baseline') : null,
      };
      continue;
    }
    const repeatMeans = (filter: RunFilter) =>
      byRepeat.flatMap((repeatRuns) => {
        const values = metricValues(repeatRuns.filter(filter), name);
        return values.length === 0 ? [] : [mean(values)];
      });
    const matchedClaims = perClaimMeans(runs.filter(isMatched), name);
    const allClaims = perClaimMeans(runs.filter(isAll), name);
    summary[name] = {
      all: meanWithError(repeatMeans(isAll)),
      matched: meanWithError(repeatMeans(isMatched)),
      unmatched: meanWithError(repeatMeans(isUnmatched)),
      unknown: meanWithError(repeatMeans(isUnknown)),
      matchedVsUnmatched: mannWhitneyOverClaims(matchedClaims, perClaimMeans(runs.filter(isUnmatched), name), 'M vs ¬M'),
      matchedVsAll: mannWhitneyOverClaims(matchedClaims, allClaims, 'M vs ALL'),
      versusBaseline: baselineRuns ? mannWhitneyOverClaims(allClaims, perClaimMeans(baselineRuns, name), 'expansion vs baseline') : null,
    };
  }
  return summary;
}

/** Baseline (bare claim) value per metric: the mean over claims, or macro-F1 over claims with a readable verdict. */
function summariseBaseline(study: ResolvedLeakageStudy, baselineRuns: readonly ClaimRun[]): Record<string, number> {
  const { macroF1 } = verdictScoring(study);
  const baseline: Record<string, number> = {};
  for (const name of study.metricNames) {
    const [kind, kText] = name.split('@') as [string, string];
    if (kind === 'f1') {
      const value = macroF1(baselineRuns, Number(kText));
      if (value !== null) baseline[name] = value;
      continue;
    }
    const values = metricValues(baselineRuns, name);
    if (values.length > 0) baseline[name] = mean(values);
  }
  return baseline;
}

/** How the runs split by matching outcome and what failed, plus the sentences that say why numbers are not whole. */
function countOutcomes(runs: readonly ClaimRun[], baselineRuns: readonly ClaimRun[] | undefined, problems: readonly ItemProblem<NliMatchProblemCode>[]): { counts: MatchCounts; incomplete: string[] } {
  const { isAll, isMatched, isUnmatched, isUnknown, isUndecidable } = conditions();
  const everyRun = [...runs, ...(baselineRuns ?? [])];
  const counts: MatchCounts = {
    matched: runs.filter(isMatched).length,
    unmatched: runs.filter(isUnmatched).length,
    unknown: runs.filter(isUnknown).length,
    undecidable: runs.filter(isUndecidable).length,
    expansionFailed: runs.filter((run) => !isAll(run)).length,
    retrievalFailed: everyRun.filter((run) => run.failedStage === 'retrieval').length,
    verdictFailed: everyRun.reduce((total, run) => total + (run.verdicts ? Object.values(run.verdicts).filter((label) => label === null).length : 0), 0),
  };
  const incomplete: string[] = [];
  if (counts.expansionFailed > 0) incomplete.push(`${counts.expansionFailed} of ${runs.length} expansions failed (left out of every row)`);
  if (counts.unknown > 0) incomplete.push(`${counts.unknown} of ${runs.length} expanded claims have an unknown match (NLI failed; in neither M nor ¬M)`);
  if (counts.retrievalFailed > 0) incomplete.push(`${counts.retrievalFailed} retrievals failed (left out of Recall/NDCG)`);
  if (counts.verdictFailed > 0) incomplete.push(`${counts.verdictFailed} verdict predictions failed or were unreadable (left out of F1)`);
  const failedClaims = everyRun.filter((run) => run.failedStage === 'claim').length;
  if (failedClaims > 0) incomplete.push(`${failedClaims} claim runs failed outright`);
  return { counts, incomplete };
}

/**
 * Stage 3 of the study: Tables 2-4 from the runs (ALL / M / ¬M per metric, the baseline, the matched proportion
 * among claims whose match is known, outcome counts). Pure: the same runs always give the same result.
 */
export function summariseLeakageStudy(study: ResolvedLeakageStudy, runs: readonly ClaimRun[], baselineRuns: readonly ClaimRun[] | undefined, problems: readonly ItemProblem<NliMatchProblemCode>[]): LeakageStudyResult {
  const { isMatched, isUnmatched } = conditions();
  // Table 3: matched proportion among claims whose match is known (unknown claims are in neither M nor ¬M).
  const proportions: number[] = [];
  for (let repeat = 0; repeat < study.repeats; repeat += 1) {
    const decided = runs.filter((run) => run.sample === repeat && (isMatched(run) || isUnmatched(run)));
    if (decided.length > 0) proportions.push(decided.filter(isMatched).length / decided.length);
  }
  const { counts, incomplete } = countOutcomes(runs, baselineRuns, problems);
  const { dataset, expander, retriever, nli, verdictModel, verdictNli } = study;
  return {
    datasetName: dataset.name ?? 'dataset',
    expanderId: expander.id,
    retrieverId: retriever?.id ?? 'none',
    nliId: nli.id,
    ...(verdictModel ? { verdictModelId: verdictModel.id } : verdictNli ? { verdictModelId: `nli-verdict(${verdictNli.id})` } : {}),
    repeats: study.repeats,
    ks: study.ks,
    metricNames: study.metricNames,
    ...(baselineRuns ? { baseline: summariseBaseline(study, baselineRuns), baselineRuns } : {}),
    runs,
    summary: summariseMetrics(study, runs, baselineRuns),
    matchedProportion: meanWithError(proportions),
    counts,
    incomplete,
    ...(study.useVerdicts ? { verdictLabels: study.verdictLabels } : {}),
    problems,
  };
}
