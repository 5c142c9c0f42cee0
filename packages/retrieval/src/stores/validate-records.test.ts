import { FactkitError, InvalidArgumentError } from '@factkit/core';
import { describe, expect, it } from 'vitest';
import { checkStoreIds, checkStoreMetric, checkStoreRecords, checkStoreVector, onceUntilFailure } from './validate-records.js';

describe('shared vector-store validation', () => {
  it('checks vectors, records, metric and ids, naming the argument', () => {
    expect(() => checkStoreVector([1, 2], 2, 'w', 'vector')).toThrow(/must be a Float32Array/);
    expect(() => checkStoreVector(new Float32Array([1, Number.NaN]), 2, 'w', 'vector')).toThrow(/index 1/);
    expect(() =>
      checkStoreRecords(
        [
          { id: 'a', vector: new Float32Array(2) },
          { id: 'a', vector: new Float32Array(2) },
        ],
        2,
        'w',
      ),
    ).toThrow(/duplicates id "a"/);
    expect(checkStoreMetric('cosine', 'w')).toBe('cosine');
    expect(() => checkStoreMetric('l2', 'w')).toThrow(InvalidArgumentError);
    expect(checkStoreIds(['a', 'b'], 'w')).toEqual(['a', 'b']);
    expect(() => checkStoreIds(['a', 3], 'w')).toThrow(/ids/);
    expect(() => checkStoreIds('a', 'w')).toThrow(InvalidArgumentError);
  });

  it('onceUntilFailure runs setup once, and again after a failure, reporting load_failed', async () => {
    let calls = 0;
    let fail = true;
    const ready = onceUntilFailure(async () => {
      calls += 1;
      if (fail) throw new Error('unreachable');
    }, 'store: could not set up');
    const error = await ready().catch((caught: unknown) => caught);
    expect(FactkitError.isInstance(error) && error.code).toBe('load_failed');
    expect((error as Error).message).toContain('store: could not set up: unreachable');
    fail = false;
    await ready();
    await ready();
    expect(calls).toBe(2);
  });
});
