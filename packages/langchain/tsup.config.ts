import { defineConfig } from 'tsup';

export default defineConfig({ entry: ['src/index.ts'], format: ['esm'], sourcemap: true, clean: ['!**/*.d.ts'], target: 'es2022' });
