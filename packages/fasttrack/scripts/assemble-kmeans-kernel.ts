/**
 * Assembles src/clustering/kernel/kmeans-kernel.wat into WebAssembly bytes. Run as a script to regenerate
 * kmeans-kernel-wasm.ts: `pnpm --filter @factkit/fasttrack run build:kernel`. Not part of the published library.
 * Reuses @factkit/retrieval's assembly helper (and its `wabt` dev dependency) by path: a build-time tool, not an import
 * of the library, so the layering (fasttrack imports only core and metrics) holds for everything that ships.
 */
import { fileURLToPath } from 'node:url';
import { assembleWat, writeKernelModule } from '../../retrieval/src/internal/assemble-wat.js';

export const assembleKMeansKernel = (): Promise<Uint8Array> => assembleWat(new URL('../src/clustering/kernel/kmeans-kernel.wat', import.meta.url), { simd: true });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeKernelModule(new URL('../src/clustering/kernel/kmeans-kernel-wasm.ts', import.meta.url), {
    bytes: await assembleKMeansKernel(),
    script: 'scripts/assemble-kmeans-kernel.ts',
    wat: 'kmeans-kernel.wat',
    description: 'The k-means kernel',
    features: 'SIMD',
    constant: 'KMEANS_KERNEL_WASM_BASE64',
    command: 'pnpm --filter @factkit/fasttrack run build:kernel',
  });
}
