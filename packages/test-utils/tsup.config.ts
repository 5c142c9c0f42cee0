import { defineConfig } from 'tsup';

export default defineConfig({ entry: ['src/index.ts', 'src/data.ts', 'src/nli-pairs.ts'], format: ['esm'], sourcemap: true, clean: ['!**/*.d.ts'], target: 'es2022', external: ['vitest'] });
