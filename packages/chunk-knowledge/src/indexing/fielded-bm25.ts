import { assertNonNegativeNumber, assertProbability, InvalidArgumentError, throwIfAborted } from '@factkit/core';
import type { Evidence, Retriever } from '@factkit/core';
import { bm25Idf, bm25TermScore, lexicalTerms, termFrequencies } from '../internal/lexical.js';
import type { AnnotatedChunk } from '../knowledge/types.js';
import type { LayoutField } from './layouts.js';

export interface FieldedBm25Options {
  /** Weight per field; a field left out (or weight 0) is not indexed. @default { title: 1, questions: 1, chunk: 1 } */
  readonly weights?: Readonly<Partial<Record<LayoutField, number>>>;
  /** @default 1.2 */
  readonly k1?: number;
  /** @default 0.75 */
  readonly b?: number;
}

/**
 * A lexical `Retriever` over annotated chunks with per-field weights: score = Σ_field weight × BM25(field), each field
 * with its own length statistics (like @factkit/retrieval's fielded BM25, whose fields are only `title` and `text`).
 * Terms: lower-cased, Porter-stemmed words (@factkit/metrics) without English stop words. Evidence `documentId` is the chunk id.
 * @throws InvalidArgumentError for negative weights, all weights 0, k1 < 0 or b outside [0, 1].
 */
export function createFieldedBm25Retriever(items: readonly AnnotatedChunk[], options: FieldedBm25Options = {}): Retriever & { readonly fieldCount: number; readonly postingCount: number } {
  const { weights = { title: 1, questions: 1, chunk: 1 }, k1 = 1.2, b = 0.75 } = options;
  const where = 'createFieldedBm25Retriever';
  assertNonNegativeNumber('k1', k1, where);
  assertProbability('b', b, where);
  const fields = (Object.entries(weights) as Array<[LayoutField, number]>).filter(([, weight]) => {
    if (typeof weight !== 'number' || !(weight >= 0)) throw new InvalidArgumentError({ where, argument: 'weights', message: `must be numbers >= 0 (got ${String(weight)})` });
    return weight > 0;
  });
  if (fields.length === 0) throw new InvalidArgumentError({ where, argument: 'weights', message: 'must give at least one field a weight > 0' });
  const count = items.length;
  const index = fields.map(([field, weight]) => {
    const postings = new Map<string, Array<{ doc: number; tf: number }>>();
    const lengths = new Uint32Array(count);
    items.forEach((item, doc) => {
      const text = field === 'title' ? item.title : field === 'questions' ? item.questions.join(' ') : item.chunk.text;
      const terms = lexicalTerms(text);
      lengths[doc] = terms.length;
      for (const [term, tf] of termFrequencies(terms)) {
        let list = postings.get(term);
        if (!list) postings.set(term, (list = []));
        list.push({ doc, tf });
      }
    });
    const averageLength = count === 0 ? 0 : lengths.reduce((sum, length) => sum + length, 0) / count;
    return { field, weight, postings, lengths, averageLength };
  });
  return {
    id: `fielded-bm25(${fields.map(([field, weight]) => `${field}:${weight}`).join(',')})`,
    fieldCount: fields.length,
    postingCount: index.reduce((sum, entry) => sum + [...entry.postings.values()].reduce((s, list) => s + list.length, 0), 0),
    async retrieve({ query, topK = 10, abortSignal }) {
      throwIfAborted(abortSignal);
      const scores = new Float64Array(count);
      const queryTerms = termFrequencies(lexicalTerms(query.text));
      if (queryTerms.size === 0) return { evidence: [], problems: [{ code: 'no-searchable-terms', message: 'the query has no terms outside stop words' }] };
      for (const entry of index) {
        for (const [term, queryTf] of queryTerms) {
          const list = entry.postings.get(term);
          if (!list) continue;
          const idf = bm25Idf(count, list.length);
          for (const { doc, tf } of list) scores[doc]! += queryTf * entry.weight * bm25TermScore(idf, tf, entry.lengths[doc]!, entry.averageLength, k1, b);
        }
      }
      const ranked: number[] = [];
      for (let doc = 0; doc < count; doc += 1) if (scores[doc]! > 0) ranked.push(doc);
      ranked.sort((x, y) => scores[y]! - scores[x]! || x - y);
      const evidence: Evidence[] = ranked.slice(0, topK).map((doc, position) => {
        const item = items[doc]!;
        return { documentId: item.chunk.id, text: item.chunk.text, title: item.title, score: scores[doc]!, rank: position + 1, metadata: { documentId: item.chunk.documentId, questions: item.questions } };
      });
      return { evidence };
    },
  };
}
