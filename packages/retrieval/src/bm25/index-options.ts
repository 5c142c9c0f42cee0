import { assertNonNegativeNumber, assertPositiveInteger, assertProbability, InvalidArgumentError } from '@factkit/core';
import { type Analyzer, createEnglishAnalyzer } from '../analysis/analyzer.js';
import { BM25_VARIANTS, type Bm25Parameters } from './bm25-scoring.js';
import type { Bm25FieldWeights, Bm25IndexOptions, Bm25SearchOptions } from './bm25-index.js';

/** Index options checked and defaulted once, at creation. */
export interface ResolvedIndexOptions {
  readonly analyzer: Analyzer;
  readonly fieldNames: string[];
  readonly fieldWeights: number[];
  /** Title and text indexed as one field (`fields: 'flat'`). */
  readonly flat: boolean;
  readonly parameters: Bm25Parameters;
  readonly storeDocuments: boolean;
  readonly precomputeImpacts: 'auto' | boolean;
  readonly mergePendingAt: number;
}

/** Default of {@link Bm25IndexOptions.mergePendingAt}: 2²³ pending postings (~42 MB of build buffers). */
export const DEFAULT_MERGE_PENDING_AT = 2 ** 23;

const WHERE = 'createBm25Index';

export function validateParameters(where: string, k1: number, b: number, delta: number): void {
  assertNonNegativeNumber('k1', k1, where);
  assertProbability('b', b, where);
  assertNonNegativeNumber('delta', delta, where);
}

function resolveFields(fields: Bm25FieldWeights): { names: string[]; weights: number[] } {
  if (fields === 'flat') return { names: ['contents'], weights: [1] };
  if (typeof fields !== 'object' || fields === null) throw new InvalidArgumentError({ where: WHERE, argument: 'fields', message: `must be 'flat' or weights per named field (got ${String(fields)})` });
  const names: string[] = [];
  const weights: number[] = [];
  for (const name of Object.keys(fields)) {
    if (name.length === 0 || name === 'contents') throw new InvalidArgumentError({ where: WHERE, argument: 'fields', message: `has a reserved or empty field name "${name}"` });
    const weight = fields[name];
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0) throw new InvalidArgumentError({ where: WHERE, argument: `fields.${name}`, message: `must be a finite number > 0 (got ${String(weight)})` });
    names.push(name);
    weights.push(weight);
  }
  if (names.length === 0) throw new InvalidArgumentError({ where: WHERE, argument: 'fields', message: 'must name at least one field' });
  return { names, weights };
}

/**
 * Checks and defaults {@link Bm25IndexOptions}.
 * @throws InvalidArgumentError for out-of-range k1, b, delta, unknown variants, length encodings or fields, or a non-analyzer.
 */
export function resolveIndexOptions(options: Bm25IndexOptions): ResolvedIndexOptions {
  const { analyzer = createEnglishAnalyzer(), fields = 'flat', variant = 'lucene', storeDocuments = true, precomputeImpacts = 'auto', mergePendingAt = DEFAULT_MERGE_PENDING_AT } = options;
  if (!BM25_VARIANTS.includes(variant)) throw new InvalidArgumentError({ where: WHERE, argument: 'variant', message: `must be one of ${BM25_VARIANTS.join(', ')} (got ${String(variant)})` });
  const { k1 = 0.9, b = 0.4, delta = variant === 'bm25l' ? 0.5 : 1 } = options;
  const lengthEncoding = options.lengthEncoding ?? (variant === 'lucene' ? 'lucene' : 'exact');
  if (lengthEncoding !== 'lucene' && lengthEncoding !== 'exact') throw new InvalidArgumentError({ where: WHERE, argument: 'lengthEncoding', message: `must be 'lucene' or 'exact' (got ${String(lengthEncoding)})` });
  validateParameters(WHERE, k1, b, delta);
  if (options.fieldText !== undefined && typeof options.fieldText !== 'function') throw new InvalidArgumentError({ where: WHERE, argument: 'fieldText', message: 'must be a function (document, field) => string' });
  if (typeof analyzer !== 'object' || analyzer === null || typeof analyzer.analyze !== 'function') throw new InvalidArgumentError({ where: WHERE, argument: 'analyzer', message: 'must be an Analyzer ({ id, analyze(text) })' });
  if (mergePendingAt !== Number.POSITIVE_INFINITY && (typeof mergePendingAt !== 'number' || !Number.isInteger(mergePendingAt) || mergePendingAt < 1))
    throw new InvalidArgumentError({ where: WHERE, argument: 'mergePendingAt', message: `must be a positive integer or Infinity (got ${String(mergePendingAt)})` });
  const { names, weights } = resolveFields(fields);
  return { analyzer, fieldNames: names, fieldWeights: weights, flat: fields === 'flat', parameters: { k1, b, variant, delta, lengthEncoding }, storeDocuments, precomputeImpacts, mergePendingAt };
}

/** The index's parameters with a search's `k1`/`b` overrides applied (checked when given). */
export function resolveSearchParameters(parameters: Bm25Parameters, overrides: Pick<Bm25SearchOptions, 'k1' | 'b'> = {}, where = 'Bm25Index.search'): Bm25Parameters {
  const k1 = overrides.k1 ?? parameters.k1;
  const b = overrides.b ?? parameters.b;
  if (overrides.k1 !== undefined || overrides.b !== undefined) validateParameters(where, k1, b, parameters.delta);
  return { ...parameters, k1, b };
}

/** Checks `topK` (default 10). */
export function validateTopK(topK: unknown, where: string): number {
  if (topK === undefined) return 10;
  assertPositiveInteger('topK', topK, where);
  return topK;
}
