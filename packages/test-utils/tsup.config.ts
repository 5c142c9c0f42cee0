import { defineConfig } from 'tsup';

export default defineConfig({ entry: ['src/index.ts', 'src/data.ts', 'src/nli-pairs.ts'], format: ['esm'], dts: true, sourcemap: true, clean: true, target: 'es2022', external: ['vitest'] });
