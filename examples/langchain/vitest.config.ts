import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../tooling/vitest.shared.js';

export default defineConfig({ test: { ...sharedTestOptions, testTimeout: 120_000 } });
