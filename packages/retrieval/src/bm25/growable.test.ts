import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowableUint, GrowableUint32 } from './growable.js';

describe('growable build buffers', () => {
  it('GrowableUint keeps every pushed value, widening Uint8 → Uint16 → Uint32 only when a value needs it', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 2 ** 32 - 1 })), { maxLength: 200 }), fc.integer({ min: 1, max: 40 }), (values, capacity) => {
        const array = new GrowableUint(capacity);
        for (const value of values) array.push(value);
        expect(Array.from(array.view())).toEqual(values);
        const max = Math.max(0, ...values);
        expect(array.view().BYTES_PER_ELEMENT).toBe(max < 256 ? 1 : max < 65536 ? 2 : 4);
      }),
    );
  });
  it('GrowableUint32 keeps every pushed value across growth', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 200 }), (values) => {
        const array = new GrowableUint32(1);
        for (const value of values) array.push(value);
        expect(Array.from(array.view())).toEqual(values);
        values.forEach((value, position) => expect(array.get(position)).toBe(value));
      }),
    );
  });
});
