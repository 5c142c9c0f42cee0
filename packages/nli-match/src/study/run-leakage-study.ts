import type { ItemProblem } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import type { ClaimRun, LeakageStudyOptions, LeakageStudyResult } from './leakage-study-types.js';
import { runBaselineClaims, runRepeatClaims } from './run-leakage-claims.js';
import { checkLeakageClaims, resolveLeakageStudy } from './resolve-leakage-study.js';
import { summariseLeakageStudy } from './summarise-leakage-study.js';

/** Every problem of the runs, with "<claimId>#<repeat>" as its id. */
const runProblems = (runs: readonly ClaimRun[]): ItemProblem<NliMatchProblemCode>[] => runs.flatMap((run) => run.problems.map((problem) => ({ ...problem, id: `${run.claimId}#${run.sample}` })));

/**
 * The paper's experiment as a function ("Hypothetical Documents or Knowledge Leakage?", sections 3-4): for every claim
 * and each of `repeats` generations, expand the claim, retrieve the top k, score Recall@k / NDCG@k (and verdict macro-F1
 * with a verdict model, prompt Figure A2), match the generation against the gold evidence with NLI, and summarise ALL /
 * matched / unmatched with standard errors over repeats and Mann–Whitney U p-values, plus the matched proportion.
 * Three stages: validate the options and the dataset, run the claims (baseline, then each repeat), summarise.
 * Bad items (failed or empty expansions, refusals, wrong language, empty evidence, claims without qrels, unreadable
 * NLI or verdict answers) become problems in the result; they never stop the study. Aborts rethrow the signal's reason.
 * @throws InvalidArgumentError for invalid options.
 * @example const result = await runLeakageStudy({ dataset, retriever, expander, nli, repeats: 8 }); formatLeakageReport(result)
 */
export async function runLeakageStudy(options: LeakageStudyOptions): Promise<LeakageStudyResult> {
  const study = resolveLeakageStudy(options);
  const { claims, problems } = checkLeakageClaims(study);
  let baselineRuns: ClaimRun[] | undefined;
  if (study.runBaseline && study.retriever) {
    baselineRuns = await runBaselineClaims(study, claims);
    problems.push(...runProblems(baselineRuns));
  }
  const runs: ClaimRun[] = [];
  for (let repeat = 0; repeat < study.repeats; repeat += 1) {
    study.abortSignal?.throwIfAborted();
    const repeatRuns = await runRepeatClaims(study, claims, repeat);
    problems.push(...runProblems(repeatRuns));
    runs.push(...repeatRuns);
  }
  return summariseLeakageStudy(study, runs, baselineRuns, problems);
}
