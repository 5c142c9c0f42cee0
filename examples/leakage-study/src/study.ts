import type { LanguageModel, NliModel, Progress, QueryExpander, Retriever } from '@factkit/core';
import { runLeakageStudy, type EvidenceScorer, type LeakageDataset } from '@factkit/nli-match';
import type { StudyDataset } from './datasets.js';
import type { MethodResult } from './report-markdown.js';

/** One row group of the report: an expander searched with a retriever, compared with that retriever on the bare claim. */
export interface StudyMethod {
  /** e.g. 'BM25+RM3', 'Query2doc', 'HyDE'. */
  readonly name: string;
  /** e.g. 'BM25', 'Dense (use-lite)'. */
  readonly baselineName: string;
  /** Absent when there is no knowledge store to search (matching only). */
  readonly retriever: Retriever | undefined;
  readonly expander: QueryExpander;
  /** Generations per claim; 1 for deterministic (LLM-free) expanders. */
  readonly repeats: number;
}

export interface RunStudiesOptions {
  readonly dataset: StudyDataset;
  readonly methods: readonly StudyMethod[];
  readonly nli: NliModel;
  /** @default [5, 10] */
  readonly ks?: readonly number[];
  /** @default 4 */
  readonly concurrency?: number;
  /** Verdict model (paper: GPT-4o-mini, prompt Figure A2); adds macro-F1@k over 'supported' / 'refuted'. @default undefined */
  readonly verdictModel?: LanguageModel;
  /** Labels offered to the verdict model (see verdictLabelsFor). */
  readonly verdictLabels?: readonly string[];
  /** Scores retrieved texts against gold evidence texts (AVeriTeC) instead of Recall/NDCG over qrels. */
  readonly evidenceScorer?: EvidenceScorer;
  readonly onProgress?: (method: string, progress: Progress) => void;
  readonly abortSignal?: AbortSignal;
}

/** Converts the example's dataset into nli-match's LeakageDataset. */
export function toLeakageDataset(dataset: StudyDataset): LeakageDataset {
  return {
    name: dataset.name,
    claims: dataset.claims.map((claim) => ({ id: claim.id, text: claim.text })),
    evidence: Object.fromEntries(dataset.claims.map((claim) => [claim.id, claim.evidence])),
    qrels: Object.fromEntries(dataset.claims.map((claim) => [claim.id, claim.relevant])),
    corpus: dataset.corpus,
    labels: Object.fromEntries(dataset.claims.flatMap((claim) => (claim.label ? [[claim.id, claim.label]] : []))),
    language: 'en',
  };
}

/** Runs nli-match's leakage study once per method, one after the other (each resumes from the LLM call cache). */
export async function runStudies(options: RunStudiesOptions): Promise<MethodResult[]> {
  const { dataset, methods, nli, ks = [5, 10], concurrency = 4, verdictModel, verdictLabels, evidenceScorer, onProgress, abortSignal } = options;
  const leakageDataset = toLeakageDataset(dataset);
  const results: MethodResult[] = [];
  for (const method of methods) {
    abortSignal?.throwIfAborted();
    const result = await runLeakageStudy({
      dataset: leakageDataset,
      ...(method.retriever ? { retriever: method.retriever } : {}),
      ...(evidenceScorer ? { evidenceScorer } : {}),
      // RM3 generates no text (its terms travel in `weightedTerms`), so nothing is NLI-matched for it.
      expander: method.expander,
      nli,
      repeats: method.repeats,
      ks,
      concurrency,
      ...(verdictModel ? { verdictModel, ...(verdictLabels ? { verdictLabels } : {}) } : {}),
      ...(onProgress ? { onProgress: (progress: Progress) => onProgress(method.name, progress) } : {}),
      ...(abortSignal ? { abortSignal } : {}),
    });
    results.push({ method: method.name, baselineName: method.baselineName, result, matching: method.expander.usesLanguageModel });
  }
  return results;
}
