import { findWordTokens } from './rake.js';

/** BIO tag of a query token, as in §3.1 of the paper: keyword begin, keyword inside, outside. */
export type KeywordTag = 'KB' | 'KI' | 'O';

export interface TaggedToken {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly tag: KeywordTag;
}

/**
 * Tags the word tokens of `text` with KB / KI / O from keyword spans: the first token inside a span is KB, the
 * following ones in the same span KI, every other token O. Punctuation is not a token.
 */
export function toBioTags(text: string, spans: readonly { start: number; end: number }[]): TaggedToken[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let spanIndex = 0;
  let inSpan: { start: number; end: number } | undefined;
  return findWordTokens(text).map((token) => {
    while (spanIndex < sorted.length && sorted[spanIndex]!.end <= token.start) spanIndex += 1;
    const span = sorted[spanIndex];
    const inside = span !== undefined && span.start < token.end && token.start < span.end;
    let tag: KeywordTag = 'O';
    if (inside) {
      tag = inSpan === span ? 'KI' : 'KB';
      inSpan = span;
    } else {
      inSpan = undefined;
    }
    return { text: text.slice(token.start, token.end), start: token.start, end: token.end, tag };
  });
}

/** The inverse of `toBioTags`: keyword spans from tagged tokens (a KI without a KB before it starts a span). */
export function fromBioTags(text: string, tokens: readonly TaggedToken[]): Array<{ text: string; start: number; end: number }> {
  const spans: Array<{ text: string; start: number; end: number }> = [];
  let current: { start: number; end: number } | undefined;
  const close = (): void => {
    if (current) spans.push({ text: text.slice(current.start, current.end), ...current });
    current = undefined;
  };
  for (const token of tokens) {
    if (token.tag === 'KB' || (token.tag === 'KI' && current === undefined)) {
      close();
      current = { start: token.start, end: token.end };
    } else if (token.tag === 'KI' && current) {
      current.end = token.end;
    } else {
      close();
    }
  }
  close();
  return spans;
}
