/**
 * Assembles int8-kernel.wat into WebAssembly bytes. Run as a script to regenerate int8-kernel-wasm.ts:
 * `pnpm --filter @factkit/retrieval run build:kernel`. Not part of the published library.
 */
import { fileURLToPath } from 'node:url';
import { assembleWat, writeKernelModule } from '../../internal/assemble-wat.js';

export const assembleInt8Kernel = (): Promise<Uint8Array> => assembleWat(new URL('./int8-kernel.wat', import.meta.url), { simd: true });

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeKernelModule(new URL('./int8-kernel-wasm.ts', import.meta.url), {
    bytes: await assembleInt8Kernel(),
    script: 'assemble-int8-kernel.ts',
    wat: 'int8-kernel.wat',
    description: 'The int8 × int16 dot-product kernel',
    features: 'SIMD',
    constant: 'INT8_KERNEL_WASM_BASE64',
  });
}
