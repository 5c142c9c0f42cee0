import { assertPositiveInteger, EMPTY_USAGE, InvalidArgumentError, type NliModel, throwIfAborted } from '@factkit/core';
import { supportJudgement, type JudgeCall, type SupportJudge, type SupportJudgement, type SupportJudgeRequest, type SupportJudgeResult } from './support-judge.js';

export interface NliSupportJudgeOptions {
  /** Any core NliModel (an offline model, or an LLM NLI judge). */
  readonly model: NliModel;
  /** Pairs per `classify` call. @default model.maxBatchSize ?? 32 */
  readonly batchSize?: number;
}

/**
 * LLM-free support judge: a candidate supports the statement when the NLI model labels (premise = candidate,
 * hypothesis = statement) as entailment. A pair the model could not label is `supports: null` with its problem.
 * @throws InvalidArgumentError for a bad `batchSize`.
 */
export function createNliSupportJudge(options: NliSupportJudgeOptions): SupportJudge {
  const { model } = options;
  const batchSize = options.batchSize ?? model.maxBatchSize ?? 32;
  assertPositiveInteger('batchSize', batchSize, 'createNliSupportJudge');
  return {
    id: `nli-judge(${model.id})`,
    batchSize,
    async judge(request: SupportJudgeRequest): Promise<SupportJudgeResult> {
      const { query, candidates, abortSignal } = request;
      const judgements: SupportJudgement[] = [];
      const calls: JudgeCall[] = [];
      for (let start = 0; start < candidates.length; start += batchSize) {
        throwIfAborted(abortSignal);
        const batch = candidates.slice(start, start + batchSize);
        const { results } = await model.classify({ pairs: batch.map((candidate) => ({ premise: candidate.text, hypothesis: query })), ...(abortSignal ? { abortSignal } : {}) });
        if (results.length !== batch.length) throw new InvalidArgumentError({ where: 'NliSupportJudge.judge', argument: 'model', message: `returned ${results.length} predictions for ${batch.length} pairs` });
        batch.forEach((candidate, position) => {
          const prediction = results[position];
          const label = prediction?.label ?? null;
          judgements.push(
            label === null ? supportJudgement(candidate.documentId, undefined, [{ code: 'no-label', message: prediction?.problem ?? 'the NLI model gave no label' }]) : supportJudgement(candidate.documentId, label === 'entailment', []),
          );
        });
        calls.push({ documentIds: batch.map((candidate) => candidate.documentId), status: 'ok', analysis: '', raw: '', problems: [], reasked: false });
      }
      return { judgements, calls, usage: EMPTY_USAGE };
    },
  };
}
