// SciFact rows (repo copy in datasets/scifact) for the sentence-splitter test and its diff tool.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const directory = new URL('../../../datasets/scifact/', import.meta.url);

/** The rows of a gzipped JSONL file of the SciFact folder. */
export const readSciFactJsonl = (name: string): unknown[] =>
  gunzipSync(readFileSync(new URL(name, directory)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
