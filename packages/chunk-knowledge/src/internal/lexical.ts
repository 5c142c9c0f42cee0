import { stemPorterNltk } from '@factkit/metrics';
import { findWordTokens } from '../keywords/rake.js';
import { RAKE_ENGLISH_STOP_WORDS } from '../keywords/stop-words.js';

/** Lower-cased, Porter-stemmed word tokens without stop words: the terms of the in-package BM25. */
export function lexicalTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of findWordTokens(text)) if (!RAKE_ENGLISH_STOP_WORDS.has(token.lower)) terms.push(stemPorterNltk(token.lower));
  return terms;
}

/** Term frequencies of a token list. */
export function termFrequencies(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Lucene's BM25 idf: ln(1 + (N - df + 0.5) / (df + 0.5)). */
export function bm25Idf(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** BM25 term weight of one term in one field. */
export function bm25TermScore(idf: number, tf: number, length: number, averageLength: number, k1: number, b: number): number {
  if (tf === 0) return 0;
  const norm = averageLength > 0 ? 1 - b + (b * length) / averageLength : 1;
  return (idf * tf * (k1 + 1)) / (tf + k1 * norm);
}
