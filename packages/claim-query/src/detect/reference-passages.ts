import type { Evidence, FieldedDocument, RetrieveRequest, RetrieveResult, Retriever, RetrieverFactory } from '@factkit/core';
import { LUCENE_ENGLISH_STOP_WORDS, segmentSentences, tokenizeWords } from '@factkit/core';

/**
 * RefChecker's three settings, per item: `corpus` (no context: search the retriever), `context` (the noisy passages the
 * answering model saw, e.g. a RAG system's retrieved context) and `reference` (an accurate source document).
 */
export type CheckMode = 'corpus' | 'context' | 'reference';

/** The passages an item carries (`reference` wins over `context`), or undefined when it carries none. */
export function itemPassages(item: { readonly reference?: unknown; readonly context?: unknown }): { mode: Exclude<CheckMode, 'corpus'>; passages: string[] } | undefined {
  for (const mode of ['reference', 'context'] as const) {
    const value = item[mode];
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
    const passages = list.map((p) => p.trim()).filter((p) => p.length > 0);
    if (passages.length > 0) return { mode, passages };
  }
  return undefined;
}

/** One window of a reference passage: `sentences` consecutive sentences of passage `passage`. */
export interface PassageWindow {
  readonly id: string;
  readonly passage: number;
  readonly text: string;
}

/**
 * Splits passages into overlapping windows of `windowSentences` consecutive sentences (stride 1), so a verifier compares a
 * claim with a few sentences rather than a whole document; a passage of at most `windowSentences` sentences is one window.
 * Without `windowSentences` every passage is kept whole (one window each). Window ids are `<itemId>:<mode>:<passage>` or
 * `<itemId>:<mode>:<passage>.<first sentence>`.
 */
export function splitPassages(itemId: string, mode: string, passages: readonly string[], windowSentences?: number): PassageWindow[] {
  const windows: PassageWindow[] = [];
  passages.forEach((passage, p) => {
    const sentences = windowSentences === undefined ? [] : segmentSentences(passage).map((span) => span.text);
    if (windowSentences === undefined || sentences.length <= windowSentences) {
      windows.push({ id: `${itemId}:${mode}:${p}`, passage: p, text: passage });
      return;
    }
    for (let start = 0; start + windowSentences <= sentences.length; start += 1) {
      windows.push({ id: `${itemId}:${mode}:${p}.${start}`, passage: p, text: sentences.slice(start, start + windowSentences).join(' ') });
    }
  });
  return windows;
}

/** The windows as fielded documents for a `RetrieverFactory` (one field, `text`), each with its typed origin. */
export function windowDocuments(windows: readonly PassageWindow[], itemId: string, mode: Exclude<CheckMode, 'corpus'>): FieldedDocument[] {
  return windows.map((window) => ({
    id: window.id,
    fields: { text: window.text },
    text: window.text,
    origin: { documentId: `${itemId}:${mode}:${window.passage}`, title: `${mode} passage ${window.passage + 1}`, source: { name: mode }, chunkId: window.id },
  }));
}

const STOP = new Set(LUCENE_ENGLISH_STOP_WORDS);

function contentWords(text: string): Set<string> {
  return new Set(tokenizeWords(text).filter((token) => !STOP.has(token)));
}

/**
 * The small scorer used when no `RetrieverFactory` is given: a window's score is the share of the query's content words
 * (lower-cased tokens, Lucene's English stop words removed; CJK characters one token each) it contains; windows sharing
 * no content word are not returned; ties keep passage order. Meant for the few windows of one item's reference, not
 * for a corpus (use a real index there).
 */
export function createOverlapRetriever(documents: readonly FieldedDocument[]): Retriever {
  const words = documents.map((document) => contentWords(document.text));
  return {
    id: 'reference-overlap',
    async retrieve(request: RetrieveRequest): Promise<RetrieveResult> {
      request.abortSignal?.throwIfAborted();
      const query = [...contentWords(request.query.text)];
      if (query.length === 0) return { evidence: [], problems: [{ code: 'empty-query', message: 'the query has no content word' }] };
      const scored = documents
        .map((document, position) => ({ document, score: query.filter((word) => words[position]!.has(word)).length / query.length }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, request.topK ?? 10);
      const evidence: Evidence[] = scored.map(({ document, score }, k) => ({ documentId: document.id, text: document.text, score, rank: k + 1, origin: document.origin }));
      return { evidence };
    },
  };
}

/** A retriever over one item's windows: through `factory` when given, else {@link createOverlapRetriever}. */
export async function createPassageRetriever(documents: readonly FieldedDocument[], factory: RetrieverFactory | undefined, abortSignal?: AbortSignal): Promise<Retriever> {
  if (!factory) return createOverlapRetriever(documents);
  return factory.createRetriever({ documents, fields: { text: 1 }, ...(abortSignal ? { abortSignal } : {}) });
}
