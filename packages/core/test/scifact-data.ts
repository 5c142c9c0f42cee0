// SciFact rows (BEIR SciFact read in place from the data root) for the sentence-splitter test and its diff tool. Core
// cannot depend on @factkit/test-utils (it depends on core), so the data-root helper is imported by path.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { requireDataset } from '../../test-utils/src/data-root.js';

/** The rows of a gzipped JSONL file of the SciFact folder `directory` (default: the data root's scifact/). */
export const readSciFactJsonl = (name: string, directory: string = requireDataset('scifact')): unknown[] =>
  gunzipSync(readFileSync(join(directory, name)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
