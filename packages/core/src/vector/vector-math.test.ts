import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/factkit-error.js';
import { cosineSimilarity, dotProduct, l2Norm, normalizeL2 } from './vector-math.js';

const pairOf = (value: fc.Arbitrary<number>) => fc.integer({ min: 1, max: 32 }).chain((n) => fc.tuple(fc.array(value, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n })));
const pair = pairOf(fc.double({ min: -1e3, max: 1e3, noNaN: true, noDefaultInfinity: true }));
// Any finite magnitude, down to subnormals and up to 1e300 (squares under- and overflow).
const widePair = pairOf(fc.double({ min: -1e300, max: 1e300, noNaN: true, noDefaultInfinity: true }));

describe('vector math', () => {
  it('computes hand-checked values', () => {
    expect(dotProduct([1, 2, 3], [4, -5, 6])).toBe(12);
    expect(dotProduct(new Float32Array([0.5, 0.25]), new Float32Array([2, 4]))).toBe(2);
    expect(l2Norm([3, 4])).toBe(5);
    expect(l2Norm(new Float32Array([1, 2, 2]))).toBe(3);
    expect(l2Norm([])).toBe(0);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [2, 2])).toBeCloseTo(1, 15);
    expect(cosineSimilarity([1, 0], [-3, 0])).toBe(-1);
    expect(cosineSimilarity([1, 2, 0], [1, 0, 0])).toBeCloseTo(1 / Math.sqrt(5), 15);
    expect(Array.from(normalizeL2([3, 4]))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  });

  it('treats the zero vector as having no direction', () => {
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0);
    expect(cosineSimilarity(new Float32Array(3), new Float32Array(3))).toBe(0);
    const zero = normalizeL2(new Float32Array([0, 0, 0]));
    expect(Array.from(zero)).toEqual([0, 0, 0]);
  });

  it('keeps its accuracy for magnitudes whose squares under- or overflow float64', () => {
    expect(l2Norm([1e-170])).toBe(1e-170);
    expect(l2Norm([3e-200, 4e-200])).toBeCloseTo(5e-200, 210);
    expect(l2Norm([1e200, 1e200]) / 1e200).toBeCloseTo(Math.SQRT2, 14);
    expect(cosineSimilarity([-2.2228569136538847e-162], [-7.590385913659272e-160])).toBe(1);
    expect(cosineSimilarity([1e-170, 0], [1e-170, 1e-170])).toBeCloseTo(Math.SQRT1_2, 14);
    expect(cosineSimilarity([1e200, 0], [1e200, 1e200])).toBeCloseTo(Math.SQRT1_2, 14);
    expect(Array.from(normalizeL2([3e-200, 4e-200]))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  });

  it('does not change its input', () => {
    const input = new Float32Array([3, 4]);
    const out = normalizeL2(input);
    expect(out).not.toBe(input);
    expect(Array.from(input)).toEqual([3, 4]);
  });

  it('rejects vectors of different lengths with InvalidArgumentError naming b', () => {
    expect(() => dotProduct([1, 2], [1])).toThrow(InvalidArgumentError);
    expect(() => cosineSimilarity(new Float32Array(2), new Float32Array(3))).toThrow(/b/);
  });

  it('property: dot is symmetric and dot(a, a) = |a|²', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(dotProduct(a, b)).toBe(dotProduct(b, a));
        const norm = l2Norm(a);
        expect(dotProduct(a, a)).toBeCloseTo(norm * norm, 6);
      }),
    );
  });

  it('property: cosine lies in [-1, 1], is symmetric and scale invariant', () => {
    fc.assert(
      fc.property(widePair, fc.double({ min: 0.01, max: 100, noNaN: true }), ([a, b], scale) => {
        const cos = cosineSimilarity(a, b);
        expect(cos).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(cos).toBeLessThanOrEqual(1 + 1e-12);
        expect(cosineSimilarity(b, a)).toBe(cos);
        // (scaling must not itself under- or overflow a's entries)
        if (l2Norm(b) > 0 && a.some((x) => x !== 0) && a.every((x) => x === 0 || (Math.abs(x) > 1e-290 && Math.abs(x) < 1e298)))
          expect(
            cosineSimilarity(
              a.map((x) => x * scale),
              b,
            ),
          ).toBeCloseTo(cos, 9);
      }),
    );
  });

  it('property: normalizeL2 gives unit length (or zero) and keeps the direction', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 64 }), (values) => {
        const vector = Float32Array.from(values);
        const unit = normalizeL2(vector);
        expect(unit.length).toBe(vector.length);
        if (l2Norm(vector) === 0) expect(l2Norm(unit)).toBe(0);
        else if (l2Norm(vector) > 1e-20) {
          expect(l2Norm(unit)).toBeCloseTo(1, 5);
          expect(cosineSimilarity(unit, vector)).toBeCloseTo(1, 5);
        }
      }),
    );
  });
});
