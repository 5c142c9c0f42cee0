import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', node: 'src/node.ts', 'testing/index': 'src/testing/index.ts', 'contracts/index': 'src/contracts/index.ts' },
  format: ['esm'],
  sourcemap: true,
  clean: ['!**/*.d.ts'], // declarations come from the workspace's one `tsc -b` (root `build:types`)
  target: 'es2022',
});
