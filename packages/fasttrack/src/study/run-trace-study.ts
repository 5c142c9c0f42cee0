import type { Document, ProgressCallback, Retriever, ItemProblem } from '@factkit/core';
import { InvalidArgumentError, isAbortReason } from '@factkit/core';
import type { MeanStandardError, SetScores } from '@factkit/metrics';
import { computeBestMeanF1OverTopK, computeMeanStandardError, computeSetScores } from '@factkit/metrics';
import { isSupporting, type SupportJudge } from '../judge/support-judge.js';
import type { FastTrack, TraceResult } from '../online/fasttrack.js';
import type { FastTrackProblemCode } from '../problem-codes.js';

const WHERE = 'runTraceStudy';

/** A statement to trace and, when known, the ids of the documents that support it. */
export interface TraceStatement {
  readonly text: string;
  readonly gold?: readonly string[];
}

/** A ranking baseline: a retriever, or rankings made elsewhere (one per statement, best first). */
export type TraceRanker = { readonly name: string; readonly retriever: Retriever } | { readonly name: string; readonly rankings: readonly (readonly string[])[] };

export interface TraceStudyOptions {
  readonly statements: readonly TraceStatement[];
  /** FastTrack configurations, one row each (offline judge, LLM judge, an ensemble, …). */
  readonly tracers?: ReadonlyArray<{ readonly name: string; readonly fastTrack: FastTrack }>;
  /** After each tracer, its stage-1 upper bound "Ours*": a perfect judge on the tracer's candidates. @default true */
  readonly upperBound?: boolean;
  /** The brute-force baseline: `judge` on every document of `documents`. */
  readonly bruteForce?: { readonly name?: string; readonly judge: SupportJudge; readonly documents: readonly Document[] };
  /** Ranking baselines (BM25, dense): the top k of each ranking at one k for all statements, chosen by best mean F1. */
  readonly rankers?: readonly TraceRanker[];
  /** Deepest ranking cutoff. @default 100 */
  readonly maxK?: number;
  /** Cutoff of the ranking baselines when no statement has gold ids. @default 10 */
  readonly defaultK?: number;
  /** Called per statement of each method (core `Progress`; `stage`, always set, is the method's name). */
  readonly onProgress?: ProgressCallback;
  readonly abortSignal?: AbortSignal;
}

/** What one method returned for one statement. */
export interface TraceStatementRun {
  readonly supporting: readonly string[];
  /** Candidates judged (FastTrack and brute force). */
  readonly judged?: number;
  /** Some candidate could not be decided, or the call failed: left out of the method's scores. */
  readonly incomplete: boolean;
  /** FastTrack's own trace (clusters, judge calls, cost). */
  readonly result?: TraceResult;
  readonly latencyMs?: number;
  readonly problems: readonly ItemProblem<FastTrackProblemCode>[];
}

/** P / R / F1 of one method over the statements with gold ids whose run is complete: mean ± SE (SE NaN for one statement). */
export interface TraceMethodScores {
  readonly precision: MeanStandardError;
  readonly recall: MeanStandardError;
  readonly f1: MeanStandardError;
  /** Statements scored. */
  readonly statements: number;
  /** Statements with gold ids left out because their run is incomplete. */
  readonly leftOut: number;
}

export interface TraceMethodRun {
  readonly method: string;
  readonly kind: 'fasttrack' | 'upper-bound' | 'brute-force' | 'ranking';
  /** The shared cutoff of a ranking baseline. */
  readonly k?: number;
  /** One entry per statement, in input order. */
  readonly perStatement: readonly TraceStatementRun[];
  /** Absent when no statement with gold ids is complete (no mean over zero statements). */
  readonly scores?: TraceMethodScores;
}

