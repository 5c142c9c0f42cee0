import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', node: 'src/node.ts', 'bm25-search-worker': 'src/bm25/bm25-search-worker.ts' },
  format: ['esm'],
  sourcemap: true,
  clean: ['!**/*.d.ts'], // declarations come from the workspace's one `tsc -b` (root `build:types`)
  target: 'es2022',
});
