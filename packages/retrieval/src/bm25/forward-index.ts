import type { CompactedField } from './postings-store.js';

/** Document → (term id, tf) pairs in CSR form, inverted from the postings. */
export interface ForwardIndex {
  readonly offsets: Uint32Array;
  readonly terms: Uint32Array;
  readonly tfs: Uint32Array;
}

/** Inverts the postings of every field (RM3 reads documents' term vectors); one pass to count, one to fill. */
export function buildForwardIndex(fields: readonly CompactedField[], documentCount: number): ForwardIndex {
  const counts = new Uint32Array(documentCount + 1);
  for (const field of fields) {
    for (let position = 0; position < field.postingDocs.length; position++) {
      const slot = (field.postingDocs[position] as number) + 1;
      counts[slot] = (counts[slot] as number) + 1;
    }
  }
  for (let index = 1; index <= documentCount; index++) counts[index] = (counts[index] as number) + (counts[index - 1] as number);
  const total = counts[documentCount] as number;
  const forwardTerms = new Uint32Array(total);
  const forwardTfs = new Uint32Array(total);
  const cursor = counts.slice(0, documentCount);
  for (const field of fields) {
    const vocabulary = field.termOffsets.length - 1;
    for (let term = 0; term < vocabulary; term++) {
      for (let position = field.termOffsets[term] as number; position < (field.termOffsets[term + 1] as number); position++) {
        const d = field.postingDocs[position] as number;
        const write = cursor[d] as number;
        forwardTerms[write] = term;
        forwardTfs[write] = field.postingTfs[position] as number;
        cursor[d] = write + 1;
      }
    }
  }
  return { offsets: counts, terms: forwardTerms, tfs: forwardTfs };
}

/** Term → frequency of document `doc`, summed over fields. */
export function readTermFrequencies(forward: ForwardIndex, terms: readonly string[], doc: number): Map<string, number> {
  const result = new Map<string, number>();
  for (let position = forward.offsets[doc] as number; position < (forward.offsets[doc + 1] as number); position++) {
    const term = terms[forward.terms[position] as number] as string;
    result.set(term, (result.get(term) ?? 0) + (forward.tfs[position] as number));
  }
  return result;
}
