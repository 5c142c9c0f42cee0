import { InvalidArgumentError } from '@factkit/core';
import { parseRun } from '@factkit/metrics';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuseRuns, fuseScores, type FusionMethod, type ScoredId } from './fuse-scores.js';

const bm25: ScoredId[] = [
  { id: 'a', score: 12 },
  { id: 'b', score: 9 },
  { id: 'c', score: 3 },
];
const dense: ScoredId[] = [
  { id: 'c', score: 0.9 },
  { id: 'a', score: 0.5 },
  { id: 'd', score: 0.1 },
];

// Fixed seed: the property runs are the same on every machine.
fc.configureGlobal({ seed: 20261122 });

const asObject = (list: ScoredId[]) => Object.fromEntries(list.map((item) => [item.id, item.score]));

describe('fuseScores (hand-checked)', () => {
  it('RRF with k = 60', () => {
    // a: 1/61 + 1/62, c: 1/63 + 1/61, b: 1/62, d: 1/63
    const fused = fuseScores([bm25, dense]);
    expect(fused.map((item) => item.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 15);
    expect(fused[1]!.score).toBeCloseTo(1 / 63 + 1 / 61, 15);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 15);
    expect(fused[3]!.score).toBeCloseTo(1 / 63, 15);
  });

  it('weighted RRF and a custom k', () => {
    // weights 1, 3; k = 0: a = 1/1 + 3/2 = 2.5, c = 1/3 + 3/1 = 3.333…, b = 1/2, d = 3/3 = 1
    const fused = fuseScores([bm25, dense], { method: 'rrf', k: 0, weights: [1, 3] });
    expect(asObject(fused)).toEqual({ a: 2.5, c: 1 / 3 + 3, b: 0.5, d: 1 });
    expect(fused.map((item) => item.id)).toEqual(['c', 'a', 'd', 'b']);
  });

  it('min-max fusion', () => {
    // bm25: a = 1, b = 6/9, c = 0; dense: c = 1, a = 0.4/0.8 = 0.5, d = 0
    const fused = asObject(fuseScores([bm25, dense], { method: 'min-max' }));
    expect(fused['a']).toBeCloseTo(1.5, 15);
    expect(fused['b']).toBeCloseTo(2 / 3, 15);
    expect(fused['c']).toBeCloseTo(1, 15);
    expect(fused['d']).toBe(0);
  });

  it('z-score fusion', () => {
    // bm25: mean 8, population std √14; dense: mean 0.5, std √(0.32/3)
    const sdB = Math.sqrt(((12 - 8) ** 2 + (9 - 8) ** 2 + (3 - 8) ** 2) / 3);
    const sdD = Math.sqrt((0.4 ** 2 + 0 + 0.4 ** 2) / 3);
    const fused = asObject(fuseScores([bm25, dense], { method: 'z-score', weights: [2, 1] }));
    expect(fused['a']).toBeCloseTo((2 * 4) / sdB + 0 / sdD, 12);
    expect(fused['b']).toBeCloseTo((2 * 1) / sdB, 12);
    expect(fused['c']).toBeCloseTo((2 * -5) / sdB + 0.4 / sdD, 12);
    expect(fused['d']).toBeCloseTo(-0.4 / sdD, 12);
  });

  it('CombSUM and CombMNZ, raw and min-max normalized', () => {
    const sumRaw = asObject(fuseScores([bm25, dense], { method: 'comb-sum', normalization: 'none' }));
    expect(sumRaw['a']).toBeCloseTo(12.5, 12);
    expect(sumRaw['c']).toBeCloseTo(3.9, 12);
    expect(sumRaw['b']).toBe(9);
    expect(sumRaw['d']).toBeCloseTo(0.1, 12);
    const mnzRaw = asObject(fuseScores([bm25, dense], { method: 'comb-mnz', normalization: 'none' }));
    expect(mnzRaw['a']).toBeCloseTo(25, 12);
    expect(mnzRaw['c']).toBeCloseTo(7.8, 12);
    expect(mnzRaw['b']).toBe(9);
    const mnz = asObject(fuseScores([bm25, dense], { method: 'comb-mnz' }));
    expect(mnz['a']).toBeCloseTo(3, 12); // (1 + 0.5) × 2
    expect(mnz['c']).toBeCloseTo(2, 12); // (0 + 1) × 2
    expect(mnz['b']).toBeCloseTo(2 / 3, 12);
  });

  it('depth cuts each list before fusing; single-valued lists normalize to 1', () => {
    expect(fuseScores([bm25, dense], { depth: 1 }).map((item) => item.id)).toEqual(['a', 'c']);
    expect(
      fuseScores(
        [
          [
            { id: 'x', score: 5 },
            { id: 'y', score: 5 },
          ],
        ],
        { method: 'min-max' },
      ),
    ).toEqual([
      { id: 'x', score: 1 },
      { id: 'y', score: 1 },
    ]);
  });

  it('handles no systems and empty lists', () => {
    expect(fuseScores([])).toEqual([]);
    expect(fuseScores([[], []], { method: 'z-score' })).toEqual([]);
  });

  it('rejects bad input naming the argument', () => {
    const argumentOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        return (error as InvalidArgumentError).argument;
      }
      return undefined;
    };
    expect(argumentOf(() => fuseScores([[{ id: 'a', score: Number.NaN }]]))).toBe('lists[0][0].score');
    expect(
      argumentOf(() =>
        fuseScores([
          [],
          [
            { id: 'a', score: 1 },
            { id: 'a', score: 2 },
          ],
        ]),
      ),
    ).toBe('lists[1][1].id');
    expect(argumentOf(() => fuseScores([[{ id: '', score: 1 }]]))).toBe('lists[0][0].id');
    expect(argumentOf(() => fuseScores([bm25, dense], { weights: [1] }))).toBe('weights');
    expect(argumentOf(() => fuseScores([bm25, dense], { weights: [1, -1] }))).toBe('weights[1]');
    expect(argumentOf(() => fuseScores([bm25], { method: 'borda' as FusionMethod }))).toBe('method');
    expect(argumentOf(() => fuseScores([bm25], { k: -1 }))).toBe('k');
    expect(argumentOf(() => fuseScores([bm25], { depth: 0 }))).toBe('depth');
  });
});

