/**
 * Assembles dot-kernel.wat into WebAssembly bytes. Run as a script to regenerate dot-kernel-wasm.ts:
 * `pnpm --filter @factkit/retrieval run build:kernel`. Not part of the published library.
 */
import { fileURLToPath } from 'node:url';
import { assembleWat, writeKernelModule } from '../../internal/assemble-wat.js';

export const assembleDotKernel = (): Promise<Uint8Array> => assembleWat(new URL('./dot-kernel.wat', import.meta.url), { simd: true, threads: true });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeKernelModule(new URL('./dot-kernel-wasm.ts', import.meta.url), {
    bytes: await assembleDotKernel(),
    script: 'assemble-kernel.ts',
    wat: 'dot-kernel.wat',
    description: 'The dot-product kernel',
    features: 'SIMD and shared memory',
    constant: 'DOT_KERNEL_WASM_BASE64',
  });
}
