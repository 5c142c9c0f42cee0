import type { GenerationProvenance, ItemProblem, Usage } from '@factkit/core';

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

/** Verdict on one candidate: `supports` is null when it could not be judged (failed call, unreadable score). */
export interface SupportJudgement {
  readonly documentId: string;
  readonly supports: boolean | null;
  readonly problems: readonly ItemProblem[];
}

/** One model call of the judge (a batch of up to b candidates, or a single re-asked candidate). */
export interface JudgeCall {
  readonly documentIds: readonly string[];
  readonly status: 'ok' | 'failed';
  /** The `#analysis:` section (LLM judge). */
  readonly analysis: string;
  readonly raw: string;
  readonly problems: readonly ItemProblem[];
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
