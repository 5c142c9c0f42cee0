// The float, int8 and BM25 kernels load their base64-embedded WebAssembly through core's helpers (shared with
// fasttrack's k-means kernel).
export { compileOnce, decodeBase64 } from '@factkit/core';
