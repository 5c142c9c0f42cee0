import type { Claim, ClaimLabel, Embedder, Evidence, GenerationProvenance, ItemOutcome, ItemProblem, ProgressCallback, Retriever, SearchQuery } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError, mapWithConcurrency, segmentSentences } from '@factkit/core';
import { alignClaimsToSentences } from '../align/align-claims-to-sentences.js';
import { labelFromClaims } from '../align/label-segments.js';
import { detectPromptLanguage } from '../prompts/language.js';
import type { PromptLanguage } from '../prompts/prompts.js';
import type { CheckedClaim, CheckedSentence, ClaimVerdictRecord, SegmentLabel } from '../types.js';
import type { ClaimVerifier } from '../verify/create-nli-verifier.js';
import type { ClaimQueryGenerator, GeneratedClaims, QaItem } from './generator.js';

export interface DetectHallucinationsOptions {
  readonly items: readonly QaItem[];
  readonly generator: ClaimQueryGenerator;
  /** Searcher: any core Retriever (local BM25, the Serper web adapter, ...). */
  readonly retriever: Retriever;
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
  /** As a core `ItemOutcome`: 'ok' when the response label was decided, 'failed' otherwise (see `failedStage`). */
  readonly status: ItemOutcome<SegmentLabel>['status'];
  /**
   * Why the item failed: 'generation' (the generator call failed: no sentences or claims) or 'verification' (some
   * verifier calls failed and the label cannot be decided; the sentences and claims are kept). Absent when 'ok'.
   */
  readonly failedStage?: 'generation' | 'verification';
  /** Response label (hallucinated if any claim is; unverifiable if no claim is verifiable); undefined unless decidable. */
  readonly responseLabel?: SegmentLabel;
  readonly sentences: readonly CheckedSentence[];
  readonly claims: readonly CheckedClaim[];
  readonly noClaims: boolean;
  readonly generatorId: string;
  readonly retrieverId: string;
  readonly verifierId: string;
  readonly generation: { readonly raw?: readonly string[]; readonly provenance?: readonly GenerationProvenance[] };
  readonly problems: readonly ItemProblem[];
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
async function search(retriever: Retriever, query: SearchQuery, topK: number, abortSignal?: AbortSignal): Promise<{ evidence: Evidence[]; problems: ItemProblem[]; error?: string }> {
  try {
    const result = await retriever.retrieve({ query: { text: query.text }, topK, ...(abortSignal ? { abortSignal } : {}) });
    return { evidence: result.evidence.slice(0, topK), problems: [...(result.problems ?? [])] };
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    return { evidence: [], problems: [{ code: 'search-failed', message: errorMessage(error) }], error: errorMessage(error) };
  }
}

async function checkItem(item: QaItem, index: number, generated: GeneratedClaims, options: DetectHallucinationsOptions): Promise<DetectionResult> {
  const { retriever, verifier, embedder, topK = 10, alignmentThreshold = 0.5, abortSignal, generator } = options;
  const question = typeof item.question === 'string' ? item.question : '';
  const answer = typeof item.answer === 'string' ? item.answer : '';
  const language = item.language ?? detectPromptLanguage(`${question}${answer}`);
  const id = item.id ?? String(index);
  const spans = segmentSentences(answer);
  const base = {
    id,
    question,
    answer,
    language,
    noClaims: generated.noClaims,
    generatorId: generator.id,
    retrieverId: retriever.id,
    verifierId: verifier.id,
    generation: { ...(generated.raw ? { raw: generated.raw } : {}), ...(generated.provenance ? { provenance: generated.provenance } : {}) },
  };
  const problems: ItemProblem[] = [...generated.problems];
  if (answer.trim().length === 0) problems.push({ code: 'empty-answer', message: 'the answer is empty' });
  if (generated.status === 'failed') {
    return { ...base, status: 'failed', failedStage: 'generation', sentences: [], claims: [], problems };
  }

  // The chain's core types: claim k is `<id>:c<k>`, its query points back to it.
  const claimsOf: Claim[] = generated.pairs.map((pair, k) => ({ id: `${id}:c${k}`, text: pair.claim }));
  const queriesOf: (SearchQuery | undefined)[] = generated.pairs.map((pair, k) => (pair.query ? { text: pair.query, claimId: claimsOf[k]!.id } : undefined));
  // Search (one call per query, the paper's "1 search per judgement").
  const searched = await mapWithConcurrency(queriesOf, async (query) => (query ? search(retriever, query, topK, abortSignal) : undefined), { concurrency: 4, ...(abortSignal ? { abortSignal } : {}) });
  // Verify the claims that have evidence; the others are unverifiable with their reason.
  const toVerify: number[] = [];
  const verdicts: (ClaimVerdictRecord | undefined)[] = generated.pairs.map((pair, k) => {
    const found = searched[k];
    if (!pair.query) return { status: 'ok', label: 'unverifiable', reason: 'no query', raw: [], verifier: verifier.id, problems: [] };
    if (found?.error) {
      return { status: 'ok', label: 'unverifiable', reason: `search failed: ${found.error}`, raw: [], verifier: verifier.id, problems: found.problems };
    }
    if (!found || found.evidence.length === 0) return { status: 'ok', label: 'unverifiable', reason: 'no evidence found', raw: [], verifier: verifier.id, problems: [] };
    toVerify.push(k);
    return undefined;
  });
  if (toVerify.length > 0) {
    try {
      const outcomes = await verifier.verify({
        items: toVerify.map((k) => ({ claim: claimsOf[k]!, query: queriesOf[k]!, evidence: searched[k]!.evidence, language })),
        ...(abortSignal ? { abortSignal } : {}),
      });
      toVerify.forEach((k, position) => {
        verdicts[k] = outcomes[position] ?? { status: 'failed', raw: [], verifier: verifier.id, problems: [{ code: 'call-failed', message: 'verifier returned no verdict' }] };
      });
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason;
      for (const k of toVerify) verdicts[k] = { status: 'failed', raw: [], verifier: verifier.id, problems: [{ code: 'call-failed', message: errorMessage(error) }] };
    }
  }

  // Alignment: generator-given sentence index, else embedding argmax ≥ threshold.
  const alignments = new Map<number, { sentenceIndex?: number; similarity?: number }>();
  const needEmbedding = generated.pairs.map((pair, k) => (pair.sentenceIndex === undefined ? k : -1)).filter((k) => k >= 0);
  generated.pairs.forEach((pair, k) => {
    if (pair.sentenceIndex !== undefined) alignments.set(k, { sentenceIndex: pair.sentenceIndex });
  });
  if (needEmbedding.length > 0 && spans.length > 0) {
    if (embedder) {
      try {
        const aligned = await alignClaimsToSentences({
          sentences: spans.map((s) => s.text),
          claims: needEmbedding.map((k) => generated.pairs[k]!.claim),
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
    } else {
      problems.push({ code: 'no-alignment', message: 'no embedder given: claims without a sentence index are not aligned to sentences' });
    }
  }

  const claims: CheckedClaim[] = generated.pairs.map((pair, k) => {
    const alignment = alignments.get(k);
    const sentence = alignment?.sentenceIndex === undefined ? undefined : spans[alignment.sentenceIndex]?.text;
    const query = queriesOf[k];
    return {
      claim: { ...claimsOf[k]!, ...(sentence === undefined ? {} : { source: sentence }) },
      ...(query ? { query } : {}),
      evidence: searched[k]?.evidence ?? [],
      verdict: verdicts[k]!,
      ...(alignment?.sentenceIndex === undefined ? {} : { sentenceIndex: alignment.sentenceIndex }),
      ...(alignment?.similarity === undefined || Number.isNaN(alignment.similarity) ? {} : { similarity: alignment.similarity }),
      problems: [...(pair.problems ?? [])],
    };
  });
  const sentences: CheckedSentence[] = spans.map((span, sentenceIndex) => {
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
  const responseLabel = decide(claims.map((claim) => claim.verdict));
  const failedVerdicts = claims.filter((claim) => claim.verdict.status === 'failed').length;
  if (failedVerdicts > 0) problems.push({ code: 'verifier-failed', message: `${failedVerdicts} of ${claims.length} claim verification(s) failed` });
  return {
    ...base,
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
 * unverifiable with the reason, a failed verifier call never becomes a label.
 * @throws InvalidArgumentError for missing components or bad options; rethrows an abort.
 */
export async function detectHallucinations(options: DetectHallucinationsOptions): Promise<DetectionResult[]> {
  const { items, generator, retriever, verifier, topK = 10, concurrency = 4, abortSignal, onProgress } = options;
  const where = 'detectHallucinations';
  if (!Array.isArray(items)) throw new InvalidArgumentError({ where, argument: 'items', message: 'must be an array of { question, answer }' });
  if (!generator || typeof generator.generate !== 'function') throw new InvalidArgumentError({ where, argument: 'generator', message: 'must be a ClaimQueryGenerator' });
  if (!retriever || typeof retriever.retrieve !== 'function') throw new InvalidArgumentError({ where, argument: 'retriever', message: 'must be a Retriever' });
  if (!verifier || typeof verifier.verify !== 'function') throw new InvalidArgumentError({ where, argument: 'verifier', message: 'must be a ClaimVerifier' });
  assertPositiveInteger('topK', topK, where);
  assertPositiveInteger('concurrency', concurrency, where);

  let done = 0;
  let failed = 0;
  return mapWithConcurrency(
    items,
    async (item, index) => {
      abortSignal?.throwIfAborted();
      let generated: GeneratedClaims;
      try {
        generated = (await generator.generate({ items: [item], ...(abortSignal ? { abortSignal } : {}) }))[0] ?? {
          status: 'failed',
          pairs: [],
          noClaims: false,
          problems: [{ code: 'call-failed', message: 'generator returned no result' }],
        };
      } catch (error) {
        if (abortSignal?.aborted) throw abortSignal.reason;
        generated = { status: 'failed', pairs: [], noClaims: false, problems: [{ code: 'call-failed', message: errorMessage(error) }] };
      }
      const result = await checkItem(item, index, generated, options);
      done += 1;
      if (result.status !== 'ok') failed += 1;
      onProgress?.({ completed: done, total: items.length, failed });
      return result;
    },
    { concurrency, ...(abortSignal ? { abortSignal } : {}) },
  );
}
