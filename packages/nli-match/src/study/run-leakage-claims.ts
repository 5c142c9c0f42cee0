import type { Claim, GenerationProvenance, ItemProblem, NliLabel, Query } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import { isAbortReason, parseLabel, runPromptedStep, settleWithConcurrency } from '@factkit/core';
import { computeNdcgAtK, computeRecallAtK } from '@factkit/metrics';
import { classifyNliPairs } from '../match/classify-nli-pairs.js';
import type { GenerationMatch } from '../match/match-generation-to-evidence.js';
import { matchWithResolvedOptions } from '../match/match-generation-to-evidence.js';
import type { ClaimRun } from './leakage-study-types.js';
import type { ResolvedLeakageStudy } from './resolve-leakage-study.js';
import { VERDICT_STEP, renderVerdictEvidence } from './verdict-prompt.js';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Verdicts = Record<string, string | null>;

/** What retrieval and verdict prediction gave for one query (stage 2). */
interface Judged {
  readonly retrieved: string[];
  readonly metrics: Record<string, number>;
  readonly verdicts?: Verdicts;
  readonly verdictProvenance?: Record<string, GenerationProvenance>;
  readonly retrievalFailed?: boolean;
}

const hasQrels = (study: ResolvedLeakageStudy, claimId: string) => Object.values(study.dataset.qrels[claimId] ?? {}).some((level) => level > 0);

/** Scores the top-k texts / ids of one claim: the evidence scorer against gold texts, else Recall@k and NDCG@k on qrels. */
async function scoreRetrieved(study: ResolvedLeakageStudy, claim: Claim, retrieved: readonly string[], texts: readonly string[]): Promise<Record<string, number>> {
  const { dataset, evidenceScorer, ks } = study;
  const metrics: Record<string, number> = {};
  if (evidenceScorer) {
    const gold = dataset.evidence[claim.id] ?? [];
    if (gold.length === 0) return metrics;
    for (const k of ks) {
      const scores = await evidenceScorer.score({ claimId: claim.id, texts: texts.slice(0, k), evidence: gold, k });
      for (const name of evidenceScorer.names) if (typeof scores[name] === 'number' && Number.isFinite(scores[name])) metrics[`${name}@${k}`] = scores[name] as number;
    }
  } else if (hasQrels(study, claim.id)) {
    const judgments = dataset.qrels[claim.id] ?? {};
    for (const k of ks) {
      metrics[`recall@${k}`] = computeRecallAtK(retrieved, judgments, { k });
      metrics[`ndcg@${k}`] = computeNdcgAtK(retrieved, judgments, { k });
    }
  }
  return metrics;
}

/** Classical verdicts: NLI of each retrieved text (premise) against the claim; top-k prefixes reuse one pass. */
async function nliVerdicts(study: ResolvedLeakageStudy, claim: Claim, texts: readonly string[], runProblems: ItemProblem<NliMatchProblemCode>[]): Promise<Verdicts> {
  const { verdictNli, ks, verdictLabelMap, abortSignal } = study;
  const verdicts: Verdicts = {};
  const predictions = await classifyNliPairs(
    verdictNli!,
    texts.map((premise) => ({ premise, hypothesis: claim.text })),
    abortSignal ? { abortSignal } : {},
  );
  for (const k of ks) {
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
  return verdicts;
}

/**
 * Verdicts from the verdict model: one prompted step per claim run, an input per cutoff k, replies read with core
 * parseLabel (a negated or hedged label, e.g. "NOT SUPPORTS" or "supports or refutes", is never read as that label).
 * A failed or unreadable call is a null verdict plus a problem, never a label.
 */
async function modelVerdicts(study: ResolvedLeakageStudy, claim: Claim, texts: readonly string[], runProblems: ItemProblem<NliMatchProblemCode>[]) {
  const { ks, verdictModel, verdictTemplate, verdictLabels, abortSignal } = study;
  const steps = await runPromptedStep(ks, {
    step: VERDICT_STEP,
    model: verdictModel!,
    template: verdictTemplate!,
    variables: (k) => ({ labels: verdictLabels.join(', '), claim: claim.text, evidence: renderVerdictEvidence(texts.slice(0, k)) }),
    parse: (reply) => parseLabel(reply, { labels: verdictLabels }),
    temperature: 0,
    maxTokens: 16,
    concurrency: 1,
    ...(abortSignal ? { abortSignal } : {}),
  });
  const verdicts: Verdicts = {};
  const verdictProvenance: Record<string, GenerationProvenance> = {};
  steps.forEach((step, index) => {
    const k = String(ks[index]);
    verdictProvenance[k] = step.provenance;
    verdicts[k] = step.status === 'ok' && step.value !== undefined ? step.value : null;
    const message = step.problems.map((problem) => (step.status === 'failed' ? problem.message : `${problem.code}: ${problem.message}`)).join('; ');
    if (step.status === 'failed') runProblems.push({ code: 'verdict-failed', message: `k=${k}: ${message}` });
    else if (step.value === undefined) runProblems.push({ code: 'verdict-unreadable', message: `k=${k}: ${message || 'unreadable'}`, raw: step.raw[0] ?? '' });
  });
  return { verdicts, verdictProvenance };
}

/** Retrieves, scores and (optionally) predicts verdicts for one query. Never throws except on abort. */
async function retrieveAndJudge(study: ResolvedLeakageStudy, claim: Claim, query: Query, runProblems: ItemProblem<NliMatchProblemCode>[]): Promise<Judged> {
  const { retriever, maxK, abortSignal } = study;
  if (!retriever) return { retrieved: [], metrics: {} };
  let retrieved: string[] = [];
  let texts: string[] = [];
  let metrics: Record<string, number> = {};
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
    metrics = await scoreRetrieved(study, claim, retrieved, texts);
  } catch (error) {
    if (isAbortReason(error, abortSignal)) throw error;
    runProblems.push({ code: 'retrieval-failed', message: errorMessage(error) });
    return { retrieved, metrics, retrievalFailed: true };
  }
  if (!study.useVerdicts) return { retrieved, metrics };
  if (study.verdictNli) return { retrieved, metrics, verdicts: await nliVerdicts(study, claim, texts, runProblems) };
  if (!study.verdictModel || !study.verdictTemplate) return { retrieved, metrics };
  return { retrieved, metrics, ...(await modelVerdicts(study, claim, texts, runProblems)) };
}

