import type { Claim, ClaimLabel, Evidence, ItemProblem, NliLabel, NliModel, SearchQuery } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import type { ClaimVerdictRecord, SnippetJudgement } from '../types.js';
import { claimTerms, snippetRelevance } from './relevance.js';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

/** One claim to verify against the evidence its query found. */
export interface VerifyItem {
  readonly claim: Pick<Claim, 'text'> & Partial<Claim>;
  readonly query?: SearchQuery;
  readonly evidence: readonly (Pick<Evidence, 'text'> & Partial<Pick<Evidence, 'origin'>>)[];
  readonly language?: 'en' | 'zh';
}

export interface VerifyRequest {
  readonly items: readonly VerifyItem[];
  readonly abortSignal?: AbortSignal;
}

/** Decides Correct / Hallucinated / Unverifiable for claims given their snippets. One verdict per item, in order. */
export interface ClaimVerifier {
  readonly id: string;
  verify(request: VerifyRequest): Promise<ClaimVerdictRecord[]>;
}

/**
 * How per-snippet NLI labels become one claim label. A snippet is *relevant* when it names one of the claim's entities
 * (a capitalised word, a number or a CJK character of the claim; for a claim without any, when it has at least half of
 * the claim's content words); *decisive* when its label is entailment or contradiction.
 * - `'strict'`: RefChecker's strict rule over the relevant snippets: hallucinated if any relevant snippet contradicts,
 *   else correct if any entails, else unverifiable.
 * - `'soft'`: a relevance-weighted score over the relevant snippets, S = Σ overlap × (P(entailment) − P(contradiction)) / √rank
 *   (one-hot probabilities for a model without scores); correct when S ≥ `softThreshold`, hallucinated when
 *   S ≤ −`softThreshold`, else unverifiable.
 * - `'majority'`: decisive majority over the relevant snippets (neutral abstains; a tie between non-zero sides is
 *   unverifiable with `conflicting-evidence`).
 * - `'top-decisive'` (default): the most relevant decisive snippet decides: of all snippets that entail or contradict, the
 *   one sharing the largest share of the claim's content words (then the best rank). Not gated: FEVER evidence often
 *   names its subject only by a pronoun, and gating lost 1 point of balanced accuracy on the validation responses.
 * - `'decisive-majority'`: decisive majority over all snippets, relevant or not (the rule before relevance gating).
 * - `'any-contradiction'` / `'any-entailment'`: over all snippets, the first-named label wins if any snippet has it.
 */
export type NliAggregation = 'strict' | 'soft' | 'majority' | 'top-decisive' | 'decisive-majority' | 'any-contradiction' | 'any-entailment';

/** Every aggregation, in the order the study lists them. */
export const NLI_AGGREGATIONS: readonly NliAggregation[] = ['strict', 'soft', 'majority', 'top-decisive', 'decisive-majority', 'any-contradiction', 'any-entailment'];

/** The aggregation `createNliVerifier` uses by default (chosen on the FEVER-lite validation responses; docs/claim-query.md). */
export const DEFAULT_NLI_AGGREGATION: NliAggregation = 'top-decisive';

/** The `soft` threshold used by default (chosen on the FEVER-lite validation responses). */
export const DEFAULT_SOFT_THRESHOLD = 0.25;

export interface NliVerifierOptions {
  readonly nli: NliModel;
  /** Snippets per claim that are judged (the top ones, in rank order). @default 10 */
  readonly topSnippets?: number;
  /** @default DEFAULT_NLI_AGGREGATION ('top-decisive') */
  readonly aggregation?: NliAggregation;
  /** Score magnitude `soft` needs for a label. @default DEFAULT_SOFT_THRESHOLD */
  readonly softThreshold?: number;
}

/** What an aggregation reads of one judged snippet. */
export interface JudgedSnippet {
  readonly label: NliLabel | null;
  readonly scores?: Readonly<Partial<Record<NliLabel, number>>>;
  /** 1-based rank. */
  readonly rank: number;
  readonly overlap: number;
  readonly relevant: boolean;
}

