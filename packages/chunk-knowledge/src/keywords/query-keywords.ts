import { InvalidArgumentError, type ItemProblem } from '@factkit/core';
import type { TaggedToken } from './bio-tags.js';
import { toBioTags } from './bio-tags.js';
import type { KeywordSpan, RakeOptions } from './rake.js';
import { extractRakeKeywords } from './rake.js';
import type { ChunkKnowledgeProblemCode } from '../problem-codes.js';

/** Keywords of one query as spans and as per-token BIO tags (KB / KI / O). */
export interface QueryKeywords {
  readonly query: string;
  /** Spans in query order. */
  readonly spans: readonly KeywordSpan[];
  readonly tokens: readonly TaggedToken[];
  /** `'rake (baseline)'` or the model step name. */
  readonly method: string;
  readonly problems: readonly ItemProblem<ChunkKnowledgeProblemCode>[];
}

/** Builds `QueryKeywords` from spans (sorted by position, overlaps merged). */
export function buildQueryKeywords(query: string, spans: readonly KeywordSpan[], method: string, problems: readonly ItemProblem<ChunkKnowledgeProblemCode>[] = []): QueryKeywords {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: KeywordSpan[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      if (span.end > last.end) merged[merged.length - 1] = { text: query.slice(last.start, span.end), start: last.start, end: span.end, score: Math.max(last.score, span.score) };
      continue;
    }
    merged.push(span);
  }
  return { query, spans: merged, tokens: toBioTags(query, merged), method, problems };
}

/**
 * LLM-free query keywords (baseline): RAKE phrases of the query, as spans and BIO tags. Not the paper's method,
 * which tags tokens with a fine-tuned T5 encoder; this is the classical keyphrase method named as such.
 * @example extractQueryKeywords('What causes fever in young children?').spans.map((s) => s.text) // ['causes fever', 'young children']
 */
export function extractQueryKeywords(query: string, options: RakeOptions = {}): QueryKeywords {
  if (typeof query !== 'string') throw new InvalidArgumentError({ where: 'extractQueryKeywords', argument: 'query', message: `must be a string (got ${typeof query})` });
  const spans = extractRakeKeywords(query, options);
  const problems: ItemProblem<ChunkKnowledgeProblemCode>[] = spans.length === 0 ? [{ code: 'no-keywords', message: 'no keyword outside stop words and punctuation' }] : [];
  return buildQueryKeywords(query, spans, 'rake (baseline)', problems);
}
