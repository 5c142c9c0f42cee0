import type { Claim, SearchQuery } from '@factkit/core';
import { assertNonNegativeInteger, assertProbability, createSeededRandom } from '@factkit/core';
import type { PromptLanguage } from '../prompts/prompts.js';
import { CLAIM_QUERY_PROMPTS, NO_CLAIMS_TEXT, NO_QUERY_TEXT } from '../prompts/prompts.js';
import { renderPaperPrompt } from '../prompts/paper-template.js';

/** A filtered training sample: a QA pair and its claim–query pairs. */
export interface TrainingSample {
  readonly id: string;
  readonly language: PromptLanguage;
  readonly question: string;
  readonly answer: string;
  /** Its claims (`<id>:c<k>`) and their queries, as the synthesiser generated them. */
  readonly pairs: readonly { readonly claim: Claim; readonly query: SearchQuery }[];
}

/**
 * The generator's target text (Tables 21/22 response template) in the authors' layout: claims and queries numbered
 * `1 …`, `2 …` (their parser strips "N "), "No claims." / 无陈述 and "No query" / 无查询 when there are none.
 */
export function formatClaimQueryResponse(pairs: readonly { readonly claim: Claim; readonly query?: SearchQuery }[], language: PromptLanguage = 'en'): string {
  const claims = pairs.length === 0 ? NO_CLAIMS_TEXT[language] : pairs.map((pair, i) => `${i + 1} ${pair.claim.text}`).join('\n');
  const queries = pairs.length === 0 ? NO_QUERY_TEXT[language] : pairs.map((pair, i) => `${i + 1} ${pair.query?.text ?? NO_QUERY_TEXT[language]}`).join('\n');
  return renderPaperPrompt(CLAIM_QUERY_PROMPTS[language].claimQueryResponse, { claims, queries });
}

export interface StratifyOptions {
  /** Samples wanted in total (the paper: 1,000 per language). */
  readonly total: number;
  /** Largest number taken from one claim-count group in the stratified pass. @default ceil(total / number of groups) */
  readonly perGroupCap?: number;
  /** @default 0 */
  readonly seed?: number;
}

/**
 * Stratified sampling by claim count (§3.4.1): samples grouped by their number of claims, each group capped in a first
 * pass (seeded random order), then random selection from the rest fills the remaining quota. Returns the chosen
 * samples (in selection order) and per-group counts.
 */
export function stratifyByClaimCount<T extends { pairs: readonly unknown[] }>(samples: readonly T[], options: StratifyOptions): { selected: T[]; perGroup: Record<number, number> } {
  const { total, seed = 0 } = options;
  assertNonNegativeInteger('total', total, 'stratifyByClaimCount');
  const random = createSeededRandom(seed);
  const shuffle = <U>(items: U[]): U[] => {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  const groups = new Map<number, T[]>();
  for (const sample of samples) {
    const key = sample.pairs.length;
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  const keys = [...groups.keys()].sort((a, b) => a - b);
  const cap = options.perGroupCap ?? Math.ceil(total / Math.max(1, keys.length));
  assertNonNegativeInteger('perGroupCap', cap, 'stratifyByClaimCount');
  const selected: T[] = [];
  const rest: T[] = [];
  for (const key of keys) {
    const group = shuffle([...groups.get(key)!]);
    selected.push(...group.slice(0, cap));
    rest.push(...group.slice(cap));
  }
  if (selected.length > total) selected.splice(total);
  const fill = shuffle(rest).slice(0, Math.max(0, total - selected.length));
  selected.push(...fill);
  const perGroup: Record<number, number> = {};
  for (const sample of selected) perGroup[sample.pairs.length] = (perGroup[sample.pairs.length] ?? 0) + 1;
  return { selected, perGroup };
}

/** Seeded train/test split (the paper: 9:1 per language). */
export function splitTrainTest<T>(samples: readonly T[], options: { testFraction?: number; seed?: number } = {}): { train: T[]; test: T[] } {
  const { testFraction = 0.1, seed = 0 } = options;
  assertProbability('testFraction', testFraction, 'splitTrainTest');
  const order = samples.map((_, index) => index);
  const random = createSeededRandom(seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const testCount = Math.round(samples.length * testFraction);
  const test = new Set(order.slice(0, testCount));
  return { train: samples.filter((_, index) => !test.has(index)), test: samples.filter((_, index) => test.has(index)) };
}

/** One chat-format fine-tuning record: the Table 21/22 prompt as the user turn, the response template as the answer. */
export function toChatRecord(sample: TrainingSample): { messages: { role: 'user' | 'assistant'; content: string }[] } {
  return {
    messages: [
      { role: 'user', content: renderPaperPrompt(CLAIM_QUERY_PROMPTS[sample.language].claimQuery, { question: sample.question, answer: sample.answer }) },
      { role: 'assistant', content: formatClaimQueryResponse(sample.pairs, sample.language) },
    ],
  };
}

/** Chat-format JSONL (one `{"messages": [...]}` per line) ready for fine-tuning. */
export function toChatJsonl(samples: readonly TrainingSample[]): string {
  return samples.map((sample) => JSON.stringify(toChatRecord(sample))).join('\n') + (samples.length > 0 ? '\n' : '');
}