export interface AggregatedVerdict {
  readonly label: ClaimLabel;
  readonly problems: ItemProblem<ClaimQueryProblemCode>[];
  /** Indexes (into the snippets given) of the snippets that decided the label; empty for unverifiable. */
  readonly decisive: number[];
}

const LABEL_OF: Readonly<Record<NliLabel, ClaimLabel>> = { entailment: 'correct', contradiction: 'hallucinated', neutral: 'unverifiable' };
const RELEVANCE_GATED: ReadonlySet<NliAggregation> = new Set(['strict', 'soft', 'majority']);

function indexesWith(snippets: readonly JudgedSnippet[], pool: readonly number[], label: NliLabel): number[] {
  return pool.filter((i) => snippets[i]?.label === label);
}

function probability(snippet: JudgedSnippet, label: NliLabel): number {
  return snippet.scores?.[label] ?? (snippet.label === label ? 1 : 0);
}

/** The claim label the aggregation gives for these judged snippets, with the deciding snippets (see {@link NliAggregation}). */
export function aggregateSnippets(snippets: readonly JudgedSnippet[], aggregation: NliAggregation, softThreshold = DEFAULT_SOFT_THRESHOLD): AggregatedVerdict {
  const all = snippets.map((_, i) => i);
  const pool = RELEVANCE_GATED.has(aggregation) ? all.filter((i) => snippets[i]!.relevant) : all;
  const entail = indexesWith(snippets, pool, 'entailment');
  const contradict = indexesWith(snippets, pool, 'contradiction');
  const unverifiable: AggregatedVerdict = { label: 'unverifiable', problems: [], decisive: [] };
  switch (aggregation) {
    case 'strict':
    case 'any-contradiction':
      if (contradict.length > 0) return { label: 'hallucinated', problems: [], decisive: contradict };
      return entail.length > 0 ? { label: 'correct', problems: [], decisive: entail } : unverifiable;
    case 'any-entailment':
      if (entail.length > 0) return { label: 'correct', problems: [], decisive: entail };
      return contradict.length > 0 ? { label: 'hallucinated', problems: [], decisive: contradict } : unverifiable;
    case 'top-decisive': {
      const decisive = [...entail, ...contradict].sort((a, b) => snippets[b]!.overlap - snippets[a]!.overlap || snippets[a]!.rank - snippets[b]!.rank);
      const top = decisive[0];
      return top === undefined ? unverifiable : { label: LABEL_OF[snippets[top]!.label as NliLabel], problems: [], decisive: [top] };
    }
    case 'soft': {
      const contribution = (i: number) => {
        const snippet = snippets[i]!;
        return (snippet.overlap * (probability(snippet, 'entailment') - probability(snippet, 'contradiction'))) / Math.sqrt(Math.max(1, snippet.rank));
      };
      const score = pool.reduce((sum, i) => sum + contribution(i), 0);
      if (score >= softThreshold) return { label: 'correct', problems: [], decisive: pool.filter((i) => contribution(i) > 0) };
      if (score <= -softThreshold) return { label: 'hallucinated', problems: [], decisive: pool.filter((i) => contribution(i) < 0) };
      return unverifiable;
    }
    default: {
      // 'majority' (relevant snippets) and 'decisive-majority' (all snippets)
      if (entail.length > contradict.length) return { label: 'correct', problems: [], decisive: entail };
      if (contradict.length > entail.length) return { label: 'hallucinated', problems: [], decisive: contradict };
      if (entail.length > 0) {
        return { label: 'unverifiable', problems: [{ code: 'conflicting-evidence', message: `${entail.length} snippet(s) entail and ${contradict.length} contradict the claim` }], decisive: [] };
      }
      return unverifiable;
    }
  }
}

/**
 * Like {@link aggregateSnippets}, but a snippet without a label (a failed or unreadable NLI answer) may have been any
 * label: the result is decided only when filling every missing label with entailment, with contradiction and with
 * neutral gives the same claim label (every rule is monotone in each snippet's label, so these extremes cover every
 * filling); otherwise `undefined` — the verdict is unknown, never a label by default.
 */
