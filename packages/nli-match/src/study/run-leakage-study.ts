import type { Claim, GenerationProvenance, ItemProblem, NliLabel, Query } from '@factkit/core';
import { assertPositiveInteger, createPromptTemplate, InvalidArgumentError, isAbortReason, parseLabel, runPromptedStep, settleWithConcurrency } from '@factkit/core';
import { bootstrapTest, computeClassificationReport, computeMeanStandardError, computeNdcgAtK, computeRecallAtK, mannWhitneyU } from '@factkit/metrics';
import { classifyNliPairs } from '../match/classify-nli-pairs.js';
import type { GenerationMatch } from '../match/match-generation-to-evidence.js';
import { matchWithResolvedOptions, resolveMatchOptions } from '../match/match-generation-to-evidence.js';
import type { ClaimRun, ConditionSummary, LeakageStudyOptions, LeakageStudyResult, MatchCounts, MeanWithError, SignificanceTest } from './leakage-study-types.js';
import { VERDICT_PROMPT, VERDICT_STEP, renderVerdictEvidence } from './verdict-prompt.js';

const WHERE = 'runLeakageStudy';
/** Bootstrap resamples for the verdict-F1 tests over claims. */
const BOOTSTRAP_RESAMPLES = 2000;

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

function meanWithError(values: readonly number[]): MeanWithError | null {
  if (values.length === 0) return null;
  const { mean, standardError, n } = computeMeanStandardError(values);
  return { mean, standardError, n };
}

function safeMannWhitney(x: readonly number[], y: readonly number[]): { statistic: number; pvalue: number } | null {
  if (x.length === 0 || y.length === 0) return null;
  try {
    const { statistic, pvalue } = mannWhitneyU(x, y, { alternative: 'two-sided' });
    return { statistic, pvalue };
  } catch {
    return null;
  }
}

/**
 * The paper's experiment as a function ("Hypothetical Documents or Knowledge Leakage?", sections 3-4): for every claim
 * and each of `repeats` generations, expand the claim, retrieve the top k, score Recall@k / NDCG@k (and verdict macro-F1
 * with a verdict model, prompt Figure A2), match the generation against the gold evidence with NLI, and summarise ALL /
 * matched / unmatched with standard errors over repeats and Mann–Whitney U p-values, plus the matched proportion.
 * Bad items (failed or empty expansions, refusals, wrong language, empty evidence, claims without qrels, unreadable
 * NLI or verdict answers) become problems in the result; they never stop the study. Aborts rethrow the signal's reason.
 * @throws InvalidArgumentError for invalid options.
 * @example const result = await runLeakageStudy({ dataset, retriever, expander, nli, repeats: 8 }); formatLeakageReport(result)
 */
