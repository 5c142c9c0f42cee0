import { type Analyzer, tokenizeStandard } from '@factkit/retrieval';

/** A run of text, marked when one of its analysed terms is a query term. */
export interface TextSegment {
  readonly text: string;
  readonly hit: boolean;
}

/**
 * Splits `text` into segments, marking each word whose analysed form (the index's analyzer: lower case, stop words,
 * Porter stem) is one of `queryTerms`, so "deficiency" is marked for the claim word "deficient" (both stem to
 * "defici") and "the" never is. Every character of `text` is in exactly one segment, in order.
 * @example highlightTerms('Vitamin D deficiency', new Set(['vitamin']), analyzer) // [{ text: 'Vitamin', hit: true }, { text: ' D deficiency', hit: false }]
 */
export function highlightTerms(text: string, queryTerms: ReadonlySet<string>, analyzer: Analyzer): TextSegment[] {
  const segments: TextSegment[] = [];
  let plainStart = 0;
  for (const token of tokenizeStandard(text)) {
    if (!analyzer.analyze(token.text).some((term) => queryTerms.has(term))) continue;
    if (token.start > plainStart) segments.push({ text: text.slice(plainStart, token.start), hit: false });
    segments.push({ text: text.slice(token.start, token.end), hit: true });
    plainStart = token.end;
  }
  if (plainStart < text.length) segments.push({ text: text.slice(plainStart), hit: false });
  return segments;
}
