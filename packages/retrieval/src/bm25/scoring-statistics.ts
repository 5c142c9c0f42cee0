import { type Bm25Parameters, VARIANT_CODE, computeDocumentFactor, computeIdf, computeKey, computeWeight } from './bm25-scoring.js';
import type { CompactedField } from './postings-store.js';
import { BLOCK_SIZE, type KernelField, type TfArray } from './search-kernel.js';
import { type DenseMirror, createDenseMirror } from './kernel/dense-mirror.js';
import { sharedFloat32, sharedFloat64 } from './shared-arrays.js';
import { LUCENE_LENGTH_TABLE, encodeLuceneLength } from './small-float.js';

/** Field size (postings) up to which `precomputeImpacts: 'auto'` stores per-posting scores: 8M postings = 32 MB. */
export const IMPACTS_AUTO_MAX_POSTINGS = 8_000_000;

let lastStateId = 0;

/**
 * Collection statistics and per-document factors for one (k1, b): what every search with those parameters scores with.
 * Built from the compacted postings; rebuilt when the postings or the parameters change.
 */
export interface ScoringStatistics {
  /** `${k1}|${b}` plus the postings version it was built for. */
  readonly key: string;
  /** Unique per built state in this process (worker threads cache their own copies of derived data by it). */
  readonly id: number;
  readonly parameters: Bm25Parameters;
  readonly variant: number;
  readonly kernelFields: KernelField[];
  readonly averageLengths: number[];
  readonly documentsWithField: number[];
  /** Per field, per term: max monotone key over its postings (NaN = not computed yet; filled lazily by query preparation). */
  readonly maxKeys: Float64Array[];
  /**
   * Per field, per term: the LOWER_BOUND_RANK-th largest monotone key over its postings (−∞ when it has fewer;
   * NaN = not computed yet; filled with `maxKeys`).
   */
  readonly kthKeys: Float64Array[];
  /** The postings copied into WebAssembly memory for the exhaustive dense path (small lucene indexes), or null. */
  readonly denseMirror: DenseMirror | null;
}

export function scoringKey(parameters: Pick<Bm25Parameters, 'k1' | 'b'>, version: number): string {
  return `${parameters.k1}|${parameters.b}|${version}`;
}

/**
 * Computes average lengths (Lucene: over documents having the field, in float32), per-document length factors
 * (through Lucene's one-byte length table when `lengthEncoding` is 'lucene') and, for the lucene variant, each
 * posting's exact float32 contribution at boost 1 (`impacts`) when `precomputeImpacts` asks for it.
 */
