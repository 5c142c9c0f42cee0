import { assertIntegerInRange, type ItemProblem } from '@factkit/core';
import type { FastTrackProblemCode } from '../problem-codes.js';

/** The most texts one reply is parsed for (`expected`): far above any batch that fits a prompt. */
const MAX_SUPPORT_SCORES = 100_000;

export interface ParsedSupportScores {
  /** Text of the `#analysis:` section (trimmed), or '' when absent. */
  readonly analysis: string;
  /** One entry per expected text: 1 (supports), 0 (does not), or null when no usable score was found for it. */
  readonly scores: (0 | 1 | null)[];
  /** True when the reply can be trusted position by position: a scores section with exactly `expected` entries. */
  readonly aligned: boolean;
  /**
   * `empty-reply`, `missing-section` (no `#scores:`), `count-mismatch` (more or fewer scores than texts),
   * `non-numeric-score`, `out-of-range-score` (a number other than 0 or 1).
   */
  readonly problems: ItemProblem<FastTrackProblemCode>[];
}

const SCORES_MARKER_HASH = /#\s*\**\s*scores?\s*\**\s*[:：]\s*\**/gi;
const SCORES_MARKER = /\bscores?\s*\**\s*[:：]\s*\**/gi;
const ANALYSIS_MARKER = /\banalysis\s*\**\s*[:：]\s*\**/i;

function lastMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  let last: RegExpExecArray | null = null;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    last = match;
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return last;
}

/** Splits a one-line score list: on commas/semicolons, else before each 'Text N', else on spaces between bare numbers. */
function splitOneLine(line: string): string[] {
  let items: string[];
  if (/[,;]/.test(line)) items = line.split(/[,;]/);
  else if (/text\s*\d/i.test(line)) items = line.split(/(?=\btext\s*\d)/i);
  else if (/^[+-]?\d+(?:\.\d+)?(?:\s+[+-]?\d+(?:\.\d+)?)*$/.test(line)) items = line.split(/\s+/);
  else items = [line];
  return items.map((item) => item.trim()).filter((item) => item.length > 0);
}

/** Reads one score item: '1', '0', '1.0', '1 (supports)', 'Text 2: 0', '**1**'. */
function readItem(item: string): { value?: 0 | 1; problem?: 'non-numeric-score' | 'out-of-range-score' } {
  const cleaned = item
    .replace(/^\s*(?:[-*•]\s*)?/, '')
    .replace(/^(?:text\s*)?\d{1,3}\s*[:=)\].-]\s+(?=\S)/i, '')
    .replace(/^(?:text\s*\d{1,3}\s*[:=-]?\s*)/i, '')
    .replace(/[*`"']/g, '')
    .trim();
  const number = /^[+-]?\d+(?:\.\d+)?/.exec(cleaned);
  if (!number) return { problem: 'non-numeric-score' };
  const value = Number(number[0]);
  if (value === 1) return { value: 1 };
  if (value === 0) return { value: 0 };
  return { problem: 'out-of-range-score' };
}

/**
 * Parses a reply to `FASTTRACK_PROMPTS.support` for a batch of `expected` texts. Tolerant: markdown around the markers, the last
 * `#scores:` wins (a model that restates the format), one score per line (`Text 2: 0`, `2. 0`, `- 0`) or a comma or
 * space separated list, `1.0` for 1. A non-numeric or out-of-range score leaves that text `null` with a problem; a
 * count mismatch marks the batch unaligned (its scores cannot be trusted by position). Pure, linear-time, never throws
 * on any reply.
 * @throws InvalidArgumentError when `expected` is not an integer from 0 to 100000 (a batch of texts in one prompt).
 */
export function parseSupportScores(reply: string, expected: number): ParsedSupportScores {
  assertIntegerInRange('expected', expected, 0, MAX_SUPPORT_SCORES, 'parseSupportScores');
  const text = typeof reply === 'string' ? reply : '';
  const empty = (): (0 | 1 | null)[] => new Array<0 | 1 | null>(Math.max(0, expected)).fill(null);
  if (text.trim().length === 0) return { analysis: '', scores: empty(), aligned: false, problems: [{ code: 'empty-reply', message: 'the reply is empty' }] };
  const marker = lastMatch(SCORES_MARKER_HASH, text) ?? lastMatch(SCORES_MARKER, text);
  const analysisMatch = ANALYSIS_MARKER.exec(text);
  const analysisEnd = marker && analysisMatch && marker.index > analysisMatch.index ? marker.index : text.length;
  const analysis = analysisMatch ? text.slice(analysisMatch.index + analysisMatch[0].length, analysisEnd).trim() : '';
  if (!marker) {
    return { analysis, scores: empty(), aligned: false, problems: [{ code: 'missing-section', message: 'no "#scores:" section in the reply', raw: text.slice(-300) }] };
  }
  let section = text.slice(marker.index + marker[0].length);
  const stop = section.search(/\n\s*\n|\n\s*#\s*\w+\s*:|\(score each/i);
  if (stop >= 0) section = section.slice(0, stop);
  const lines = section
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const items = lines.length > 1 ? lines : splitOneLine(lines[0] ?? '');
  const problems: ItemProblem<FastTrackProblemCode>[] = [];
  const parsed = items.map(readItem);
  const scores = empty();
  parsed.forEach((item, index) => {
    if (index >= expected) return;
    if (item.value !== undefined) scores[index] = item.value;
    else problems.push({ index, code: item.problem as 'non-numeric-score' | 'out-of-range-score', message: `score of text ${index + 1} is not 0 or 1: "${(items[index] as string).slice(0, 40)}"` });
  });
  const aligned = parsed.length === expected;
  if (!aligned) {
    problems.push({ code: 'count-mismatch', message: `${parsed.length} scores for ${expected} texts`, raw: section.slice(0, 200) });
  }
  return { analysis, scores: aligned ? scores : empty(), aligned, problems };
}
