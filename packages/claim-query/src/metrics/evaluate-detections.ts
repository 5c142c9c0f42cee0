import type { ItemProblem } from '@factkit/core';
import type { DetectionResult } from '../detect/detect-hallucinations.js';
import type { HallucinationMetrics, ScoredSegment } from './hallucination-metrics.js';
import { computeHallucinationMetrics } from './hallucination-metrics.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface DetectionGold {
  /** True when the response contains a hallucination. */
  readonly response: boolean;
  /** Per-sentence gold, in the order `segmentSentences(answer)` gives (omit for response-level datasets like HalluQA). */
  readonly sentences?: readonly boolean[];
}

export interface DetectionEvaluation {
  readonly response: HallucinationMetrics;
  readonly sentence?: HallucinationMetrics;
  /** Responses labelled 'abstained' (the answer itself abstains or refuses): counted apart, left out of every rate (FActScore). */
  readonly nAbstained: number;
  /** Items without gold, or whose sentence count differs from the gold's. */
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

/**
 * Scores detection results against gold labels at response and sentence level (Appendix C). Results with status
 * other than 'ok' and undecidable sentences are counted as failed and left out of every rate; abstained responses
 * are counted apart (`nAbstained`) and left out too.
 */
export function evaluateDetections(results: readonly DetectionResult[], gold: ReadonlyMap<string, DetectionGold>): DetectionEvaluation {
  const problems: ItemProblem<ClaimQueryProblemCode>[] = [];
  const responses: ScoredSegment[] = [];
  const sentences: ScoredSegment[] = [];
  let anySentenceGold = false;
  let nAbstained = 0;
  for (const result of results) {
    const truth = gold.get(result.id);
    if (!truth) {
      problems.push({ id: result.id, code: 'no-gold', message: 'no gold label for this item' });
      continue;
    }
    if (result.responseLabel === 'abstained') {
      nAbstained += 1;
      if (truth.sentences) anySentenceGold = true;
      continue;
    }
    responses.push({ gold: truth.response, ...(result.status === 'ok' && result.responseLabel ? { predicted: result.responseLabel } : {}) });
    if (!truth.sentences) continue;
    anySentenceGold = true;
    if (result.failedStage === 'generation') {
      for (const g of truth.sentences) sentences.push({ gold: g });
      continue;
    }
    if (result.sentences.length !== truth.sentences.length) {
      problems.push({ id: result.id, code: 'sentence-count-mismatch', message: `${result.sentences.length} sentences segmented, ${truth.sentences.length} in gold` });
      for (const g of truth.sentences) sentences.push({ gold: g });
      continue;
    }
    truth.sentences.forEach((g, index) => {
      const sentence = result.sentences[index]!;
      sentences.push({ gold: g, ...(sentence.incomplete ? {} : { predicted: sentence.label }) });
    });
  }
  return {
    response: computeHallucinationMetrics(responses),
    ...(anySentenceGold ? { sentence: computeHallucinationMetrics(sentences) } : {}),
    nAbstained,
    problems,
  };
}
