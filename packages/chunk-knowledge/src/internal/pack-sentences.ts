import { segmentSentences, type ItemProblem } from '@factkit/core';
import { windowTokens } from '../chunking/token-chunker.js';
import { findTokenSpans } from './token-spans.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

export interface PackedWindow {
  readonly start: number;
  readonly end: number;
  readonly tokenCount: number;
}

interface Unit {
  readonly start: number;
  readonly end: number;
  readonly tokenCount: number;
}

/**
 * Packs the sentences of `text[from, to)` into windows of at most `maxTokens` tokens without cutting a sentence;
 * a sentence longer than `maxTokens` is cut into token windows (and reported), never dropped.
 * With `overlapSentences` > 0 the next window repeats the last sentences of the previous one when they fit.
 */
export function packSentences(text: string, from: number, to: number, options: { maxTokens: number; overlapSentences: number; documentId: string }): { windows: PackedWindow[]; problems: ItemProblem<ChunkKnowledgeProblemCode>[] } {
  const { maxTokens, overlapSentences, documentId } = options;
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = [];
  const units: Unit[] = [];
  for (const sentence of segmentSentences(text.slice(from, to))) {
    const start = from + sentence.start;
    const end = from + sentence.end;
    const tokens = findTokenSpans(text, start, end);
    if (tokens.length === 0) continue;
    if (tokens.length <= maxTokens) {
      units.push({ start: tokens[0]!.start, end: tokens[tokens.length - 1]!.end, tokenCount: tokens.length });
      continue;
    }
    problems.push({
      id: documentId,
      code: 'long-sentence-split',
      message: `a sentence of ${tokens.length} tokens at [${start}, ${end}) exceeds maxTokens (${maxTokens}); split into token windows`,
    });
    for (const window of windowTokens(tokens, maxTokens, 0)) units.push(window);
  }

  const windows: PackedWindow[] = [];
  let current: Unit[] = [];
  let currentTokens = 0;
  const emit = (): void => {
    windows.push({ start: current[0]!.start, end: current[current.length - 1]!.end, tokenCount: currentTokens });
  };
  for (const unit of units) {
    if (current.length > 0 && currentTokens + unit.tokenCount > maxTokens) {
      emit();
      const previous = current;
      current = [];
      currentTokens = 0;
      // Repeat the last sentences of the previous window when they fit beside the new unit (and leave progress).
      for (let k = Math.min(overlapSentences, previous.length - 1); k > 0; k -= 1) {
        const carried = previous.slice(previous.length - k);
        const carriedTokens = carried.reduce((sum, item) => sum + item.tokenCount, 0);
        if (carriedTokens + unit.tokenCount <= maxTokens) {
          current = carried;
          currentTokens = carriedTokens;
          break;
        }
      }
    }
    current.push(unit);
    currentTokens += unit.tokenCount;
  }
  if (current.length > 0) emit();
  return { windows, problems };
}
