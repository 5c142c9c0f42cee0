import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../analysis/analyzer.js';
import { createBm25Index } from './bm25-index.js';
import { createBm25WorkerPool } from './bm25-worker-pool.js';
import { getIndexState } from './index-state.js';

const whitespace: Analyzer = { id: 'whitespace', analyze: (text) => text.split(/\s+/).filter(Boolean) };
const worker = new URL('../../dist/bm25-search-worker.js', import.meta.url);

// Workers run the BUILT script: the package's test task runs after its build (turbo.json: test dependsOn build), so a
// missing dist/bm25-search-worker.js fails this test instead of skipping it. (searchBatch = search is checked without a
// build in bm25-index.test.ts.)
describe('createBm25WorkerPool (built worker)', () => {
  it('returns exactly what single-threaded searchBatch returns, in order, for every strategy, over several chunks', async () => {
    expect(existsSync(fileURLToPath(worker)), 'dist/bm25-search-worker.js is missing: build the package first (pnpm --filter @factkit/retrieval build)').toBe(true);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const documents = Array.from({ length: 2000 }, (_, index) => ({ id: `d${index}`, text: Array.from({ length: 30 }, () => `t${Math.floor(random() ** 3 * 500)}`).join(' ') }));
    const index = createBm25Index({ analyzer: whitespace, documents });
    const queries = Array.from({ length: 50 }, () => Array.from({ length: 2 + Math.floor(random() * 5) }, () => `t${Math.floor(random() ** 2 * 500)}`).join(' '));
    queries.push('');
    // What the pool posts to the threads: postings, impacts and factors are views of SharedArrayBuffers (shared, not copied per batch).
    for (const field of getIndexState(index, 'test').prepare('t1').kernelFields) {
      for (const array of [field.termOffsets, field.postingDocs, field.postingTfs, field.documentFactors, field.impacts]) expect(array?.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    const pool = await createBm25WorkerPool(index, { threads: 2, workerUrl: worker });
    try {
      for (const strategy of ['auto', 'maxscore', 'maxscore-daat', 'exhaustive'] as const) {
        expect(await pool.searchBatch(queries, { topK: 10, strategy })).toEqual(index.searchBatch(queries, { topK: 10, strategy }));
      }
      index.addDocument({ id: 'new', text: 't1 t1 t1' });
      expect(await pool.searchBatch(['t1'], { topK: 3 })).toEqual(index.searchBatch(['t1'], { topK: 3 }));
      await expect(pool.searchBatch(['t1'], { topK: 0 })).rejects.toThrow(/"topK"/);
    } finally {
      await pool.close();
    }
  });
});
