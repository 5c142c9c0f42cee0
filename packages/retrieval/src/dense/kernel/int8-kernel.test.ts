import { describe, expect, it } from 'vitest';
import { assembleInt8Kernel } from './assemble-int8-kernel.js';
import { createInt8Kernel, int8KernelBytes } from './load-int8-kernel.js';

describe('int8 kernel', () => {
  it('the embedded bytes are exactly what int8-kernel.wat assembles to', async () => {
    const assembled = await assembleInt8Kernel();
    expect(Buffer.from(int8KernelBytes()).equals(Buffer.from(assembled))).toBe(true);
  });

  it('computes exact int8 × int16 dot products for one and four queries (main loop, 16-byte tail, both kernels)', () => {
    for (const kind of ['wasm', 'js'] as const) {
      for (const stride of [16, 32, 48, 400]) {
        const kernel = createInt8Kernel(1 << 16, kind);
        const i8 = new Int8Array(kernel.buffer);
        const i16 = new Int16Array(kernel.buffer);
        const i32 = new Int32Array(kernel.buffer);
        const rows = 5;
        const matrix = 0;
        for (let i = 0; i < rows * stride; i += 1) i8[matrix + i] = ((i * 37) % 255) - 127;
        const queries = 8192; // byte offset
        for (let i = 0; i < 4 * stride; i += 1) i16[queries / 2 + i] = ((i * 9973) % 65535) - 32767;
        const expected = (row: number, query: number) => {
          let sum = 0;
          for (let k = 0; k < stride; k += 1) sum += (i8[matrix + row * stride + k] as number) * (i16[queries / 2 + query * stride + k] as number);
          return sum | 0;
        };
        const out = 32768;
        kernel.dot8(matrix, rows, stride, queries, out);
        for (let r = 0; r < rows; r += 1) expect(i32[out / 4 + r]).toBe(expected(r, 0));
        kernel.dot8x4(matrix, rows, stride, queries, out, 8);
        for (let q = 0; q < 4; q += 1) for (let r = 0; r < rows; r += 1) expect(i32[out / 4 + q * 8 + r]).toBe(expected(r, q));
        expect(kernel.kind).toBe(kind === 'wasm' ? 'wasm-simd' : 'js');
      }
    }
  });

  it('keeps its contents when it grows', () => {
    for (const kind of ['wasm', 'js'] as const) {
      const kernel = createInt8Kernel(100, kind);
      new Int8Array(kernel.buffer)[99] = -5;
      kernel.grow(300_000);
      expect(kernel.buffer.byteLength).toBeGreaterThanOrEqual(300_000);
      expect(new Int8Array(kernel.buffer)[99]).toBe(-5);
    }
  });
});
