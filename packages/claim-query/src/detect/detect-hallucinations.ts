import type { ClaimLabel, Embedder, Evidence, GenerationProvenance, ItemOutcome, ItemProblem, ProgressCallback, Retriever, RetrieverFactory, SearchQuery } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError, isRefusal, mapWithConcurrency, segmentSentences } from '@factkit/core';
import { alignClaimsToSentences } from '../align/align-claims-to-sentences.js';
import { labelFromClaims } from '../align/label-segments.js';
import { detectPromptLanguage } from '../prompts/language.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import type { CheckedClaim, CheckedSentence, ClaimVerdictRecord, SegmentLabel } from '../types.js';
import type { ClaimVerifier } from '../verify/create-nli-verifier.js';
import type { Abstention } from './detect-abstention.js';
import { detectAbstention } from './detect-abstention.js';
import type { ClaimQueryGenerator, GeneratedClaims, GeneratedPair, QaItem } from './generator.js';
import type { CheckMode } from './reference-passages.js';
import { createPassageRetriever, itemPassages, splitPassages, windowDocuments } from './reference-passages.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

export interface DetectHallucinationsOptions {
  readonly items: readonly QaItem[];
  readonly generator: ClaimQueryGenerator;
  /**
   * Searcher for items without a `reference`/`context`: any core Retriever (local BM25, the Serper web adapter, ...).
   * May be left out only when every item carries a reference or context.
   */
  readonly retriever?: Retriever;
  /**
   * Indexes an item's reference/context windows (e.g. `@factkit/retrieval`'s `createBm25RetrieverFactory()`); without
   * it, the windows are ranked by the share of the query's content words they contain (`createOverlapRetriever`).
   */
  readonly passageRetrieverFactory?: RetrieverFactory;
  /**
   * Sentences per window when a reference/context passage is split for verification (overlapping, stride 1). By default
   * every passage is verified whole: on SciFact's train claims against their cited abstracts (about nine sentences),
   * whole abstracts beat windows of 1–8 sentences in balanced accuracy with the feature NLI model (0.616 against
   * 0.525–0.577) and in hallucination F1 with both offline NLI models (examples/hallucination-check
   * `scifact-reference.ts`). Set it for long documents given as one string, or pass them as a list of passages.
   * @default undefined (whole passages)
   */
  readonly passageWindowSentences?: number;
  readonly verifier: ClaimVerifier;
  /** Embedder for claim → sentence alignment (paper: cosine ≥ 0.5). Without it, only generator-given sentence indexes are used. */
  readonly embedder?: Embedder;
  /** Snippets per query (Appendix B: 10). @default 10 */
  readonly topK?: number;
  /** @default 0.5 */
  readonly alignmentThreshold?: number;
  /** Items processed at once. @default 4 */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called as items finish (`failed` counts items whose detection failed). */
  readonly onProgress?: ProgressCallback;
}

