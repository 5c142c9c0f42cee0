import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeWithData } from '../src/data-tests.js';
import { buildNliPairs, NLI_PAIR_DATASETS } from '../src/nli-pairs.js';

// The pairs the shipped nli-models weights were trained and held out on: any change to their construction (order,
// sampling, split, text) changes the weights' evaluation, so the whole output is pinned by its SHA-256.
describeWithData(['fever-lite', 'climate-fever', 'scifact', 'vitaminc-sample', 'mnli-sample'], 'buildNliPairs', (_directory, root) => {
  it('builds the same pairs, byte for byte, from the data root', () => {
    expect(NLI_PAIR_DATASETS).toEqual(['fever-lite', 'climate-fever', 'scifact', 'vitaminc-sample', 'mnli-sample']);
    const pairs = buildNliPairs(root);
    expect(pairs.length).toBe(9084);
    expect(createHash('sha256').update(JSON.stringify(pairs)).digest('hex')).toBe('b727d604340032863fe1ffd3bccb87fe74a56525dba69610dae4d95d93401162');
  });
});
