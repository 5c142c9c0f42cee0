import type { Claim, ItemProblem, LanguageModel, NliLabel, NliModel, PromptTemplate, QueryExpander, Retriever } from '@factkit/core';
import type { NliMatchProblemCode } from '../problem-codes.js';
import { assertPositiveInteger, createPromptTemplate, InvalidArgumentError } from '@factkit/core';
import { resolveMatchOptions } from '../match/match-generation-to-evidence.js';
import type { EvidenceScorer, LeakageDataset, LeakageStudyOptions } from './leakage-study-types.js';
import { VERDICT_PROMPT } from './verdict-prompt.js';

export const WHERE = 'runLeakageStudy';

const DEFAULT_VERDICT_LABEL_MAP: Readonly<Record<NliLabel, string>> = { entailment: 'SUPPORTS', contradiction: 'REFUTES', neutral: 'NOT ENOUGH INFO' };

/** The study's options after validation, with every default filled in (stage 1 of {@link runLeakageStudy}). */
export interface ResolvedLeakageStudy {
  readonly dataset: LeakageDataset;
  readonly retriever: Retriever | undefined;
  readonly evidenceScorer: EvidenceScorer | undefined;
  readonly expander: QueryExpander;
  readonly nli: NliModel;
  readonly repeats: number;
  /** Cutoffs in ascending order; `maxK` is the last. */
  readonly ks: readonly number[];
  readonly maxK: number;
  readonly runBaseline: boolean;
  readonly verdictModel: LanguageModel | undefined;
  readonly verdictNli: NliModel | undefined;
  readonly verdictLabelMap: Readonly<Record<NliLabel, string>>;
  readonly verdictLabels: readonly string[];
  /** True when verdicts are predicted (a retriever, a verdict model or NLI, and labels). */
  readonly useVerdicts: boolean;
  readonly verdictTemplate: PromptTemplate<'labels' | 'claim' | 'evidence'> | undefined;
  readonly goldLabels: Readonly<Record<string, string>>;
  readonly concurrency: number;
  readonly onProgress: LeakageStudyOptions['onProgress'];
  readonly abortSignal: AbortSignal | undefined;
  readonly matchOptions: ReturnType<typeof resolveMatchOptions>;
  /** Metric names in report order: `<evidence metric>@k` per k, then `f1@k` with verdicts. */
  readonly metricNames: readonly string[];
}

const invalid = (argument: string, message: string) => new InvalidArgumentError({ where: WHERE, argument, message });

function validateComponents(options: LeakageStudyOptions): void {
  const { dataset, retriever, evidenceScorer, expander } = options;
  if (!dataset || !Array.isArray(dataset.claims)) throw invalid('dataset.claims', 'must be an array of claims');
  if (typeof dataset.evidence !== 'object' || dataset.evidence === null) throw invalid('dataset.evidence', 'must map claim ids to gold evidence texts');
  if (typeof dataset.qrels !== 'object' || dataset.qrels === null) throw invalid('dataset.qrels', 'must map claim ids to judged documents');
  if (retriever !== undefined && (retriever === null || typeof retriever.retrieve !== 'function')) throw invalid('retriever', 'must be a Retriever (or left out for matching only)');
  if (evidenceScorer !== undefined && (typeof evidenceScorer?.score !== 'function' || !Array.isArray(evidenceScorer.names) || evidenceScorer.names.length === 0)) {
    throw invalid('evidenceScorer', 'must have non-empty names and a score() function');
  }
  if (!expander || typeof expander.expand !== 'function') throw invalid('expander', 'must be a QueryExpander');
}

function validateVerdictModels(options: LeakageStudyOptions): void {
  const { verdictModel, verdictNli } = options;
  if (verdictModel !== undefined && typeof verdictModel.generate !== 'function') throw invalid('verdictModel', 'must be a LanguageModel');
  if (verdictNli !== undefined && typeof verdictNli.classify !== 'function') throw invalid('verdictNli', 'must be an NliModel');
  if (verdictModel !== undefined && verdictNli !== undefined) throw invalid('verdictNli', 'cannot be combined with verdictModel; give one of them');
}