/** Everything the detector did for one QA item: sentence → claim → query → evidence → verdict. JSON-serialisable. */
export interface DetectionResult {
  readonly id: string;
  readonly question: string;
  readonly answer: string;
  readonly language: PromptLanguage;
  /** Which of RefChecker's settings checked this item: the corpus (search), the row's `context` or its `reference`. */
  readonly mode: CheckMode;
  /** As a core `ItemOutcome`: 'ok' when the response label was decided, 'failed' otherwise (see `failedStage`). */
  readonly status: ItemOutcome<SegmentLabel>['status'];
  /**
   * Why the item failed: 'generation' (the generator call failed: no sentences or claims) or 'verification' (some
   * verifier calls failed and the label cannot be decided; the sentences and claims are kept). Absent when 'ok'.
   */
  readonly failedStage?: 'generation' | 'verification';
  /**
   * Response label (hallucinated if any claim is; unverifiable if no claim is verifiable; `abstained` when the answer
   * itself abstains or refuses, see `abstention`); undefined unless decidable.
   */
  readonly responseLabel?: ResponseLabel;
  /** Why the answer counts as an abstention (FActScore): its abstaining sentence. Present only when `responseLabel` is 'abstained'. */
  readonly abstention?: Abstention;
  /**
   * FActScore-style factual precision: supported claims / verifiable (supported + hallucinated) claims. `null` when no
   * claim is verifiable, the item abstained or failed: a rate over zero claims is absent, never 0.
   */
  readonly factualPrecision: number | null;
  /** Claims per verdict: supported (correct), hallucinated, unverifiable, failed (a verifier call that failed). */
  readonly claimCounts: ClaimCounts;
  readonly sentences: readonly CheckedSentence[];
  readonly claims: readonly CheckedClaim[];
  readonly noClaims: boolean;
  readonly generatorId: string;
  readonly retrieverId: string;
  readonly verifierId: string;
  readonly generation: { readonly raw?: readonly string[]; readonly provenance?: readonly GenerationProvenance[] };
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

/** A response label: a segment label, or `abstained` when the answer itself abstains ("I don't know") or refuses. */
export type ResponseLabel = SegmentLabel | 'abstained';

/** Claims of one response per verdict. */
export interface ClaimCounts {
  readonly supported: number;
  readonly hallucinated: number;
  readonly unverifiable: number;
  readonly failed: number;
}

/** Counts claims per verdict and the factual precision (supported / verifiable; null when nothing is verifiable). */
export function factualPrecisionOf(claims: readonly Pick<CheckedClaim, 'verdict'>[]): { factualPrecision: number | null; claimCounts: ClaimCounts } {
  const counts = { supported: 0, hallucinated: 0, unverifiable: 0, failed: 0 };
  for (const { verdict } of claims) {
    if (verdict.status === 'failed') counts.failed += 1;
    else if (verdict.label === 'correct') counts.supported += 1;
    else if (verdict.label === 'hallucinated') counts.hallucinated += 1;
    else counts.unverifiable += 1;
  }
  const verifiable = counts.supported + counts.hallucinated;
  return { factualPrecision: verifiable === 0 ? null : counts.supported / verifiable, claimCounts: counts };
}

const NO_CLAIM_COUNTS: ClaimCounts = Object.freeze({ supported: 0, hallucinated: 0, unverifiable: 0, failed: 0 });

/** The first raw model reply that reads as a refusal (core's `isRefusal`), if any. */
function refusalIn(raw: readonly string[] | undefined): string | undefined {
  return raw?.find((reply) => isRefusal(reply));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Label from claims where failed verdicts block a "not hallucinated"/"unverifiable" answer. */
function decide(verdicts: readonly ClaimVerdictRecord[]): SegmentLabel | undefined {
  const labels: (ClaimLabel | undefined)[] = verdicts.map((v) => (v.status === 'ok' ? v.label : undefined));
  const label = labelFromClaims(labels);
  if (label === 'hallucinated') return label;
  return verdicts.some((v) => v.status === 'failed') ? undefined : label;
}

/** One search per query: the retriever's top-k evidence as it returned it (each with its typed origin), or the failure. */
async function search(retriever: Retriever, query: SearchQuery, topK: number, abortSignal?: AbortSignal): Promise<{ evidence: Evidence[]; problems: ItemProblem<ClaimQueryProblemCode>[]; error?: string }> {
  try {
    const result = await retriever.retrieve({ query: { text: query.text }, topK, ...(abortSignal ? { abortSignal } : {}) });
    return { evidence: result.evidence.slice(0, topK), problems: [] };
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    return { evidence: [], problems: [{ code: 'search-failed', message: errorMessage(error) }], error: errorMessage(error) };
  }
}

/** Where one item's claims are searched: the corpus retriever, or a retriever over the item's own reference/context windows. */
interface ItemSearch {
  readonly mode: CheckMode;
  readonly retriever: Retriever;
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

async function itemSearch(item: QaItem, id: string, options: DetectHallucinationsOptions): Promise<ItemSearch> {
  const found = itemPassages(item);
  const problems: ItemProblem<ClaimQueryProblemCode>[] = [];
  if (!found) return { mode: 'corpus', retriever: options.retriever!, problems };
  if (found.mode === 'reference' && itemPassages({ context: item.context })) {
    problems.push({ code: 'context-ignored', message: 'the row has both a reference and a context: the claims are verified against the reference only' });
  }
  const windows = splitPassages(id, found.mode, found.passages, options.passageWindowSentences);
  try {
    const retriever = await createPassageRetriever(windowDocuments(windows, id, found.mode), options.passageRetrieverFactory, options.abortSignal);
    return { mode: found.mode, retriever, problems };
  } catch (error) {
    if (options.abortSignal?.aborted) throw options.abortSignal.reason;
    // Indexing the passages failed: every search of this item fails with the reason (its claims are failed, not labelled).
    const message = `indexing the ${found.mode} failed: ${errorMessage(error)}`;
    return { mode: found.mode, retriever: { id: options.passageRetrieverFactory?.id ?? 'passages', retrieve: async () => Promise.reject(new Error(message)) }, problems };
  }
}

/** The result of an answer that abstains: no generation, no search, label 'abstained' (FActScore), counted apart. */
function abstainedResult(item: QaItem, index: number, abstention: Abstention, options: DetectHallucinationsOptions): DetectionResult {
  const question = typeof item.question === 'string' ? item.question : '';
  const answer = typeof item.answer === 'string' ? item.answer : '';
  return {
    id: item.id ?? String(index),
    question,
    answer,
    language: item.language ?? detectPromptLanguage(`${question}${answer}`),
    mode: itemPassages(item)?.mode ?? 'corpus',
    status: 'ok',
    responseLabel: 'abstained',
    abstention,
    factualPrecision: null,
    claimCounts: NO_CLAIM_COUNTS,
    sentences: [],
    claims: [],
    noClaims: true,
    generatorId: options.generator.id,
    retrieverId: options.retriever?.id ?? 'none',
    verifierId: options.verifier.id,
    generation: {},
    problems: [],
  };
}

/** What one item's claims found: per claim, the query searched (undefined: none) and the search's outcome. */
interface ClaimSearches {
  readonly queries: readonly (SearchQuery | undefined)[];
  readonly searched: readonly (SearchOutcome | undefined)[];
}

type SearchOutcome = Awaited<ReturnType<typeof search>>;

/**
 * Step 1, search: one call per query (the paper's "1 search per judgement"). Against a reference or context, a claim
 * without a query is searched with its own text: the passages are on topic.
 */
async function searchClaims(pairs: readonly GeneratedPair[], searcher: ItemSearch, options: DetectHallucinationsOptions): Promise<ClaimSearches> {
  const { topK = 10, abortSignal } = options;
  const queries = pairs.map(({ claim, query }) => query ?? (searcher.mode === 'corpus' ? undefined : { text: claim.text, claimId: claim.id }));
  const searched = await mapWithConcurrency(queries, async (query) => (query ? search(searcher.retriever, query, topK, abortSignal) : undefined), { concurrency: 4, ...(abortSignal ? { abortSignal } : {}) });
  return { queries, searched };
}

/**
 * Step 2, verification: the claims with evidence go to the verifier in one call; the others are unverifiable with
 * their reason, or failed when their search failed (never a label). A verifier that refused or failed gives no label.
 */
async function verifyClaims(pairs: readonly GeneratedPair[], found: ClaimSearches, mode: CheckMode, language: PromptLanguage, options: DetectHallucinationsOptions): Promise<(ClaimVerdictRecord | undefined)[]> {
  const { verifier, abortSignal } = options;
  const toVerify: number[] = [];
  const verdicts: (ClaimVerdictRecord | undefined)[] = pairs.map((_pair, k) => {
    const searched = found.searched[k];
    if (!found.queries[k]) return { status: 'ok', label: 'unverifiable', reason: 'no query', raw: [], verifier: verifier.id, problems: [] };
    // A failed search is a failure, never a label: the claim is failed (left out of every rate), with the reason.
    if (searched?.error) return { status: 'failed', reason: `search failed: ${searched.error}`, raw: [], verifier: verifier.id, problems: searched.problems };
    if (!searched || searched.evidence.length === 0) {
      return { status: 'ok', label: 'unverifiable', reason: mode === 'corpus' ? 'no evidence found' : `no ${mode} passage shares a content word with the claim`, raw: [], verifier: verifier.id, problems: [] };
    }
    toVerify.push(k);
    return undefined;
  });
  if (toVerify.length === 0) return verdicts;
  try {
    const outcomes = await verifier.verify({
      items: toVerify.map((k) => ({ claim: pairs[k]!.claim, query: found.queries[k]!, evidence: found.searched[k]!.evidence, language })),
      ...(abortSignal ? { abortSignal } : {}),
    });
    toVerify.forEach((k, position) => {
      const verdict = outcomes[position] ?? { status: 'failed', raw: [], verifier: verifier.id, problems: [{ code: 'call-failed', message: 'verifier returned no verdict' }] };
      // A verifier (LLM judge) that refused gave no verdict: the claim's verification failed, with the reason.
      const refused = verdict.status === 'ok' ? refusalIn(verdict.raw) : undefined;
      verdicts[k] =
        refused === undefined ? verdict : { ...verdict, status: 'failed', label: undefined, problems: [...verdict.problems, { code: 'refusal', message: `the verifier refused: ${refused.slice(0, 200)}`, raw: refused.slice(0, 500) }] };
    });
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    for (const k of toVerify) verdicts[k] = { status: 'failed', raw: [], verifier: verifier.id, problems: [{ code: 'call-failed', message: errorMessage(error) }] };
  }
  return verdicts;
}

/** Where claim k sits in the answer: its sentence (when aligned) and the cosine similarity (when embedded). */
type Alignment = { readonly sentenceIndex?: number; readonly similarity?: number };

/**
 * Step 3, alignment: the generator-given sentence index, else the embedding argmax ≥ threshold. Without an embedder,
 * or when it fails, the claims without an index stay unaligned and the item gets a problem.
 */
async function alignPairs(pairs: readonly GeneratedPair[], spans: readonly { readonly text: string }[], options: DetectHallucinationsOptions, problems: ItemProblem<ClaimQueryProblemCode>[]): Promise<Map<number, Alignment>> {
  const { embedder, alignmentThreshold = 0.5, abortSignal } = options;
  const alignments = new Map<number, Alignment>();
  const needEmbedding = pairs.map((pair, k) => (pair.sentenceIndex === undefined ? k : -1)).filter((k) => k >= 0);
  pairs.forEach((pair, k) => {
    if (pair.sentenceIndex !== undefined) alignments.set(k, { sentenceIndex: pair.sentenceIndex });
  });
  if (needEmbedding.length === 0 || spans.length === 0) return alignments;
  if (!embedder) {
    problems.push({ code: 'no-alignment', message: 'no embedder given: claims without a sentence index are not aligned to sentences' });
    return alignments;
  }
  try {
    const aligned = await alignClaimsToSentences({
      sentences: spans.map((s) => s.text),
      claims: needEmbedding.map((k) => pairs[k]!.claim.text),
      embedder,
      threshold: alignmentThreshold,
      ...(abortSignal ? { abortSignal } : {}),
    });
    aligned.forEach((alignment, position) => {
      alignments.set(needEmbedding[position]!, {
        ...(alignment.sentenceIndex === undefined ? {} : { sentenceIndex: alignment.sentenceIndex }),
        similarity: alignment.similarity,
      });
    });
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    problems.push({ code: 'alignment-failed', message: errorMessage(error) });
  }
  return alignments;
}

/** Step 4, the chain per claim: the claim (with its aligned sentence as `source`), the query searched, evidence, verdict. */
function checkedClaims(pairs: readonly GeneratedPair[], found: ClaimSearches, verdicts: readonly (ClaimVerdictRecord | undefined)[], alignments: ReadonlyMap<number, Alignment>, spans: readonly { readonly text: string }[]): CheckedClaim[] {
  return pairs.map((pair, k) => {
    const alignment = alignments.get(k);
    const sentence = alignment?.sentenceIndex === undefined ? undefined : spans[alignment.sentenceIndex]?.text;
    const query = found.queries[k];
    return {
      claim: { ...pair.claim, ...(sentence === undefined ? {} : { source: sentence }) },
      ...(query ? { query } : {}),
      evidence: found.searched[k]?.evidence ?? [],
      verdict: verdicts[k]!,
      ...(alignment?.sentenceIndex === undefined ? {} : { sentenceIndex: alignment.sentenceIndex }),
      ...(alignment?.similarity === undefined || Number.isNaN(alignment.similarity) ? {} : { similarity: alignment.similarity }),
      problems: [...(pair.problems ?? [])],
    };
  });
}

/** Step 5, sentence labels from their aligned claims; a sentence whose label a failed verdict leaves open is marked incomplete. */
function labelSentences(spans: readonly { readonly text: string; readonly start: number; readonly end: number }[], claims: readonly CheckedClaim[]): CheckedSentence[] {
  return spans.map((span, sentenceIndex) => {
    const aligned = claims.filter((claim) => claim.sentenceIndex === sentenceIndex);
    const label = aligned.length === 0 ? 'unverifiable' : decide(aligned.map((claim) => claim.verdict));
    return {
      index: sentenceIndex,
      text: span.text,
      start: span.start,
      end: span.end,
      ...(label ? { label } : { label: 'unverifiable' as const, incomplete: true }),
      claimIds: aligned.map((checked) => checked.claim.id),
    };
  });
}

/** One item after generation: a failed or refusing generator fails it; otherwise search → verify → align → label. */
async function checkItem(item: QaItem, index: number, generated: GeneratedClaims, options: DetectHallucinationsOptions, searcher: ItemSearch): Promise<DetectionResult> {
  const question = typeof item.question === 'string' ? item.question : '';
  const answer = typeof item.answer === 'string' ? item.answer : '';
  const language = item.language ?? detectPromptLanguage(`${question}${answer}`);
  const spans = segmentSentences(answer);
  const base = {
    id: item.id ?? String(index),
    question,
    answer,
    language,
    mode: searcher.mode,
    noClaims: generated.noClaims,
    generatorId: options.generator.id,
    retrieverId: searcher.retriever.id,
    verifierId: options.verifier.id,
    generation: { ...(generated.raw ? { raw: generated.raw } : {}), ...(generated.provenance ? { provenance: generated.provenance } : {}) },
    factualPrecision: null,
    claimCounts: NO_CLAIM_COUNTS,
  };
  const problems: ItemProblem<ClaimQueryProblemCode>[] = [...searcher.problems, ...generated.problems];
  if (answer.trim().length === 0) problems.push({ code: 'empty-answer', message: 'the answer is empty' });
  if (generated.status === 'failed') {
    return { ...base, status: 'failed', failedStage: 'generation', sentences: [], claims: [], problems };
  }
  // A refusal from the claim generator is a failure of that step, never a claim (nor "no claims").
  const refusal = refusalIn(generated.raw);
  if (refusal !== undefined) {
    problems.push({ code: 'refusal', message: `the claim generator refused: ${refusal.slice(0, 200)}`, raw: refusal.slice(0, 500) });
    return { ...base, status: 'failed', failedStage: 'generation', noClaims: false, sentences: [], claims: [], problems };
  }

  // The chain's core types, as the generator made them: claim k is `<id>:c<k>`, its query points back to it.
  const found = await searchClaims(generated.pairs, searcher, options);
  const verdicts = await verifyClaims(generated.pairs, found, searcher.mode, language, options);
  const alignments = await alignPairs(generated.pairs, spans, options, problems);
  const claims = checkedClaims(generated.pairs, found, verdicts, alignments, spans);
  const sentences = labelSentences(spans, claims);
  const responseLabel = decide(claims.map((claim) => claim.verdict));
  const failedVerdicts = claims.filter((claim) => claim.verdict.status === 'failed').length;
  if (failedVerdicts > 0) problems.push({ code: 'verifier-failed', message: `${failedVerdicts} of ${claims.length} claim(s) could not be checked (a failed search or verifier call)` });
  const precision = factualPrecisionOf(claims);
  return {
    ...base,
    claimCounts: precision.claimCounts,
    factualPrecision: responseLabel === undefined ? null : precision.factualPrecision,
    ...(responseLabel === undefined ? { status: 'failed' as const, failedStage: 'verification' as const } : { status: 'ok' as const, responseLabel }),
    sentences,
    claims,
    problems,
  };
}

/**
 * The JointCQ detection pipeline (§2.2, Appendix B): claims and queries → search (top-10 evidence per query) →
 * verification → alignment to response sentences (cosine ≥ 0.5) → sentence and response labels. Per-item problems,
 * never a crash on one bad item: a failed generator call makes the item 'failed', a failed search makes its claim
 * unverifiable with the reason, a failed verifier call never becomes a label. A refusal from the generator or the
 * verifier (core's `isRefusal` on the raw reply) is a failure of that step with the reason `refusal`, never a claim or a
 * label. An answer that itself abstains or refuses (a rule-based check of its sentences) is labelled 'abstained' without calling
 * the generator. RefChecker's three settings per item: an item with `reference` (or `context`) is verified against
 * its own passages (whole, or split into windows of `passageWindowSentences` sentences), ranked through
 * `passageRetrieverFactory` (or the overlap scorer); only items without one search `retriever`. Each result carries
 * its `mode`, its FActScore-style `factualPrecision` and its `claimCounts`.
 * @throws InvalidArgumentError for missing components or bad options; rethrows an abort.
 */
export async function detectHallucinations(options: DetectHallucinationsOptions): Promise<DetectionResult[]> {
  const { items, generator, retriever, verifier, topK = 10, concurrency = 4, abortSignal, onProgress } = options;
  const where = 'detectHallucinations';
  if (!Array.isArray(items)) throw new InvalidArgumentError({ where, argument: 'items', message: 'must be an array of { question, answer }' });
  if (!generator || typeof generator.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'generator', message: 'must be a ClaimQueryGenerator' });
  if (retriever !== undefined && (!retriever || typeof retriever.retrieve !== 'function')) throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever' });
  if (retriever === undefined && items.some((item) => !itemPassages(item ?? {}))) {
    throw new InvalidArgumentError({ where, argument: 'retriever', message: 'is needed for items without a reference or context' });
  }
  if (options.passageRetrieverFactory !== undefined && typeof options.passageRetrieverFactory?.createRetriever !== 'function') {
    throw new InvalidArgumentError({ where, argument: 'passageRetrieverFactory', message: 'must be a RetrieverFactory' });
  }
  if (options.passageWindowSentences !== undefined) assertPositiveInteger('passageWindowSentences', options.passageWindowSentences, where);
  if (!verifier || typeof verifier.verify !== 'function') throw new InvalidArgumentError({ where, argument: 'verifier', message: 'must be a ClaimVerifier' });
  assertPositiveInteger('topK', topK, where);
  assertPositiveInteger('concurrency', concurrency, where);

  let done = 0;
  let failed = 0;
  return mapWithConcurrency(
    items,
    async (item, index) => {
      abortSignal?.throwIfAborted();
      // An answer that abstains or refuses makes no claim: the generator is not called, nothing is searched.
      const abstention = detectAbstention(typeof item?.answer === 'string' ? item.answer : '');
      if (abstention) {
        done += 1;
        onProgress?.({ completed: done, total: items.length, failed });
        return abstainedResult(item, index, abstention, options);
      }
      const id = item?.id ?? String(index);
      const searcher = await itemSearch(item, id, options);
      let generated: GeneratedClaims;
      try {
        // The generator keys the item's claims `<id>:c<k>`: the item goes with its id (its position when it has none).
        generated = (await generator.generate({ items: [{ ...item, id }], ...(abortSignal ? { abortSignal } : {}) }))[0] ?? {
          status: 'failed',
          pairs: [],
          noClaims: false,
          problems: [{ code: 'call-failed', message: 'generator returned no result' }],
        };
      } catch (error) {
        if (abortSignal?.aborted) throw abortSignal.reason;
        generated = { status: 'failed', pairs: [], noClaims: false, problems: [{ code: 'call-failed', message: errorMessage(error) }] };
      }
      const result = await checkItem(item, index, generated, options, searcher);
      done += 1;
      if (result.status !== 'ok') failed += 1;
      onProgress?.({ completed: done, total: items.length, failed });
      return result;
    },
    { concurrency, ...(abortSignal ? { abortSignal } : {}) },
  );
}
