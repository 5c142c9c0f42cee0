import { itemFailed, itemOk, type GenerationProvenance, type ItemOutcome, type Usage, type ItemProblem } from '@factkit/core';
import type { FastTrackProblemCode } from '../problem-codes.js';

export interface SupportCandidate {
  readonly documentId: string;
  readonly text: string;
}

export interface SupportJudgeRequest {
  /** The statement being traced. */
  readonly query: string;
  readonly candidates: readonly SupportCandidate[];
  readonly abortSignal?: AbortSignal;
}

/**
 * Verdict on one candidate, as an `ItemOutcome<boolean>`: `ok` with `value` true when the candidate supports the
 * statement, false when it does not; `failed` when it could not be judged (failed call, unreadable score), with why.
 */
export type SupportJudgement = { readonly documentId: string } & ItemOutcome<boolean, FastTrackProblemCode>;

/** Builds a judgement: `supports` undefined means the candidate could not be judged (`problems` then say why). */
export function supportJudgement(documentId: string, supports: boolean | undefined, problems: readonly ItemProblem<FastTrackProblemCode>[]): SupportJudgement {
  if (supports !== undefined) return { documentId, ...itemOk(supports, problems) };
  return { documentId, ...itemFailed(problems.length > 0 ? problems : [{ code: 'unjudged', message: 'the judge gave no verdict' }]) };
}

/** True when the judgement is `ok` and the candidate supports the statement. */
export function isSupporting(judgement: SupportJudgement): boolean {
  return judgement.status === 'ok' && judgement.value;
}

/** One model call of the judge (a batch of up to b candidates, or a single re-asked candidate). */
export interface JudgeCall {
  readonly documentIds: readonly string[];
  readonly status: 'ok' | 'failed';
  /** The `#analysis:` section (LLM judge). */
  readonly analysis: string;
  readonly raw: string;
  readonly problems: readonly ItemProblem<FastTrackProblemCode>[];
  readonly provenance?: GenerationProvenance;
  /** True for a single-candidate call made because its batch reply was malformed. */
  readonly reasked: boolean;
}

export interface SupportJudgeResult {
  /** One per candidate, in candidate order. */
  readonly judgements: SupportJudgement[];
  readonly calls: JudgeCall[];
  readonly usage: Usage;
}

/** Decides which candidates support a statement (paper stage 2). */
export interface SupportJudge {
  readonly id: string;
  /** Candidates per call (the paper's b). */
  readonly batchSize: number;
  judge(request: SupportJudgeRequest): Promise<SupportJudgeResult>;
}
