import type { Claim, ClaimLabel, Evidence, ItemProblem, NliLabel, NliModel, SearchQuery } from '@factkit/core';
import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import type { ClaimVerdictRecord } from '../types.js';

/** One claim to verify against the evidence its query found. */
export interface VerifyItem {
  readonly claim: Pick<Claim, 'text'> & Partial<Claim>;
  readonly query?: SearchQuery;
  readonly evidence: readonly Pick<Evidence, 'text'>[];
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
 * How per-snippet NLI labels become one claim label:
 * - `'decisive-majority'` (default): entailing snippets vote correct, contradicting snippets vote hallucinated, neutral
 *   snippets abstain; the larger side wins, a tie between non-zero sides is unverifiable (`conflicting-evidence`),
 *   no decisive snippet is unverifiable.
 * - `'any-contradiction'`: hallucinated if any snippet contradicts, else correct if any entails, else unverifiable.
 * - `'any-entailment'`: correct if any snippet entails, else hallucinated if any contradicts, else unverifiable.
 */
export type NliAggregation = 'decisive-majority' | 'any-contradiction' | 'any-entailment';

export interface NliVerifierOptions {
  readonly nli: NliModel;
  /** Snippets per claim that are judged (the top ones, in rank order). @default 10 */
  readonly topSnippets?: number;
  /** @default 'decisive-majority' */
  readonly aggregation?: NliAggregation;
}

const LABEL_OF: Readonly<Record<NliLabel, ClaimLabel>> = { entailment: 'correct', contradiction: 'hallucinated', neutral: 'unverifiable' };

export function aggregateNliLabels(labels: readonly (NliLabel | null)[], aggregation: NliAggregation): { label: ClaimLabel; problems: ItemProblem[] } {
  const entail = labels.filter((l) => l === 'entailment').length;
  const contradict = labels.filter((l) => l === 'contradiction').length;
  if (aggregation === 'any-contradiction') return { label: contradict > 0 ? 'hallucinated' : entail > 0 ? 'correct' : 'unverifiable', problems: [] };
  if (aggregation === 'any-entailment') return { label: entail > 0 ? 'correct' : contradict > 0 ? 'hallucinated' : 'unverifiable', problems: [] };
  if (entail > contradict) return { label: 'correct', problems: [] };
  if (contradict > entail) return { label: 'hallucinated', problems: [] };
  if (entail > 0) {
    return { label: 'unverifiable', problems: [{ code: 'conflicting-evidence', message: `${entail} snippet(s) entail and ${contradict} contradict the claim` }] };
  }
  return { label: 'unverifiable', problems: [] };
}

/**
 * Like {@link aggregateNliLabels}, but a snippet without a label (a failed or unreadable NLI answer) may have been any
 * label: the result is decided only when filling every missing label with entailment, with contradiction and with
 * neutral gives the same claim label (the rules are monotone in the counts, so these extremes cover every filling);
 * otherwise `undefined` — the verdict is unknown, never a label by default.
 */
export function decideNliLabels(labels: readonly (NliLabel | null)[], aggregation: NliAggregation): { label: ClaimLabel; problems: ItemProblem[] } | undefined {
  const known = aggregateNliLabels(labels, aggregation);
  if (!labels.includes(null)) return known;
  const filled = (['entailment', 'contradiction', 'neutral'] as const).map(
    (fill) =>
      aggregateNliLabels(
        labels.map((label) => label ?? fill),
        aggregation,
      ).label,
  );
  return filled.every((label) => label === known.label) ? known : undefined;
}

/**
 * An LLM-free verifier over any core `NliModel` (premise = snippet, hypothesis = claim): entailment → correct,
 * contradiction → hallucinated, neutral → unverifiable, aggregated over the top snippets (see {@link NliAggregation}).
 * A baseline for the paper's LLM verifier (Tables 23/24). A failed NLI call marks the items of that call failed.
 * @example createNliVerifier({ nli: createLexicalNliModel() })
 */
export function createNliVerifier(options: NliVerifierOptions): ClaimVerifier {
  const { nli, topSnippets = 10, aggregation = 'decisive-majority' } = options;
  if (!nli || typeof nli.classify !== 'function') throw new InvalidArgumentError({ where: 'createNliVerifier', argument: 'nli', message: 'must be an NliModel' });
  assertPositiveInteger('topSnippets', topSnippets, 'createNliVerifier');
  const id = `nli-verifier(${nli.id},${aggregation},top${topSnippets})`;
  return {
    id,
    async verify({ items, abortSignal }) {
      const out: ClaimVerdictRecord[] = [];
      for (const item of items) {
        abortSignal?.throwIfAborted();
        const snippets = item.evidence.slice(0, topSnippets);
        if (snippets.length === 0) {
          out.push({ status: 'ok', label: 'unverifiable', reason: 'no evidence', raw: [], verifier: id, problems: [] });
          continue;
        }
        try {
          const { results } = await nli.classify({ pairs: snippets.map((s) => ({ premise: s.text, hypothesis: item.claim.text })), abortSignal });
          const labels = snippets.map((_, i) => results[i]?.label ?? null);
          const unread = labels.filter((l) => l === null).length;
          const decided = decideNliLabels(labels, aggregation);
          if (!decided) {
            // The missing judgements could change the verdict: a failure, left out of every rate, never a label.
            out.push({
              status: 'failed',
              raw: labels.map((l) => l ?? 'null'),
              verifier: id,
              problems: [{ code: 'nli-unreadable', message: `${unread} of ${labels.length} snippet judgement(s) had no label and they could change the verdict` }],
            });
            continue;
          }
          const { label, problems } = decided;
          const votes: Partial<Record<ClaimLabel, number>> = {};
          for (const l of labels) if (l) votes[LABEL_OF[l]] = (votes[LABEL_OF[l]] ?? 0) + 1;
          if (unread > 0) problems.push({ code: 'nli-unreadable', message: `${unread} snippet judgement(s) had no label (they cannot change the verdict)` });
          out.push({ status: 'ok', label, raw: labels.map((l) => l ?? 'null'), votes, verifier: id, problems });
        } catch (error) {
          if (abortSignal?.aborted) throw abortSignal.reason;
          out.push({ status: 'failed', raw: [], verifier: id, problems: [{ code: 'call-failed', message: error instanceof Error ? error.message : String(error) }] });
        }
      }
      return out;
    },
  };
}
