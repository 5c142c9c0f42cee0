import type { ParseOutcome } from '@factkit/core';
import { isRefusal } from '@factkit/core';
import type { RetrievalProblem } from '../problem-codes.js';

/**
 * Reads a RankGPT reply (`[2] > [1] > [3]`) as a full 0-based permutation of `count` passages, repaired as RankGPT's
 * `receive_permutation` does: every run of digits is an identifier (brackets, `>` and any other text are ignored),
 * identifiers are 1-based, repeats keep their first place, identifiers outside 1..count are dropped, and the passages the
 * reply left out follow in their incoming order. Each repair is reported (`duplicate-identifier`,
 * `unknown-identifier`, `missing-identifier`). A refusal (`refused`) or a reply without any identifier in range
 * (`no-ranking`) gives no value: the caller keeps the incoming order and reports it. Pure; never throws.
 * @example parseRankGptPermutation('[2] > [2] > [9]', 3) // value [1, 0, 2]; duplicate, unknown and missing reported
 */
export function parseRankGptPermutation(reply: string, count: number): ParseOutcome<number[]> & { readonly problems: readonly RetrievalProblem[] } {
  const text = typeof reply === 'string' ? reply : '';
  if (text.trim() === '') return { problems: [{ code: 'no-ranking', message: 'the reply is empty' }] };
  if (isRefusal(text)) return { problems: [{ code: 'refused', message: `the model refused to rank: ${text.slice(0, 120)}` }] };
  const problems: RetrievalProblem[] = [];
  const order: number[] = [];
  const duplicates: number[] = [];
  const unknown: number[] = [];
  for (const match of text.matchAll(/\d+/g)) {
    const identifier = Number(match[0]);
    if (!Number.isSafeInteger(identifier) || identifier < 1 || identifier > count) unknown.push(identifier);
    else if (order.includes(identifier - 1)) duplicates.push(identifier);
    else order.push(identifier - 1);
  }
  if (duplicates.length > 0) problems.push({ code: 'duplicate-identifier', message: `repeated identifier(s) ${duplicates.map((id) => `[${id}]`).join(', ')} kept at their first place` });
  if (unknown.length > 0) problems.push({ code: 'unknown-identifier', message: `identifier(s) ${unknown.slice(0, 10).join(', ')} are not in 1..${count}; dropped` });
  if (order.length === 0) return { problems: [{ code: 'no-ranking', message: `the reply names no passage of 1..${count}: ${text.slice(0, 120)}` }, ...problems] };
  const missing: number[] = [];
  for (let index = 0; index < count; index += 1) if (!order.includes(index)) missing.push(index);
  if (missing.length > 0) problems.push({ code: 'missing-identifier', message: `the reply left out ${missing.map((index) => `[${index + 1}]`).join(', ')}; appended in their incoming order` });
  return { value: [...order, ...missing], problems };
}