export interface TraceStudyResult {
  readonly methods: readonly TraceMethodRun[];
  readonly statementsWithGold: number;
  /** Why some rows are not whole (statements left out); empty when every row is complete. */
  readonly incomplete: readonly string[];
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
const hasGold = (statement: TraceStatement) => (statement.gold?.length ?? 0) > 0;

/** Set P / R / F1 of a method, mean ± SE over the complete statements that have gold ids. */
export function scoreTraceMethod(statements: readonly TraceStatement[], perStatement: readonly TraceStatementRun[]): TraceMethodScores | undefined {
  const withGold = statements.flatMap((statement, position) => (hasGold(statement) ? [position] : []));
  const scored: SetScores[] = withGold.filter((position) => perStatement[position]?.incomplete === false).map((position) => computeSetScores(perStatement[position]!.supporting, statements[position]!.gold!));
  if (scored.length === 0) return undefined;
  return {
    precision: computeMeanStandardError(scored.map((score) => score.precision)),
    recall: computeMeanStandardError(scored.map((score) => score.recall)),
    f1: computeMeanStandardError(scored.map((score) => score.f1)),
    statements: scored.length,
    leftOut: withGold.length - scored.length,
  };
}

function validate(options: TraceStudyOptions): void {
  const { statements, tracers = [], bruteForce, rankers = [], maxK = 100, defaultK = 10 } = options ?? ({} as TraceStudyOptions);
  if (!Array.isArray(statements) || statements.some((statement) => typeof statement?.text !== 'string' || statement.text.trim() === '')) {
    throw new InvalidArgumentError({ where: WHERE, argument: 'statements', message: 'must be an array of { text, gold? } with non-empty text' });
  }
  if (statements.some((statement) => statement.gold !== undefined && (!Array.isArray(statement.gold) || statement.gold.length === 0)))
    throw new InvalidArgumentError({ where: WHERE, argument: 'statements', message: 'gold must be a non-empty array of document ids when given' });
  if (!Array.isArray(tracers) || tracers.some((tracer) => typeof tracer?.fastTrack?.trace !== 'function')) throw new InvalidArgumentError({ where: WHERE, argument: 'tracers', message: 'must be an array of { name, fastTrack }' });
  if (bruteForce !== undefined && (typeof bruteForce?.judge?.judge !== 'function' || !Array.isArray(bruteForce.documents)))
    throw new InvalidArgumentError({ where: WHERE, argument: 'bruteForce', message: 'must be { judge: SupportJudge, documents }' });
  for (const ranker of rankers) {
    const ok = 'retriever' in ranker ? typeof ranker.retriever?.retrieve === 'function' : Array.isArray(ranker.rankings) && ranker.rankings.length === statements.length;
    if (!ok) throw new InvalidArgumentError({ where: WHERE, argument: 'rankers', message: `"${String(ranker?.name)}" must have a retriever or one ranking per statement` });
  }
  for (const [name, value] of [
    ['maxK', maxK],
    ['defaultK', defaultK],
  ] as const)
    if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError({ where: WHERE, argument: name, message: `must be a positive integer (got ${String(value)})` });
}

async function runTracer(options: TraceStudyOptions, name: string, fastTrack: FastTrack): Promise<TraceStatementRun[]> {
  const { statements, abortSignal, onProgress } = options;
  const runs: TraceStatementRun[] = [];
  for (const [position, statement] of statements.entries()) {
    onProgress?.({ stage: name, completed: position, total: statements.length });
    const started = performance.now();
    try {
      const result = await fastTrack.trace(statement.text, abortSignal ? { abortSignal } : {});
      const incomplete = result.unjudged.length > 0 || result.unlabelledLeaves.length > 0;
      runs.push({ supporting: result.supporting.map((document) => document.documentId), judged: result.cost.candidatesJudged, incomplete, result, latencyMs: performance.now() - started, problems: result.problems });
    } catch (error) {
      if (isAbortReason(error, abortSignal)) throw error;
      runs.push({ supporting: [], incomplete: true, problems: [{ index: position, code: 'trace-failed', message: errorMessage(error) }] });
    }
  }
  onProgress?.({ stage: name, completed: statements.length, total: statements.length });
  return runs;
}

/** "Ours*": a perfect judge on FastTrack's candidates (the gold ids among them); incomplete only when a leaf had no keywords (its label call failed). */
function upperBoundRuns(statements: readonly TraceStatement[], runs: readonly TraceStatementRun[]): TraceStatementRun[] {
  return runs.map((run, position) => {
    const gold = new Set(statements[position]?.gold ?? []);
    if (!run.result) return { supporting: [], incomplete: true, problems: run.problems };
    return { supporting: run.result.judgements.map((judgement) => judgement.documentId).filter((id) => gold.has(id)), judged: run.result.cost.candidatesJudged, incomplete: run.result.unlabelledLeaves.length > 0, problems: [] };
  });
}

async function runBruteForce(options: TraceStudyOptions, name: string, judge: SupportJudge, documents: readonly Document[]): Promise<TraceStatementRun[]> {
  const { statements, abortSignal, onProgress } = options;
  const candidates = documents.map((document) => ({ documentId: document.id, text: document.text }));
  const runs: TraceStatementRun[] = [];
  for (const [position, statement] of statements.entries()) {
    onProgress?.({ stage: name, completed: position, total: statements.length });
    try {
      const { judgements } = await judge.judge({ query: statement.text, candidates, ...(abortSignal ? { abortSignal } : {}) });
      const problems = judgements.flatMap((judgement) => judgement.problems ?? []);
      runs.push({ supporting: judgements.filter(isSupporting).map((judgement) => judgement.documentId), judged: documents.length, incomplete: judgements.some((judgement) => judgement.status === 'failed'), problems });
    } catch (error) {
      if (isAbortReason(error, abortSignal)) throw error;
      runs.push({ supporting: [], incomplete: true, problems: [{ index: position, code: 'judge-failed', message: errorMessage(error) }] });
    }
  }
  onProgress?.({ stage: name, completed: statements.length, total: statements.length });
  return runs;
}

async function runRanker(options: TraceStudyOptions, ranker: TraceRanker): Promise<TraceMethodRun> {
  const { statements, abortSignal, maxK = 100, defaultK = 10 } = options;
  const rankings: (readonly string[] | undefined)[] = [];
  const problems: ItemProblem<FastTrackProblemCode>[][] = statements.map(() => []);
  if ('rankings' in ranker) rankings.push(...ranker.rankings);
  else {
    for (const [position, statement] of statements.entries()) {
      try {
        const { evidence } = await ranker.retriever.retrieve({ query: { text: statement.text }, topK: maxK, ...(abortSignal ? { abortSignal } : {}) });
        rankings.push([...new Set(evidence.map((item) => item.documentId))]);
      } catch (error) {
        if (isAbortReason(error, abortSignal)) throw error;
        rankings.push(undefined);
        problems[position]!.push({ index: position, code: 'retrieval-failed', message: errorMessage(error) });
      }
    }
  }
  // One k for all statements, chosen on the statements with gold ids whose ranking came back.
  const chosen = statements.flatMap((statement, position) => (hasGold(statement) && rankings[position] ? [position] : []));
  const best = computeBestMeanF1OverTopK(
    chosen.map((position) => rankings[position]!),
    chosen.map((position) => statements[position]!.gold!),
    { maxK },
  );
  const k = best?.k ?? defaultK;
  const perStatement = rankings.map((ranking, position) => ({ supporting: ranking ? ranking.slice(0, k) : [], incomplete: ranking === undefined, problems: problems[position]! }));
  return { method: ranker.name, kind: 'ranking', k, perStatement, ...withScores(statements, perStatement) };
}

function withScores(statements: readonly TraceStatement[], perStatement: readonly TraceStatementRun[]): { scores?: TraceMethodScores } {
  const scores = scoreTraceMethod(statements, perStatement);
  return scores ? { scores } : {};
}

/**
 * FastTrack's evaluation (paper Table 1) as a function: each FastTrack configuration, its stage-1 upper bound "Ours*",
 * the brute-force judge on every document, and ranking baselines at one top-k for all statements (best mean F1), each
 * scored by set precision / recall / F1 against the statements' gold ids (mean ± SE over statements). A statement
 * whose candidates the judge could not all decide, or whose call failed, is left out of that method's scores and
 * counted (`incomplete`); a method with no complete statement has no scores.
 * @throws InvalidArgumentError for invalid options; the abort reason when aborted.
 */
export async function runTraceStudy(options: TraceStudyOptions): Promise<TraceStudyResult> {
  validate(options);
  const { statements, tracers = [], upperBound = true, bruteForce, rankers = [], abortSignal } = options;
  abortSignal?.throwIfAborted();
  const methods: TraceMethodRun[] = [];
  for (const { name, fastTrack } of tracers) {
    const perStatement = await runTracer(options, name, fastTrack);
    methods.push({ method: name, kind: 'fasttrack', perStatement, ...withScores(statements, perStatement) });
    if (upperBound) {
      const upper = upperBoundRuns(statements, perStatement);
      methods.push({ method: `Ours* (stage-1 upper bound of ${name})`, kind: 'upper-bound', perStatement: upper, ...withScores(statements, upper) });
    }
  }
  if (bruteForce) {
    const name = bruteForce.name ?? `brute force (${bruteForce.judge.id}, every document)`;
    const perStatement = await runBruteForce(options, name, bruteForce.judge, bruteForce.documents);
    methods.push({ method: name, kind: 'brute-force', perStatement, ...withScores(statements, perStatement) });
  }
  for (const ranker of rankers) methods.push(await runRanker(options, ranker));
  const statementsWithGold = statements.filter(hasGold).length;
  const incomplete = methods.flatMap((method) => {
    const left = method.perStatement.filter((run) => run.incomplete).length;
    return left > 0 ? [`${method.method}: ${left} of ${statements.length} statements incomplete (judge undecided or call failed), left out of its scores`] : [];
  });
  return { methods, statementsWithGold, incomplete };
}