export async function runLeakageStudy(options: LeakageStudyOptions): Promise<LeakageStudyResult> {
  const {
    dataset,
    retriever,
    expander,
    nli,
    repeats = 8,
    ks = [5, 10],
    baseline: runBaseline = true,
    verdictModel,
    verdictNli,
    verdictLabelMap = { entailment: 'SUPPORTS', contradiction: 'REFUTES', neutral: 'NOT ENOUGH INFO' } as Readonly<Record<NliLabel, string>>,
    verdictPrompt = VERDICT_PROMPT,
    concurrency = 4,
    onProgress,
    abortSignal,
  } = options ?? ({} as LeakageStudyOptions);
  if (!dataset || !Array.isArray(dataset.claims)) throw new InvalidArgumentError({ where: WHERE, argument: 'dataset.claims', message: 'must be an array of claims' });
  if (typeof dataset.evidence !== 'object' || dataset.evidence === null) throw new InvalidArgumentError({ where: WHERE, argument: 'dataset.evidence', message: 'must map claim ids to gold evidence texts' });
  if (typeof dataset.qrels !== 'object' || dataset.qrels === null) throw new InvalidArgumentError({ where: WHERE, argument: 'dataset.qrels', message: 'must map claim ids to judged documents' });
  if (retriever !== undefined && (retriever === null || typeof retriever.retrieve !== 'function')) throw new InvalidArgumentError({ where: WHERE, argument: 'retriever', message: 'must be a Retriever (or left out for matching only)' });
  const { evidenceScorer } = options;
  if (evidenceScorer !== undefined && (typeof evidenceScorer?.score !== 'function' || !Array.isArray(evidenceScorer.names) || evidenceScorer.names.length === 0)) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'evidenceScorer', message: 'must have non-empty names and a score() function' });
  }
  if (!expander || typeof expander.expand !== 'function') throw new InvalidArgumentError({ where: WHERE, argument: 'expander', message: 'must be a QueryExpander' });
  assertPositiveInteger('repeats', repeats, WHERE);
  if (!Array.isArray(ks) || ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1) || new Set(ks).size !== ks.length) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'ks', message: `must be distinct positive integers (got ${JSON.stringify(ks)})` });
  }
  assertPositiveInteger('concurrency', concurrency, WHERE);
  if (verdictModel !== undefined && typeof verdictModel.generate !== 'function') throw new InvalidArgumentError({ where: WHERE, argument: 'verdictModel', message: 'must be a LanguageModel' });
  if (verdictNli !== undefined && typeof verdictNli.classify !== 'function') throw new InvalidArgumentError({ where: WHERE, argument: 'verdictNli', message: 'must be an NliModel' });
  if (verdictModel !== undefined && verdictNli !== undefined) throw new InvalidArgumentError({ where: WHERE, argument: 'verdictNli', message: 'cannot be combined with verdictModel; give one of them' });
  const matchOptions = resolveMatchOptions(
    {
      nli,
      ...(options.aggregation === undefined ? {} : { aggregation: options.aggregation }),
      ...(options.reproductionThreshold === undefined ? {} : { reproductionThreshold: options.reproductionThreshold }),
      ...(dataset.language === undefined ? {} : { language: dataset.language }),
      ...(abortSignal ? { abortSignal } : {}),
    },
    WHERE,
  );
  const sortedKs = [...ks].sort((a, b) => a - b);
  const maxK = sortedKs[sortedKs.length - 1] as number;
  const goldLabels = dataset.labels ?? {};
  const verdictLabels = options.verdictLabels ?? [...new Set(Object.values(goldLabels))].sort();
  const useVerdicts = retriever !== undefined && (verdictModel !== undefined || verdictNli !== undefined) && verdictLabels.length > 0;
  if ((verdictModel !== undefined || verdictNli !== undefined) && verdictLabels.length === 0) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'verdictLabels', message: 'must be given (or dataset.labels must hold gold labels) when verdictModel or verdictNli is set' });
  }
  const verdictTemplate = useVerdicts && verdictModel ? createPromptTemplate<'labels' | 'claim' | 'evidence'>(verdictPrompt) : undefined;
  if (verdictTemplate) {
    for (const name of ['claim', 'evidence'] as const) {
      if (!verdictTemplate.variables.includes(name)) throw new InvalidArgumentError({ where: WHERE, argument: 'verdictPrompt', message: `must contain the {{${name}}} placeholder` });
    }
  }
  abortSignal?.throwIfAborted();

  const problems: ItemProblem[] = [];
  const evidenceMetricNames = evidenceScorer ? evidenceScorer.names : ['recall', 'ndcg'];
  const metricNames = retriever ? [...sortedKs.flatMap((k) => evidenceMetricNames.map((name) => `${name}@${k}`)), ...(useVerdicts ? sortedKs.map((k) => `f1@${k}`) : [])] : [];

  // Dataset checks, once per claim.
  const corpusIds = dataset.corpus ? new Set(dataset.corpus.map((document) => document.id)) : undefined;
  const claims: Claim[] = [];
  const seen = new Set<string>();
  dataset.claims.forEach((claim, index) => {
    if (!claim || typeof claim.id !== 'string' || claim.id === '' || typeof claim.text !== 'string' || claim.text.trim() === '') {
      problems.push({ index, code: 'invalid-claim', message: 'claim without a string id or with empty text; skipped' });
      return;
    }
    if (seen.has(claim.id)) {
      problems.push({ index, id: claim.id, code: 'duplicate-claim', message: `claim id "${claim.id}" occurs more than once; later copies skipped` });
      return;
    }
    seen.add(claim.id);
    claims.push(claim);
    const judged = dataset.qrels[claim.id];
    if (!retriever || evidenceScorer) {
      // Matching only, or evidence scored against the gold texts: qrels are not used.
    } else if (!judged || !Object.values(judged).some((level) => level > 0)) {
      problems.push({ id: claim.id, code: 'no-qrels', message: 'no relevant documents in qrels: excluded from Recall/NDCG (still matched and verdict-scored)' });
    } else if (corpusIds) {
      const unknown = Object.keys(judged).filter((documentId) => !corpusIds.has(documentId));
      if (unknown.length > 0) problems.push({ id: claim.id, code: 'unknown-qrels-document', message: `qrels name documents missing from the corpus: ${unknown.slice(0, 5).join(', ')}` });
    }
    if (useVerdicts) {
      const gold = goldLabels[claim.id];
      if (gold === undefined) problems.push({ id: claim.id, code: 'no-gold-label', message: 'no gold verdict label: excluded from F1' });
      else if (!verdictLabels.includes(gold)) problems.push({ id: claim.id, code: 'unknown-gold-label', message: `gold label "${gold}" is not among verdictLabels` });
    }
  });

  const hasQrels = (claimId: string) => Object.values(dataset.qrels[claimId] ?? {}).some((level) => level > 0);

  /** Retrieves, scores and (optionally) predicts verdicts for one query. Never throws except on abort. */
  const retrieveAndJudge = async (claim: Claim, query: Query, runProblems: ItemProblem[]) => {
    let retrieved: string[] = [];
    if (!retriever) return { retrieved, metrics: {}, verdicts: undefined };
    let texts: string[] = [];
    const metrics: Record<string, number> = {};
    try {
      const { evidence } = await retriever.retrieve({ query, topK: maxK, ...(abortSignal ? { abortSignal } : {}) });
      const ids = new Set<string>();
      for (const item of evidence) {
        if (ids.has(item.documentId)) continue;
        ids.add(item.documentId);
        retrieved.push(item.documentId);
        texts.push(item.text);
      }
      retrieved = retrieved.slice(0, maxK);
      texts = texts.slice(0, maxK);
      if (evidenceScorer) {
        const gold = dataset.evidence[claim.id] ?? [];
        if (gold.length > 0) {
          for (const k of sortedKs) {
            const scores = await evidenceScorer.score({ claimId: claim.id, texts: texts.slice(0, k), evidence: gold, k });
            for (const name of evidenceScorer.names) if (typeof scores[name] === 'number' && Number.isFinite(scores[name])) metrics[`${name}@${k}`] = scores[name] as number;
          }
        }
      } else if (hasQrels(claim.id)) {
        const judgments = dataset.qrels[claim.id] ?? {};
        for (const k of sortedKs) {
          metrics[`recall@${k}`] = computeRecallAtK(retrieved, judgments, { k });
          metrics[`ndcg@${k}`] = computeNdcgAtK(retrieved, judgments, { k });
        }
      }
    } catch (error) {
      if (isAbortReason(error, abortSignal)) throw error;
      runProblems.push({ code: 'retrieval-failed', message: errorMessage(error) });
      return { retrieved, metrics, verdicts: undefined, retrievalFailed: true };
    }
    if (!useVerdicts) return { retrieved, metrics, verdicts: undefined };
    const verdicts: Record<string, string | null> = {};
    if (verdictNli) {
      // Classical verdict: NLI of each retrieved text (premise) against the claim; top-k prefixes reuse one pass.
      const predictions = await classifyNliPairs(verdictNli, texts.map((premise) => ({ premise, hypothesis: claim.text })), abortSignal ? { abortSignal } : {});
      for (const k of sortedKs) {
        const top = predictions.slice(0, k);
        const has = (label: NliLabel) => top.some((prediction) => prediction.label === label);
        const unreadable = top.filter((prediction) => prediction.label === null).length;
        // Entailment decides on its own; otherwise a pair without a label could have been the entailment, so the
        // verdict is unknown (left out of F1), never "neutral" by default.
        if (!has('entailment') && unreadable > 0) {
          verdicts[String(k)] = null;
          runProblems.push({ code: 'verdict-nli-unreadable', message: `k=${k}: ${unreadable} evidence text(s) got no NLI label and none entails the claim: verdict unknown` });
          continue;
        }
        const label: NliLabel = has('entailment') ? 'entailment' : has('contradiction') ? 'contradiction' : 'neutral';
        verdicts[String(k)] = verdictLabelMap[label];
      }
      return { retrieved, metrics, verdicts };
    }
    if (!verdictModel || !verdictTemplate) return { retrieved, metrics, verdicts: undefined };
    // One prompted step per claim run: an input per cutoff k, replies read with core parseLabel (a negated or hedged
    // label, e.g. "NOT SUPPORTS" or "supports or refutes", is never read as that label).
    const steps = await runPromptedStep(sortedKs, {
      step: VERDICT_STEP,
      model: verdictModel,
      template: verdictTemplate,
      variables: (k) => ({ labels: verdictLabels.join(', '), claim: claim.text, evidence: renderVerdictEvidence(texts.slice(0, k)) }),
      parse: (reply) => parseLabel(reply, { labels: verdictLabels }),
      temperature: 0,
      maxTokens: 16,
      concurrency: 1,
      ...(abortSignal ? { abortSignal } : {}),
    });
    const verdictProvenance: Record<string, GenerationProvenance> = {};
    steps.forEach((step, index) => {
      const k = String(sortedKs[index]);
      verdictProvenance[k] = step.provenance;
      verdicts[k] = step.status === 'ok' && step.value !== undefined ? step.value : null;
      const message = step.problems.map((problem) => (step.status === 'failed' ? problem.message : `${problem.code}: ${problem.message}`)).join('; ');
      if (step.status === 'failed') runProblems.push({ code: 'verdict-failed', message: `k=${k}: ${message}` });
      else if (step.value === undefined) runProblems.push({ code: 'verdict-unreadable', message: `k=${k}: ${message || 'unreadable'}`, raw: step.raw[0] ?? '' });
    });
    return { retrieved, metrics, verdicts, verdictProvenance };
  };

  const collect = (run: ClaimRun) => {
    for (const problem of run.problems) problems.push({ ...problem, id: `${run.claimId}#${run.sample}` });
    return run;
  };

  const settledRuns = async (stage: 'baseline' | 'repeat', repeat: number, task: (claim: Claim) => Promise<ClaimRun>): Promise<ClaimRun[]> => {
    const settled = await settleWithConcurrency(claims, task, {
      concurrency,
      ...(abortSignal ? { abortSignal } : {}),
      onProgress: ({ completed, total }) => onProgress?.({ stage, ...(stage === 'repeat' ? { repeat } : {}), completed, total }),
    });
    return settled.map((entry, index) => {
      if (entry.status === 'fulfilled') return collect(entry.value);
      if (isAbortReason(entry.error, abortSignal)) throw entry.error;
      const claim = claims[index] as Claim;
      return collect({ claimId: claim.id, sample: repeat, generations: [], retrieved: [], metrics: {}, failedStage: 'claim', problems: [{ code: 'claim-failed', message: errorMessage(entry.error) }] });
    });
  };

  // Baseline: the bare claim through the same retriever (the paper's BM25 / Contriever rows).
  let baselineRuns: ClaimRun[] | undefined;
  if (runBaseline && retriever) {
    baselineRuns = await settledRuns('baseline', -1, async (claim) => {
      const runProblems: ItemProblem[] = [];
      const { retrieved, metrics, verdicts, verdictProvenance, retrievalFailed } = await retrieveAndJudge(claim, { id: claim.id, text: claim.text }, runProblems);
      return { claimId: claim.id, sample: -1, generations: [], retrieved, metrics, ...(verdicts ? { verdicts } : {}), ...(verdictProvenance ? { verdictProvenance } : {}), ...(retrievalFailed ? { failedStage: 'retrieval' as const } : {}), problems: runProblems };
    });
  }

  const runs: ClaimRun[] = [];
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    abortSignal?.throwIfAborted();
    const repeatRuns = await settledRuns('repeat', repeat, async (claim) => {
      const runProblems: ItemProblem[] = [];
      let expanded;
      try {
        expanded = await expander.expand({ query: { id: claim.id, text: claim.text }, sample: repeat, ...(abortSignal ? { abortSignal } : {}) });
      } catch (error) {
        if (isAbortReason(error, abortSignal)) throw error;
        runProblems.push({ code: 'expansion-failed', message: errorMessage(error) });
        return { claimId: claim.id, sample: repeat, generations: [], retrieved: [], metrics: {}, failedStage: 'expansion', problems: runProblems };
      }
      for (const problem of expanded.problems ?? []) runProblems.push({ ...problem, code: problem.code, message: `expander: ${problem.message}` });
      const generations = [...(expanded.generations ?? [])];
      const { retrieved, metrics, verdicts, verdictProvenance, retrievalFailed } = await retrieveAndJudge(claim, expanded, runProblems);
      let match: GenerationMatch | undefined;
      try {
        match = await matchWithResolvedOptions({ claim: claim.text, generation: generations.join('\n\n'), evidence: dataset.evidence[claim.id] ?? [] }, matchOptions);
        runProblems.push(...match.problems);
      } catch (error) {
        if (isAbortReason(error, abortSignal)) throw error;
        runProblems.push({ code: 'match-failed', message: errorMessage(error) });
      }
      return {
        claimId: claim.id,
        sample: repeat,
        generations,
        retrieved,
        metrics,
        ...(verdicts ? { verdicts } : {}),
        ...(verdictProvenance ? { verdictProvenance } : {}),
        ...(match ? { match } : {}),
        ...(expanded.provenance ? { provenance: expanded.provenance } : {}),
        ...(retrievalFailed ? { failedStage: 'retrieval' as const } : {}),
        problems: runProblems,
      };
    });
    runs.push(...repeatRuns);
  }

  // Summaries. Standard errors are over repeats (the paper's ±); significance tests are over claims, one value per
  // claim and condition (its mean over the repeats in that condition), never pooled claim × repeat values.
  const byRepeat: ClaimRun[][] = Array.from({ length: repeats }, () => []);
  for (const run of runs) byRepeat[run.sample]?.push(run);
  const wasExpanded = (run: ClaimRun) => run.failedStage !== 'expansion' && run.failedStage !== 'claim';
  const isMatched = (run: ClaimRun) => run.match?.matched === true;
  const isUnmatched = (run: ClaimRun) => run.match?.matched === false;
  const noEvidence = (run: ClaimRun) => run.match?.noEvidence === true;
  const isUnknown = (run: ClaimRun) => wasExpanded(run) && run.match?.matched !== true && run.match?.matched !== false && !noEvidence(run);
  const isAll = (run: ClaimRun) => wasExpanded(run);

  /** Macro-F1 over the runs that have a readable verdict at k and a gold label; failed verdicts are left out. */
  const macroF1 = (subset: readonly ClaimRun[], k: number): number | null => {
    const scored = subset.filter((run) => typeof run.verdicts?.[String(k)] === 'string' && goldLabels[run.claimId] !== undefined);
    if (scored.length === 0) return null;
    const gold = scored.map((run) => goldLabels[run.claimId] as string);
    const predicted = scored.map((run) => run.verdicts?.[String(k)] as string);
    const labels = [...new Set([...verdictLabels, ...gold])];
    return computeClassificationReport(gold, predicted, { labels: labels.filter((label) => gold.includes(label) || predicted.includes(label)) }).macro.f1;
  };

  const runsByClaim = (subset: readonly ClaimRun[]) => {
    const grouped = new Map<string, ClaimRun[]>();
    for (const run of subset) {
      const list = grouped.get(run.claimId);
      if (list) list.push(run);
      else grouped.set(run.claimId, [run]);
    }
    return grouped;
  };
  /** One value per claim: the mean of `name` over that claim's runs in `subset`. */
  const perClaimMeans = (subset: readonly ClaimRun[], name: string): number[] => {
    const means: number[] = [];
    for (const claimRuns of runsByClaim(subset).values()) {
      const values = claimRuns.flatMap((run) => (run.metrics[name] === undefined ? [] : [run.metrics[name] as number]));
      if (values.length > 0) means.push(values.reduce((sum, value) => sum + value, 0) / values.length);
    }
    return means;
  };
  const mannWhitneyOverClaims = (x: readonly number[], y: readonly number[], what: string): SignificanceTest | null => {
    const test = safeMannWhitney(x, y);
    if (!test) return null;
    return { test: 'mann-whitney-u', description: `Mann–Whitney U, two-sided, over claims (${what}: ${x.length} vs ${y.length} claims)`, statistic: test.statistic, pvalue: test.pvalue, sizes: [x.length, y.length] };
  };
  /** Bootstrap over claims of macro-F1(groupA runs) − macro-F1(groupB runs) at k. */
  const bootstrapF1 = (groupA: readonly ClaimRun[], groupB: readonly ClaimRun[], k: number, what: string): SignificanceTest | null => {
    const byClaimA = runsByClaim(groupA);
    const byClaimB = runsByClaim(groupB);
    const claimIds = [...new Set([...byClaimA.keys(), ...byClaimB.keys()])];
    const difference = (ids: readonly string[]) => {
      const a = macroF1(ids.flatMap((id) => byClaimA.get(id) ?? []), k);
      const b = macroF1(ids.flatMap((id) => byClaimB.get(id) ?? []), k);
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

  const summary: Record<string, ConditionSummary> = {};
  for (const name of metricNames) {
    const [kind, kText] = name.split('@') as [string, string];
    const k = Number(kText);
    if (kind === 'f1') {
      const perRepeat = (filter: (run: ClaimRun) => boolean) =>
        byRepeat.map((repeatRuns) => macroF1(repeatRuns.filter(filter), k)).filter((value): value is number => value !== null);
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
    const valuesOf = (subset: readonly ClaimRun[]) => subset.flatMap((run) => (run.metrics[name] === undefined ? [] : [run.metrics[name] as number]));
    const repeatMeans = (filter: (run: ClaimRun) => boolean) =>
      byRepeat.flatMap((repeatRuns) => {
        const values = valuesOf(repeatRuns.filter(filter));
        return values.length === 0 ? [] : [values.reduce((sum, value) => sum + value, 0) / values.length];
      });
    const matchedClaims = perClaimMeans(runs.filter(isMatched), name);
    const unmatchedClaims = perClaimMeans(runs.filter(isUnmatched), name);
    const allClaims = perClaimMeans(runs.filter(isAll), name);
    summary[name] = {
      all: meanWithError(repeatMeans(isAll)),
      matched: meanWithError(repeatMeans(isMatched)),
      unmatched: meanWithError(repeatMeans(isUnmatched)),
      unknown: meanWithError(repeatMeans(isUnknown)),
      matchedVsUnmatched: mannWhitneyOverClaims(matchedClaims, unmatchedClaims, 'M vs ¬M'),
      matchedVsAll: mannWhitneyOverClaims(matchedClaims, allClaims, 'M vs ALL'),
      versusBaseline: baselineRuns ? mannWhitneyOverClaims(allClaims, perClaimMeans(baselineRuns, name), 'expansion vs baseline') : null,
    };
  }

  // Table 3: matched proportion among claims whose match is known (unknown claims are in neither M nor ¬M).
  const proportions = byRepeat.flatMap((repeatRuns) => {
    const decided = repeatRuns.filter((run) => isMatched(run) || isUnmatched(run));
    return decided.length === 0 ? [] : [decided.filter(isMatched).length / decided.length];
  });

  const counts: MatchCounts = {
    matched: runs.filter(isMatched).length,
    unmatched: runs.filter(isUnmatched).length,
    unknown: runs.filter(isUnknown).length,
    undecidable: runs.filter((run) => wasExpanded(run) && noEvidence(run)).length,
    expansionFailed: runs.filter((run) => !wasExpanded(run)).length,
    retrievalFailed: [...runs, ...(baselineRuns ?? [])].filter((run) => run.failedStage === 'retrieval').length,
    verdictFailed: [...runs, ...(baselineRuns ?? [])].reduce(
      (total, run) => total + (run.verdicts ? Object.values(run.verdicts).filter((label) => label === null).length : 0),
      0,
    ),
  };
  const incomplete: string[] = [];
  if (counts.expansionFailed > 0) incomplete.push(`${counts.expansionFailed} of ${runs.length} expansions failed (left out of every row)`);
  if (counts.unknown > 0) incomplete.push(`${counts.unknown} of ${runs.length} expanded claims have an unknown match (NLI failed; in neither M nor ¬M)`);
  if (counts.retrievalFailed > 0) incomplete.push(`${counts.retrievalFailed} retrievals failed (left out of Recall/NDCG)`);
  if (counts.verdictFailed > 0) incomplete.push(`${counts.verdictFailed} verdict predictions failed or were unreadable (left out of F1)`);
  const failedClaims = [...runs, ...(baselineRuns ?? [])].filter((run) => run.failedStage === 'claim').length;
  if (failedClaims > 0) incomplete.push(`${failedClaims} claim runs failed outright`);

  let baseline: Record<string, number> | undefined;
  if (baselineRuns) {
    baseline = {};
    for (const name of metricNames) {
      const [kind, kText] = name.split('@') as [string, string];
      if (kind === 'f1') {
        const value = macroF1(baselineRuns, Number(kText));
        if (value !== null) baseline[name] = value;
        continue;
      }
      const values = baselineRuns.flatMap((run) => (run.metrics[name] === undefined ? [] : [run.metrics[name] as number]));
      if (values.length > 0) baseline[name] = values.reduce((sum, value) => sum + value, 0) / values.length;
    }
  }

  return {
    datasetName: dataset.name ?? 'dataset',
    expanderId: expander.id,
    retrieverId: retriever?.id ?? 'none',
    nliId: nli.id,
    ...(verdictModel ? { verdictModelId: verdictModel.id } : verdictNli ? { verdictModelId: `nli-verdict(${verdictNli.id})` } : {}),
    repeats,
    ks: sortedKs,
    metricNames,
    ...(baseline ? { baseline } : {}),
    ...(baselineRuns ? { baselineRuns } : {}),
    runs,
    summary,
    matchedProportion: meanWithError(proportions),
    counts,
    incomplete,
    ...(useVerdicts ? { verdictLabels } : {}),
    problems,
  };
}
