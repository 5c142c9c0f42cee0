import { describe, expect, it } from 'vitest';
import { compileOnce, decodeBase64 } from './wasm-module.js';

describe('embedded WebAssembly helpers', () => {
  it('decodes base64 into the bytes it encodes', () => {
    expect(Array.from(decodeBase64('AGFzbQEAAAA='))).toEqual([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    expect(decodeBase64('').length).toBe(0);
  });

  it('compiles a module once and returns the same one afterwards; null when the bytes do not compile', () => {
    const empty = compileOnce('AGFzbQEAAAA='); // the smallest valid module: magic + version
    const first = empty();
    expect(first).toBeInstanceOf(WebAssembly.Module);
    expect(empty()).toBe(first);
    const broken = compileOnce('AGFzbQIAAAA='); // version 2 does not exist
    expect(broken()).toBeNull();
    expect(broken()).toBeNull();
  });
});
