import type { DetectHallucinationsOptions, DetectionResult, QaItem } from '@factkit/claim-query';
import { detectHallucinations } from '@factkit/claim-query';
import { InvalidArgumentError } from '@factkit/core';
import { type Runnable, RunnableLambda } from '@langchain/core/runnables';

/** Everything {@link detectHallucinations} takes except the items and the per-call signal (LangChain's config carries it). */
export type CheckerRunnableOptions = Omit<DetectHallucinationsOptions, 'items' | 'abortSignal' | 'onProgress'> & {
  /** The run name LangChain callbacks and traces show. @default 'factkit-check' */
  readonly runName?: string;
};

/**
 * factkit's hallucination checker (JointCQ's retrieve-and-verify detector from `@factkit/claim-query`) as a LangChain
 * `Runnable<QaItem, DetectionResult>`: `invoke({ question, answer })` returns the claims, queries, evidence, verdicts
 * and response label of {@link detectHallucinations}; `batch()` checks many; `config.signal` aborts. A failed
 * generator or verifier call is a `status: 'failed'` result, never a label.
 * @throws InvalidArgumentError for a missing generator, retriever or verifier, when the runnable is made.
 * @example
 * const check = createCheckerRunnable({ generator: createDrafterGenerator(), retriever, verifier: createNliVerifier({ nli }) });
 * const result = await check.invoke({ question: 'Who wrote Hamlet?', answer: 'Hamlet was written by Marlowe.' });
 */
export function createCheckerRunnable(options: CheckerRunnableOptions): Runnable<QaItem, DetectionResult> {
  const where = 'createCheckerRunnable';
  if (!options || typeof options !== 'object') throw new InvalidArgumentError({ where, argument: 'options', message: 'must be an object with generator, retriever and verifier' });
  const { runName = 'factkit-check', ...detect } = options;
  // The checker validates these too, but only when called: a misconfigured chain should fail when it is built.
  if (typeof detect.generator?.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'generator', message: 'must be a ClaimQueryGenerator' });
  if (typeof detect.retriever?.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever' });
  if (typeof detect.verifier?.verify !== 'function') throw new InvalidArgumentError({ where, argument: 'verifier', message: 'must be a ClaimVerifier' });
  return RunnableLambda.from(async (item: QaItem, config): Promise<DetectionResult> => {
    if (typeof item !== 'object' || item === null) throw new InvalidArgumentError({ where, argument: 'input', message: 'must be a { question, answer } object' });
    const signal = config?.signal;
    const [result] = await detectHallucinations({ ...detect, items: [item], ...(signal ? { abortSignal: signal } : {}) });
    if (result === undefined) throw new InvalidArgumentError({ where, argument: 'input', message: 'gave no result' });
    return result;
  }).withConfig({ runName });
}