export function computeScoringStatistics(input: {
  readonly fields: readonly CompactedField[];
  readonly documentCount: number;
  readonly vocabularySize: number;
  readonly fieldWeights: readonly number[];
  readonly parameters: Bm25Parameters;
  readonly precomputeImpacts: 'auto' | boolean;
  readonly key: string;
}): ScoringStatistics {
  const { fields, documentCount, vocabularySize, fieldWeights, parameters: resolved, precomputeImpacts, key } = input;
  const variantCode = VARIANT_CODE[resolved.variant];
  const lucene = variantCode === 0;
  const k1Value = lucene ? Math.fround(resolved.k1) : resolved.k1;
  const bValue = lucene ? Math.fround(resolved.b) : resolved.b;
  const kernelFields: KernelField[] = [];
  const averageLengths: number[] = [];
  const documentsWithField: number[] = [];
  for (const field of fields) {
    let sum = 0;
    let withField = 0;
    for (let doc = 0; doc < documentCount; doc++) {
      const length = field.lengths[doc] as number;
      sum += length;
      if (length > 0) withField++;
    }
    // Lucene: avgdl = sumTotalTermFreq / docCount (docs having the field), in float32.
    const statisticsCount = lucene ? withField : documentCount;
    const averageLength = statisticsCount === 0 ? 1 : lucene ? Math.fround(sum / statisticsCount) : sum / statisticsCount;
    const factors = lucene ? sharedFloat32(documentCount) : sharedFloat64(documentCount);
    if (resolved.lengthEncoding === 'lucene') {
      const table = new Float64Array(256);
      for (let byte = 0; byte < 256; byte++) table[byte] = computeDocumentFactor(variantCode, LUCENE_LENGTH_TABLE[byte] as number, averageLength, k1Value, bValue);
      for (let doc = 0; doc < documentCount; doc++) factors[doc] = table[encodeLuceneLength(field.lengths[doc] as number)] as number;
    } else {
      for (let doc = 0; doc < documentCount; doc++) factors[doc] = computeDocumentFactor(variantCode, field.lengths[doc] as number, averageLength, k1Value, bValue);
    }
    // Lucene: every posting's contribution at query boost 1 (one float32 each, Lucene's exact arithmetic), so the
    // scan is one load and one add per posting; a list whose boost differs falls back to the formula.
    let impacts: Float32Array | undefined;
    const wantImpacts = precomputeImpacts === 'auto' ? field.postingDocs.length <= IMPACTS_AUTO_MAX_POSTINGS : precomputeImpacts;
    if (lucene && wantImpacts) {
      impacts = sharedFloat32(field.postingDocs.length);
      const fround = Math.fround;
      const { termOffsets, postingDocs, postingTfs } = field;
      const fieldWeight = fieldWeights[kernelFields.length] as number;
      const vocabulary = termOffsets.length - 1;
      for (let termId = 0; termId < vocabulary; termId++) {
        const start = termOffsets[termId] as number;
        const end = termOffsets[termId + 1] as number;
        if (end <= start) continue;
        const weight = computeWeight(0, fieldWeight, computeIdf(0, end - start, withField));
        for (let position = start; position < end; position++) {
          impacts[position] = fround(weight - fround(weight / fround(1 + fround((postingTfs[position] as number) * (factors[postingDocs[position] as number] as number)))));
        }
      }
    }
    const blockMaxKeys = computeBlockMaxKeys(variantCode, field.postingDocs, field.postingTfs, factors);
    kernelFields.push({ termOffsets: field.termOffsets, postingDocs: field.postingDocs, postingTfs: field.postingTfs, documentFactors: factors, blockMaxKeys, ...(impacts ? { impacts } : {}) });
    averageLengths.push(averageLength);
    documentsWithField.push(withField);
  }
  return {
    key,
    id: ++lastStateId,
    parameters: { ...resolved, k1: k1Value, b: bValue },
    variant: variantCode,
    kernelFields,
    averageLengths,
    documentsWithField,
    maxKeys: fields.map(() => new Float64Array(vocabularySize).fill(Number.NaN)),
    kthKeys: fields.map(() => new Float64Array(vocabularySize).fill(Number.NaN)),
    denseMirror: lucene ? createDenseMirror(kernelFields, documentCount) : null,
  };
}

/**
 * Block-max metadata: for every run of {@link BLOCK_SIZE} consecutive postings of the field (global positions, so a
 * block may straddle two terms), the largest monotone key `computeKey(tf, factor)`. `scoreFromKey(weight, key)` of it
 * bounds every posting's contribution in the block for any term weight, exactly as a list's `upperBound` does.
 * Computed with the scoring state (never saved), so saved indexes load unchanged.
 */
export function computeBlockMaxKeys(variant: number, postingDocs: Uint32Array, postingTfs: TfArray, factors: Float32Array | Float64Array): Float64Array {
  const total = postingDocs.length;
  const blocks = sharedFloat64(Math.ceil(total / BLOCK_SIZE));
  for (let block = 0, start = 0; start < total; block++, start += BLOCK_SIZE) {
    const end = Math.min(total, start + BLOCK_SIZE);
    let max = -Infinity;
    for (let position = start; position < end; position++) {
      const key = computeKey(variant, postingTfs[position] as number, factors[postingDocs[position] as number] as number);
      if (key > max) max = key;
    }
    blocks[block] = max;
  }
  return blocks;
}
