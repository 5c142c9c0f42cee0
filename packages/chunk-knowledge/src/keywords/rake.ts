import { assertPositiveInteger, InvalidArgumentError } from '@factkit/core';
import { RAKE_ENGLISH_STOP_WORDS } from './stop-words.js';

/** A keyword phrase found in a text, with its character span (first occurrence) and score. */
export interface KeywordSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

export interface RakeOptions {
  /** Words that end a candidate phrase. @default RAKE_ENGLISH_STOP_WORDS */
  readonly stopWords?: ReadonlySet<string>;
  /** Longest phrase in words; longer runs are cut into pieces of this length. @default 4 */
  readonly maxWords?: number;
  /** Keep only the best `topK` phrases (all when undefined). @default undefined */
  readonly topK?: number;
}

const WORD = /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}]|['’\-.](?=[\p{L}\p{N}]))*/gu;

interface WordToken {
  readonly lower: string;
  readonly start: number;
  readonly end: number;
}

/** Word tokens with offsets: letters/digits with inner apostrophes, hyphens and dots ("COVID-19", "e.g", "3.5"). */
export function findWordTokens(text: string): WordToken[] {
  const tokens: WordToken[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    tokens.push({ lower: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/**
 * RAKE (Rose et al., 2010, "Automatic keyword extraction from individual documents"): candidate phrases are maximal
 * runs of words between stop words and punctuation; a word scores degree/frequency over the candidates, a phrase the
 * sum of its words' scores. Returns phrases best first, each with the span of its first occurrence. Linear time.
 *
 * Written here rather than taken from npm: `node-rake` and `rake-js` return bare strings (no offsets, so no spans or
 * BIO tags) and `rake-js` pulls lodash, franc and snowball; `retext-keywords` needs a unified/nlcst pipeline and ranks
 * by term frequency, which carries no signal in a one-line query.
 * @throws InvalidArgumentError for maxWords < 1 or topK < 1.
 */
export function extractRakeKeywords(text: string, options: RakeOptions = {}): KeywordSpan[] {
  const { stopWords = RAKE_ENGLISH_STOP_WORDS, maxWords = 4, topK } = options;
  if (typeof text !== 'string') throw new InvalidArgumentError({ where: 'extractRakeKeywords', argument: 'text', message: `must be a string (got ${typeof text})` });
  assertPositiveInteger('maxWords', maxWords, 'extractRakeKeywords');
  if (topK !== undefined) assertPositiveInteger('topK', topK, 'extractRakeKeywords');
  const tokens = findWordTokens(text);
  const phrases: WordToken[][] = [];
  let run: WordToken[] = [];
  const closeRun = (): void => {
    for (let i = 0; i < run.length; i += maxWords) phrases.push(run.slice(i, i + maxWords));
    run = [];
  };
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    if (previous !== undefined && /[^\s]/u.test(text.slice(previous.end, token.start))) closeRun(); // punctuation between words
    if (stopWords.has(token.lower) || (/^\p{N}+$/u.test(token.lower) && token.lower.length < 2)) {
      closeRun();
      return;
    }
    run.push(token);
  });
  closeRun();

  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const phrase of phrases) {
    for (const word of phrase) {
      frequency.set(word.lower, (frequency.get(word.lower) ?? 0) + 1);
      degree.set(word.lower, (degree.get(word.lower) ?? 0) + phrase.length);
    }
  }
  const best = new Map<string, KeywordSpan>();
  for (const phrase of phrases) {
    const key = phrase.map((word) => word.lower).join(' ');
    if (best.has(key)) continue;
    const score = phrase.reduce((sum, word) => sum + (degree.get(word.lower) ?? 0) / (frequency.get(word.lower) ?? 1), 0);
    const start = phrase[0]!.start;
    const end = phrase[phrase.length - 1]!.end;
    best.set(key, { text: text.slice(start, end), start, end, score });
  }
  const ranked = [...best.values()].sort((a, b) => b.score - a.score || a.start - b.start);
  return topK === undefined ? ranked : ranked.slice(0, topK);
}
