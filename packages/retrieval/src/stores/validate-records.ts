import { assertNonEmptyString, assertNonNegativeInteger, FactkitError, InvalidArgumentError, type VectorRecord } from '@factkit/core';

/** Checks one vector: a Float32Array of `dimensions` finite numbers. Throws InvalidArgumentError naming `argument`. */
export function checkStoreVector(vector: unknown, dimensions: number, where: string, argument: string): Float32Array {
  if (!(vector instanceof Float32Array)) throw new InvalidArgumentError({ where, argument, message: 'must be a Float32Array' });
  if (vector.length !== dimensions) {
    throw new InvalidArgumentError({ where, argument, message: `has ${vector.length} dimensions, expected ${dimensions}` });
  }
  for (let i = 0; i < vector.length; i += 1) {
    if (!Number.isFinite(vector[i])) {
      throw new InvalidArgumentError({ where, argument, message: `contains NaN or Infinity at index ${i} (every value must be finite)` });
    }
  }
  return vector;
}

/** Validates a whole upsert batch before anything is written: ids non-empty and unique, vectors well formed. */
export function checkStoreRecords(records: unknown, dimensions: number, where: string): readonly VectorRecord[] {
  if (!Array.isArray(records)) throw new InvalidArgumentError({ where, argument: 'records', message: 'must be an array' });
  const seen = new Set<string>();
  records.forEach((record: Partial<VectorRecord> | undefined, index) => {
    assertNonEmptyString(`records[${index}].id`, record?.id, where);
    if (seen.has(record.id)) {
      throw new InvalidArgumentError({ where, argument: `records[${index}].id`, message: `duplicates id "${record.id}" within one upsert` });
    }
    seen.add(record.id);
    checkStoreVector(record.vector, dimensions, where, `records[${index}].vector`);
  });
  return records as readonly VectorRecord[];
}

/** Validates `topK` (an integer >= 0). */
export function checkStoreTopK(topK: unknown, where: string): number {
  assertNonNegativeInteger('topK', topK, where);
  return topK;
}

/** Validates a store's `metric` option: 'cosine' or 'inner-product'. */
export function checkStoreMetric(metric: unknown, where: string): 'cosine' | 'inner-product' {
  if (metric !== 'cosine' && metric !== 'inner-product') {
    throw new InvalidArgumentError({ where, argument: 'metric', message: `must be 'cosine' or 'inner-product' (got ${String(metric)})` });
  }
  return metric;
}

/** Validates the ids of a delete: an array of strings. */
export function checkStoreIds(ids: unknown, where: string): readonly string[] {
  if (!Array.isArray(ids) || !ids.every((value) => typeof value === 'string')) {
    throw new InvalidArgumentError({ where, argument: 'ids', message: 'must be an array of strings' });
  }
  return ids as readonly string[];
}

/**
 * Runs `setup` once, on first need, and shares its promise; when it fails the next call tries again (so a store
 * whose database was briefly unreachable recovers). The failure is rethrown as `load_failed` with `describe` first.
 */
export function onceUntilFailure(setup: () => Promise<void>, describe: string): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () => {
    ready ??= setup().catch((error: unknown) => {
      ready = undefined;
      throw new FactkitError('load_failed', `${describe}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    return ready;
  };
}
