import { computeKey, scoreFromKey } from './bm25-scoring.js';
import type { Bm25Explanation, Bm25TermExplanation } from './bm25-index.js';
import type { CompactedField } from './postings-store.js';
import type { PreparedQuery } from './query-preparation.js';
import type { ScoringStatistics } from './scoring-statistics.js';
import type { KernelField } from './search-kernel.js';
import { LUCENE_LENGTH_TABLE, encodeLuceneLength } from './small-float.js';

/** One document's score for a prepared query, term by term (binary search for the document in each posting list). */
export function explainDocument(input: {
  readonly id: string;
  readonly doc: number;
  readonly prepared: PreparedQuery;
  readonly statistics: ScoringStatistics;
  readonly fields: readonly CompactedField[];
  readonly fieldNames: readonly string[];
}): Bm25Explanation {
  const { id, doc, prepared, statistics: state, fields, fieldNames } = input;
  const { variant: variantCode } = state;
  const explanations: Bm25TermExplanation[] = [];
  let total = 0;
  prepared.lists.forEach((list, index) => {
    const info = prepared.listInfo[index] as PreparedQuery['listInfo'][number];
    const field = prepared.kernelFields[list.field] as KernelField;
    let low = list.start;
    let high = list.end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((field.postingDocs[middle] as number) < doc) low = middle + 1;
      else high = middle;
    }
    const tf = low < list.end && field.postingDocs[low] === doc ? (field.postingTfs[low] as number) : 0;
    const length = (fields[list.field] as CompactedField).lengths[doc] as number;
    const score = tf === 0 ? 0 : scoreFromKey(variantCode, list.weight, computeKey(variantCode, tf, field.documentFactors[doc] as number), prepared.kernelParameters.k1, prepared.kernelParameters.delta);
    total += score;
    explanations.push({
      term: info.term,
      field: fieldNames[list.field] as string,
      tf,
      df: info.df,
      idf: info.idf,
      documentLength: length,
      scoredLength: state.parameters.lengthEncoding === 'lucene' ? (LUCENE_LENGTH_TABLE[encodeLuceneLength(length)] as number) : length,
      averageLength: state.averageLengths[list.field] as number,
      boost: info.boost,
      score,
    });
  });
  return { id, score: total, terms: explanations };
}
