import { defineConfig } from 'tsup';

export default defineConfig({ entry: ['src/index.ts', 'src/node.ts'], format: ['esm'], dts: true, sourcemap: true, clean: true, target: 'es2022' });