export function decideSnippets(snippets: readonly JudgedSnippet[], aggregation: NliAggregation, softThreshold = DEFAULT_SOFT_THRESHOLD): AggregatedVerdict | undefined {
  const known = aggregateSnippets(snippets, aggregation, softThreshold);
  if (!snippets.some((s) => s.label === null)) return known;
  const filled = (['entailment', 'contradiction', 'neutral'] as const).map(
    (fill) =>
      aggregateSnippets(
        snippets.map((s) => (s.label === null ? { ...s, label: fill, scores: { [fill]: 1 } } : s)),
        aggregation,
        softThreshold,
      ).label,
  );
  return filled.every((label) => label === known.label) ? known : undefined;
}

const asJudged = (labels: readonly (NliLabel | null)[]): JudgedSnippet[] => labels.map((label, i) => ({ label, rank: i + 1, overlap: 1, relevant: true }));

/** {@link aggregateSnippets} over bare labels in rank order, every snippet taken as relevant with full overlap. */
export function aggregateNliLabels(labels: readonly (NliLabel | null)[], aggregation: NliAggregation): { label: ClaimLabel; problems: ItemProblem<ClaimQueryProblemCode>[] } {
  const { label, problems } = aggregateSnippets(asJudged(labels), aggregation);
  return { label, problems };
}

/** {@link decideSnippets} over bare labels in rank order, every snippet taken as relevant with full overlap. */
export function decideNliLabels(labels: readonly (NliLabel | null)[], aggregation: NliAggregation): { label: ClaimLabel; problems: ItemProblem<ClaimQueryProblemCode>[] } | undefined {
  const decided = decideSnippets(asJudged(labels), aggregation);
  return decided && { label: decided.label, problems: decided.problems };
}

const percent = (value: number | undefined): string => (value === undefined ? '' : ` ${value.toFixed(2)}`);

/** The one-line reason of an NLI verdict: the rule, the deciding snippet(s) with label and score, and the counts. */
export function explainNliVerdict(label: ClaimLabel, aggregation: NliAggregation, snippets: readonly SnippetJudgement[]): string {
  const gated = RELEVANCE_GATED.has(aggregation);
  const pool = gated ? snippets.filter((s) => s.relevant) : snippets;
  const count = (l: NliLabel) => pool.filter((s) => s.label === l).length;
  const counts = `${count('entailment')} entail, ${count('contradiction')} contradict, ${count('neutral')} neutral of ${pool.length}${gated ? ` relevant (${snippets.length} judged)` : ''}`;
  const deciding = snippets.filter((s) => s.decisive);
  if (deciding.length === 0) {
    const none = gated && pool.length === 0 ? 'no snippet names the claim’s entities' : count('entailment') > 0 && count('contradiction') > 0 ? 'the snippets conflict' : 'no snippet decides';
    return `${label}: ${none} (${aggregation}; ${counts})`;
  }
  const shown = deciding
    .slice(0, 3)
    .map((s) => `#${s.rank} ${s.label}${percent(s.score)}`)
    .join(', ');
  const more = deciding.length > 3 ? ` +${deciding.length - 3} more` : '';
  return `${label}: decided by ${shown}${more} (${aggregation}; ${counts})`;
}

/**
 * An LLM-free verifier over any core `NliModel` (premise = snippet, hypothesis = claim): entailment → correct,
 * contradiction → hallucinated, neutral → unverifiable, aggregated over the top snippets (see {@link NliAggregation}).
 * Each verdict carries every judged snippet (rank, text, origin, label, score, relevance, whether it decided) and a
 * one-line `why`. A baseline for the paper's LLM verifier (Tables 23/24). A failed NLI call marks the items of that call failed.
 * @example createNliVerifier({ nli: createLexicalNliModel(), aggregation: 'strict' })
 */
