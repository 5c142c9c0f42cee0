import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The pair construction and its helpers live in @factkit/test-utils/nli-pairs (nli-models' held-out test rebuilds the
// same pairs from the data root).
export type { LabelledPair } from '@factkit/test-utils/nli-pairs';
export { detokenizeFever, normalizeClaim, readJsonl, shuffle, splitOf } from '@factkit/test-utils/nli-pairs';

export const EXAMPLE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = join(EXAMPLE_DIR, '..', '..');
export const OUTPUT_DIR = join(EXAMPLE_DIR, 'output');
export const CACHE_DIR = join(EXAMPLE_DIR, '.cache');