function validateCounts(repeats: number, ks: readonly number[], concurrency: number): void {
  assertPositiveInteger('repeats', repeats, WHERE);
  if (!Array.isArray(ks) || ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1) || new Set(ks).size !== ks.length) {
    throw invalid('ks', `must be distinct positive integers (got ${JSON.stringify(ks)})`);
  }
  assertPositiveInteger('concurrency', concurrency, WHERE);
}

/**
 * Stage 1 of the study: validates the options and fills in the defaults.
 * @throws InvalidArgumentError naming the first invalid option; the abort reason when already aborted.
 */
export function resolveLeakageStudy(options: LeakageStudyOptions): ResolvedLeakageStudy {
  const { repeats = 8, ks = [5, 10], concurrency = 4 } = options ?? ({} as LeakageStudyOptions);
  validateComponents(options ?? ({} as LeakageStudyOptions));
  validateCounts(repeats, ks, concurrency);
  validateVerdictModels(options);
  const { dataset, retriever, evidenceScorer, verdictModel, verdictNli, abortSignal } = options;
  const matchOptions = resolveMatchOptions(
    {
      nli: options.nli,
      ...(options.aggregation === undefined ? {} : { aggregation: options.aggregation }),
      ...(options.reproductionThreshold === undefined ? {} : { reproductionThreshold: options.reproductionThreshold }),
      ...(dataset.language === undefined ? {} : { language: dataset.language }),
      ...(abortSignal ? { abortSignal } : {}),
    },
    WHERE,
  );
  const sortedKs = [...ks].sort((a, b) => a - b);
  const goldLabels = dataset.labels ?? {};
  const verdictLabels = options.verdictLabels ?? [...new Set(Object.values(goldLabels))].sort();
  const wantsVerdicts = verdictModel !== undefined || verdictNli !== undefined;
  if (wantsVerdicts && verdictLabels.length === 0) throw invalid('verdictLabels', 'must be given (or dataset.labels must hold gold labels) when verdictModel or verdictNli is set');
  const useVerdicts = retriever !== undefined && wantsVerdicts && verdictLabels.length > 0;
  const verdictTemplate = useVerdicts && verdictModel ? createPromptTemplate<'labels' | 'claim' | 'evidence'>(options.verdictPrompt ?? VERDICT_PROMPT) : undefined;
  for (const name of ['claim', 'evidence'] as const) {
    if (verdictTemplate && !verdictTemplate.variables.includes(name)) throw invalid('verdictPrompt', `must contain the {{${name}}} placeholder`);
  }
  abortSignal?.throwIfAborted();
  const evidenceMetricNames = evidenceScorer ? evidenceScorer.names : ['recall', 'ndcg'];
  const metricNames = retriever ? [...sortedKs.flatMap((k) => evidenceMetricNames.map((name) => `${name}@${k}`)), ...(useVerdicts ? sortedKs.map((k) => `f1@${k}`) : [])] : [];
  return {
    dataset,
    retriever,
    evidenceScorer,
    expander: options.expander,
    nli: options.nli,
    repeats,
    ks: sortedKs,
    maxK: sortedKs[sortedKs.length - 1] as number,
    runBaseline: options.baseline ?? true,
    verdictModel,
    verdictNli,
    verdictLabelMap: options.verdictLabelMap ?? DEFAULT_VERDICT_LABEL_MAP,
    verdictLabels,
    useVerdicts,
    verdictTemplate,
    goldLabels,
    concurrency,
    onProgress: options.onProgress,
    abortSignal,
    matchOptions,
    metricNames,
  };
}

/** Claims the study runs (valid, first copy of each id) and the dataset's per-claim problems (stage 1, data part). */
export function checkLeakageClaims(study: ResolvedLeakageStudy): { claims: Claim[]; problems: ItemProblem<NliMatchProblemCode>[] } {
  const { dataset, retriever, evidenceScorer, useVerdicts, goldLabels, verdictLabels } = study;
  const problems: ItemProblem<NliMatchProblemCode>[] = [];
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
  return { claims, problems };
}
