import { describeWithData } from '@factkit/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TracingBenchmark } from '../src/benchmark.js';
import { buildTracingBenchmark, entityWords } from '../src/benchmark.js';

describeWithData(['fever-lite', 'climate-fever', 'scifact'], 'buildTracingBenchmark', (_feverLite, dataRoot) => {
  let benchmark: TracingBenchmark;
  beforeAll(() => {
    benchmark = buildTracingBenchmark({ dataRoot, size: 10_000, queryCount: 100 });
  });

  it('builds a 10k corpus of unique sentences with SciFact distractors and 100 SUPPORTS queries', () => {
    expect(benchmark.documents).toHaveLength(10_000);
    expect(new Set(benchmark.documents.map((document) => document.id)).size).toBe(10_000);
    expect(new Set(benchmark.documents.map((document) => document.text)).size).toBe(10_000);
    expect(benchmark.queries).toHaveLength(100);
    expect(benchmark.queries.filter((query) => query.source === 'climate-fever')).toHaveLength(50);
    expect(benchmark.stats['scifactDistractors']).toBe(4000);
  });

  it('keeps every gold sentence and the relevant-but-not-supporting sentences in the corpus', () => {
    const ids = new Set(benchmark.documents.map((document) => document.id));
    for (const query of benchmark.queries) {
      expect(query.gold.length).toBeGreaterThan(0);
      for (const id of [...query.gold, ...query.relevantNotSupporting]) expect(ids.has(id)).toBe(true);
      for (const id of query.relevantNotSupporting) expect(query.gold).not.toContain(id);
    }
    expect(benchmark.stats['sameEntityRefutes']).toBeGreaterThan(0);
    expect(benchmark.queries.some((query) => query.relevantNotSupporting.length > 0)).toBe(true);
  });

  it('is deterministic for a seed and scales to 50k', () => {
    const again = buildTracingBenchmark({ dataRoot, size: 10_000, queryCount: 100 });
    expect(again.queries.map((query) => query.claim)).toEqual(benchmark.queries.map((query) => query.claim));
    const large = buildTracingBenchmark({ dataRoot, size: 50_000, queryCount: 100 });
    expect(large.documents).toHaveLength(50_000);
    expect(large.queries.map((query) => query.claim)).toEqual(benchmark.queries.map((query) => query.claim));
  });
});

describe('entityWords', () => {
  it('reads entity words from a claim', () => {
    expect(entityWords('Coins of the Swiss franc are used in Liechtenstein.')).toEqual(['Swiss', 'Liechtenstein']);
  });
});
