/**
 * Assembles bm25-kernel.wat into WebAssembly bytes. Run as a script to regenerate bm25-kernel-wasm.ts:
 * `pnpm --filter @factkit/retrieval run build:kernel`. Not part of the published library.
 */
import { fileURLToPath } from 'node:url';
import { assembleWat, writeKernelModule } from '../../internal/assemble-wat.js';

export const assembleBm25Kernel = (): Promise<Uint8Array> => assembleWat(new URL('./bm25-kernel.wat', import.meta.url), { simd: true });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeKernelModule(new URL('./bm25-kernel-wasm.ts', import.meta.url), {
    bytes: await assembleBm25Kernel(),
    script: 'assemble-bm25-kernel.ts',
    wat: 'bm25-kernel.wat',
    description: 'The BM25 accumulation kernel',
    features: 'SIMD',
    constant: 'BM25_KERNEL_WASM_BASE64',
  });
}
