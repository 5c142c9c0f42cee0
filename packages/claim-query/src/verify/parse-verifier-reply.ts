import type { ClaimLabel, ItemProblem } from '@factkit/core';
import { createLabelParser } from '@factkit/core';
import type { ClaimQueryProblemCode } from '../problem-codes.js';

/** The verifier's options as the prompts name them (Tables 23/24). */
export type VerifierOption = 'Correct' | 'Hallucination' | 'Irrelevant';

/** Appendix B: "Irrelevant" is mapped to Unverifiable. */
export const VERIFIER_LABEL_MAP: Readonly<Record<VerifierOption, ClaimLabel>> = { Correct: 'correct', Hallucination: 'hallucinated', Irrelevant: 'unverifiable' };

const parseOption = createLabelParser<VerifierOption>({
  labels: ['Correct', 'Hallucination', 'Irrelevant'],
  aliases: {
    正确: 'Correct',
    幻觉: 'Hallucination',
    无关: 'Irrelevant',
    hallucinated: 'Hallucination',
    unverifiable: 'Irrelevant',
    无法验证: 'Irrelevant',
  },
});

export interface VerifierReply {
  /** Claim label, undefined when no single option could be read (see problems). */
  readonly label?: ClaimLabel;
  readonly option?: VerifierOption;
  /** Text of a `<think>…</think>` block (reasoning models such as the paper's Qwen3-14B), kept verbatim. */
  readonly reasoning?: string;
  readonly problems: readonly ItemProblem<ClaimQueryProblemCode>[];
}

/**
 * Reads a verifier reply (English or Chinese options, core `parseLabel`: negated or hedged options such as "not
 * correct" or "Correct or Irrelevant" are `ambiguous-label`, never a label) and keeps the `<think>` reasoning.
 * Pure, never throws.
 */
export function parseVerifierReply(reply: string): VerifierReply {
  const text = typeof reply === 'string' ? reply : '';
  const open = text.indexOf('<think>');
  const close = text.lastIndexOf('</think>');
  const reasoning = close >= 0 ? text.slice(open >= 0 && open < close ? open + '<think>'.length : 0, close).trim() : undefined;
  const answer = close >= 0 ? text.slice(close + '</think>'.length) : text;
  const parsed = parseOption(answer);
  return {
    ...(parsed.label ? { option: parsed.label, label: VERIFIER_LABEL_MAP[parsed.label] } : {}),
    ...(reasoning ? { reasoning } : {}),
    problems: parsed.problems,
  };
}