export function createNliVerifier(options: NliVerifierOptions): ClaimVerifier {
  const { nli, topSnippets = 10, aggregation = DEFAULT_NLI_AGGREGATION, softThreshold = DEFAULT_SOFT_THRESHOLD } = options;
  if (!nli || typeof nli.classify !== 'function') throw new InvalidArgumentError({ where: 'createNliVerifier', argument: 'nli', message: 'must be an NliModel' });
  assertPositiveInteger('topSnippets', topSnippets, 'createNliVerifier');
  if (!NLI_AGGREGATIONS.includes(aggregation)) {
    throw new InvalidArgumentError({ where: 'createNliVerifier', argument: 'aggregation', message: `must be one of ${NLI_AGGREGATIONS.join(', ')} (got ${JSON.stringify(aggregation)})` });
  }
  if (!Number.isFinite(softThreshold) || softThreshold < 0) {
    throw new InvalidArgumentError({ where: 'createNliVerifier', argument: 'softThreshold', message: `must be a finite number >= 0 (got ${softThreshold})` });
  }
  const id = `nli-verifier(${nli.id},${aggregation}${aggregation === 'soft' ? `@${softThreshold}` : ''},top${topSnippets})`;
  return {
    id,
    async verify({ items, abortSignal }) {
      const out: ClaimVerdictRecord[] = [];
      for (const item of items) {
        abortSignal?.throwIfAborted();
        const snippets = item.evidence.slice(0, topSnippets);
        if (snippets.length === 0) {
          out.push({ status: 'ok', label: 'unverifiable', reason: 'no evidence', raw: [], verifier: id, problems: [], snippets: [], why: 'unverifiable: no evidence' });
          continue;
        }
        try {
          const { results } = await nli.classify({ pairs: snippets.map((s) => ({ premise: s.text, hypothesis: item.claim.text })), abortSignal });
          const terms = claimTerms(item.claim.text);
          const judged: JudgedSnippet[] = snippets.map((snippet, i) => {
            const prediction = results[i];
            return { label: prediction?.label ?? null, ...(prediction?.scores ? { scores: prediction.scores } : {}), rank: i + 1, ...snippetRelevance(terms, snippet.text) };
          });
          const labels = judged.map((s) => s.label);
          const unread = labels.filter((l) => l === null).length;
          const decided = decideSnippets(judged, aggregation, softThreshold);
          const explained = (decisive: readonly number[]): SnippetJudgement[] =>
            snippets.map((snippet, i) => {
              const { label, scores, rank, overlap, relevant } = judged[i]!;
              const score = label ? scores?.[label] : undefined;
              return { rank, text: snippet.text, ...(snippet.origin ? { origin: snippet.origin } : {}), label, ...(score === undefined ? {} : { score }), overlap, relevant, decisive: decisive.includes(i) };
            });
          if (!decided) {
            // The missing judgements could change the verdict: a failure, left out of every rate, never a label.
            out.push({
              status: 'failed',
              raw: labels.map((l) => l ?? 'null'),
              verifier: id,
              problems: [{ code: 'nli-unreadable', message: `${unread} of ${labels.length} snippet judgement(s) had no label and they could change the verdict` }],
              snippets: explained([]),
            });
            continue;
          }
          const { label, problems, decisive } = decided;
          const votes: Partial<Record<ClaimLabel, number>> = {};
          for (const l of labels) if (l) votes[LABEL_OF[l]] = (votes[LABEL_OF[l]] ?? 0) + 1;
          if (unread > 0) problems.push({ code: 'nli-unreadable', message: `${unread} snippet judgement(s) had no label (they cannot change the verdict)` });
          const judgements = explained(decisive);
          out.push({ status: 'ok', label, raw: labels.map((l) => l ?? 'null'), votes, verifier: id, problems, snippets: judgements, why: explainNliVerdict(label, aggregation, judgements) });
        } catch (error) {
          if (abortSignal?.aborted) throw abortSignal.reason;
          out.push({ status: 'failed', raw: [], verifier: id, problems: [{ code: 'call-failed', message: error instanceof Error ? error.message : String(error) }] });
        }
      }
      return out;
    },
  };
}
