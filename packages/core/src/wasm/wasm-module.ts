// Loading embedded WebAssembly kernels (retrieval's dense and BM25 kernels, fasttrack's k-means kernel): the bytes are
// embedded as base64 text so no file needs loading, in Node or a browser, and each module is compiled once per process.

/** Decodes base64 text into bytes (the embedded kernels' form). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A getter that compiles the base64-embedded module on first use and returns it afterwards, or null where this engine
 * cannot compile it (no WebAssembly SIMD, or no shared memory for a kernel that declares one). The module is typed as
 * `object` (a `WebAssembly.Module` is assignable both ways, its interface being empty) so core's declarations do not
 * need the DOM library: a Node consumer with `lib: es2022` and @types/node type-checks them.
 */
export function compileOnce(base64: string): () => object | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled !== undefined) return compiled;
    try {
      compiled = new WebAssembly.Module(decodeBase64(base64));
    } catch {
      compiled = null;
    }
    return compiled;
  };
}