const listArb = fc
  .uniqueArray(fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), score: fc.double({ min: -100, max: 100, noNaN: true }) }), {
    selector: (item) => item.id,
    maxLength: 8,
  })
  .map((list) => list as ScoredId[]);
const methodArb = fc.constantFrom<FusionMethod>('rrf', 'min-max', 'z-score', 'comb-sum', 'comb-mnz');

describe('fuseScores (properties)', () => {
  it('returns each retrieved id once, sorted by score then id, finite scores', () => {
    fc.assert(
      fc.property(fc.array(listArb, { maxLength: 4 }), methodArb, (lists, method) => {
        const fused = fuseScores(lists, { method });
        const ids = new Set(lists.flat().map((item) => item.id));
        expect(new Set(fused.map((item) => item.id))).toEqual(ids);
        expect(fused).toHaveLength(ids.size);
        for (let i = 1; i < fused.length; i += 1) {
          const [previous, current] = [fused[i - 1]!, fused[i]!];
          expect(previous.score > current.score || (previous.score === current.score && previous.id < current.id)).toBe(true);
        }
        for (const item of fused) expect(Number.isFinite(item.score)).toBe(true);
      }),
    );
  });

  it('does not depend on the order of the systems or of items within a list', () => {
    fc.assert(
      fc.property(fc.array(listArb, { minLength: 1, maxLength: 4 }), methodArb, fc.integer(), (lists, method, seed) => {
        const shuffled = [...lists].reverse().map((list) => [...list].sort(() => ((seed = (seed * 1103515245 + 12345) | 0) & 1 ? 1 : -1)));
        // Same ids with the same scores (up to summation order); exact order may differ only between near-ties.
        const a = asObject(fuseScores(lists, { method }));
        const b = asObject(fuseScores(shuffled, { method }));
        expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
        for (const [id, score] of Object.entries(a)) expect(b[id]).toBeCloseTo(score, 9);
      }),
    );
  });

  it('fusing one system keeps its ranking (RRF, min-max) and RRF of a list with itself doubles scores', () => {
    fc.assert(
      fc.property(listArb, (list) => {
        const expectedOrder = [...list].sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).map((item) => item.id);
        expect(fuseScores([list]).map((item) => item.id)).toEqual(expectedOrder);
        const minMax = fuseScores([list], { method: 'min-max' });
        // ids keep their order, except that equal normalized scores are ordered by id
        for (let i = 1; i < minMax.length; i += 1) expect(minMax[i - 1]!.score).toBeGreaterThanOrEqual(minMax[i]!.score);
        const single = fuseScores([list]);
        const doubled = fuseScores([list, list]);
        doubled.forEach((item, i) => expect(item.score).toBeCloseTo(2 * single[i]!.score, 12));
      }),
    );
  });

  it('a zero weight removes a system; scaling all weights scales scores', () => {
    fc.assert(
      fc.property(listArb, listArb, methodArb, (first, second, method) => {
        const alone = fuseScores([first], { method });
        const zeroed = fuseScores([first, second], { method, weights: [1, 0] }).filter((item) => first.some((entry) => entry.id === item.id));
        if (method !== 'comb-mnz') expect(asObject(zeroed)).toEqual(asObject(alone));
        const base = asObject(fuseScores([first, second], { method, weights: [1, 1] }));
        const scaled = asObject(fuseScores([first, second], { method, weights: [2.5, 2.5] }));
        for (const [id, score] of Object.entries(base)) expect(scaled[id]).toBeCloseTo(2.5 * score, 9);
      }),
    );
  });
});

