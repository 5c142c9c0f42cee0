import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
  format: ['esm'],
  sourcemap: true,
  clean: ['!**/*.d.ts'], // declarations come from the workspace's one `tsc -b` (root `build:types`)
  target: 'es2022',
  // GloVe (294 MB of vectors) is optional: users install @factkit/glove to use `--embedder glove`; never bundled.
  external: ['@factkit/glove'],
});