const judgedFields = ({ retrieved, metrics, verdicts, verdictProvenance, retrievalFailed }: Judged) => ({
  retrieved,
  metrics,
  ...(verdicts ? { verdicts } : {}),
  ...(verdictProvenance ? { verdictProvenance } : {}),
  ...(retrievalFailed ? { failedStage: 'retrieval' as const } : {}),
});

/** One claim of one repeat: expand, retrieve and judge with the expansion, match the generation to the gold evidence. */
async function runExpandedClaim(study: ResolvedLeakageStudy, claim: Claim, repeat: number): Promise<ClaimRun> {
  const { expander, abortSignal, dataset } = study;
  const runProblems: ItemProblem<NliMatchProblemCode>[] = [];
  let expanded;
  try {
    expanded = await expander.expand({ query: { id: claim.id, text: claim.text }, sample: repeat, ...(abortSignal ? { abortSignal } : {}) });
  } catch (error) {
    if (isAbortReason(error, abortSignal)) throw error;
    runProblems.push({ code: 'expansion-failed', message: errorMessage(error) });
    return { claimId: claim.id, sample: repeat, generations: [], retrieved: [], metrics: {}, failedStage: 'expansion', problems: runProblems };
  }
  // The expander's problems keep their text; their code is the expander's, so it goes into the message.
  for (const problem of expanded.problems ?? []) runProblems.push({ ...problem, code: 'expander-problem', message: `expander: ${problem.code}: ${problem.message}` });
  const generations = [...(expanded.generations ?? [])];
  const judged = await retrieveAndJudge(study, claim, expanded, runProblems);
  let match: GenerationMatch | undefined;
  try {
    match = await matchWithResolvedOptions({ claim: claim.text, generation: generations.join('\n\n'), evidence: dataset.evidence[claim.id] ?? [] }, study.matchOptions);
    runProblems.push(...match.problems);
  } catch (error) {
    if (isAbortReason(error, abortSignal)) throw error;
    runProblems.push({ code: 'match-failed', message: errorMessage(error) });
  }
  return {
    claimId: claim.id,
    sample: repeat,
    generations,
    ...judgedFields(judged),
    ...(match ? { match } : {}),
    ...(expanded.provenance ? { provenance: expanded.provenance } : {}),
    problems: runProblems,
  };
}

/** Runs `task` over the claims with the study's concurrency; a claim whose task throws becomes a 'claim-failed' run. */
async function settleClaims(study: ResolvedLeakageStudy, claims: readonly Claim[], stage: 'baseline' | 'repeat', repeat: number, task: (claim: Claim) => Promise<ClaimRun>): Promise<ClaimRun[]> {
  const { concurrency, abortSignal, onProgress } = study;
  const settled = await settleWithConcurrency(claims, task, {
    concurrency,
    ...(abortSignal ? { abortSignal } : {}),
    // The repeats count as one stage: runs of earlier repeats are done, those of later ones are still to come.
    onProgress: ({ completed, total }) => onProgress?.(stage === 'baseline' ? { stage, completed, total } : { stage, completed: repeat * total + completed, total: study.repeats * total }),
  });
  return settled.map((entry, index) => {
    if (entry.status === 'fulfilled') return entry.value;
    if (isAbortReason(entry.error, abortSignal)) throw entry.error;
    const claim = claims[index] as Claim;
    return { claimId: claim.id, sample: repeat, generations: [], retrieved: [], metrics: {}, failedStage: 'claim', problems: [{ code: 'claim-failed', message: errorMessage(entry.error) }] };
  });
}

/** Stage 2a: the bare claim through the same retriever (the paper's BM25 / Contriever rows); sample -1. */
export function runBaselineClaims(study: ResolvedLeakageStudy, claims: readonly Claim[]): Promise<ClaimRun[]> {
  return settleClaims(study, claims, 'baseline', -1, async (claim) => {
    const runProblems: ItemProblem<NliMatchProblemCode>[] = [];
    const judged = await retrieveAndJudge(study, claim, { id: claim.id, text: claim.text }, runProblems);
    return { claimId: claim.id, sample: -1, generations: [], ...judgedFields(judged), problems: runProblems };
  });
}

/** Stage 2b: every claim of one repeat (expansion sample `repeat`). */
export function runRepeatClaims(study: ResolvedLeakageStudy, claims: readonly Claim[], repeat: number): Promise<ClaimRun[]> {
  return settleClaims(study, claims, 'repeat', repeat, (claim) => runExpandedClaim(study, claim, repeat));
}