describe('fuseRuns', () => {
  it('fuses TREC runs query by query, including queries missing from a run', () => {
    const runA = { q1: { a: 12, b: 9, c: 3 }, q2: { x: 1 } };
    const runB = { q1: { c: 0.9, a: 0.5, d: 0.1 } };
    const fused = fuseRuns([runA, runB], { method: 'rrf' });
    expect(Object.keys(fused)).toEqual(['q1', 'q2']);
    expect(fused['q1']!['a']).toBeCloseTo(1 / 61 + 1 / 62, 15);
    expect(fused['q1']!['d']).toBeCloseTo(1 / 63, 15);
    expect(fused['q2']).toEqual({ x: 1 / 61 });
    expect(fuseRuns([runA, runB], { method: 'comb-sum', normalization: 'none' })['q1']).toEqual(asObject(fuseScores([bm25, dense], { method: 'comb-sum', normalization: 'none' })));
  });

  it('fuses runs read from TREC run files (CombMNZ, hand-checked)', () => {
    const bm25File = ['q7 Q0 d1 1 14.0 bm25', 'q7 Q0 d2 2 10.0 bm25', 'q7 Q0 d3 3 4.0 bm25'].join('\n');
    const denseFile = ['q7 Q0 d3 1 0.80 dense', 'q7 Q0 d4 2 0.60 dense', 'q7 Q0 d1 3 0.40 dense'].join('\n');
    const fused = fuseRuns([parseRun(bm25File), parseRun(denseFile)], { method: 'comb-mnz' });
    // min-max: bm25 d1 = 1, d2 = 0.6, d3 = 0; dense d3 = 1, d4 = 0.5, d1 = 0
    // CombMNZ: d1 = (1 + 0) × 2 = 2, d3 = (0 + 1) × 2 = 2, d2 = 0.6, d4 = 0.5
    expect(fused['q7']!['d1']).toBeCloseTo(2, 12);
    expect(fused['q7']!['d3']).toBeCloseTo(2, 12);
    expect(fused['q7']!['d2']).toBeCloseTo(0.6, 12);
    expect(fused['q7']!['d4']).toBeCloseTo(0.5, 12);
  });

  it('rejects a non-object run and mismatched weights', () => {
    expect(() => fuseRuns([null as unknown as Record<string, Record<string, number>>])).toThrow(/runs\[0\]/);
    expect(() => fuseRuns([{}, {}], { weights: [1] })).toThrow(/weights/);
  });
});
