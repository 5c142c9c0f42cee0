/**
 * Writes output/pairs.jsonl: the labelled NLI pairs the offline classifier is trained and evaluated on, built by
 * buildNliPairs (@factkit/test-utils/nli-pairs; construction and split documented there) from the data root
 * (fever-lite/, climate-fever/, scifact/, vitaminc-sample/, mnli-sample/), read in place. Deterministic.
 *   pnpm --filter nli-classifier build-pairs [-- --data <root>]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetArgument } from '@factkit/test-utils/data';
import { NLI_PAIR_DATASETS, buildNliPairs } from '@factkit/test-utils/nli-pairs';
import { OUTPUT_DIR } from './shared.js';

const { values } = parseArgs({ options: { data: { type: 'string' } } });
const dataRoot = values.data ?? dirname(NLI_PAIR_DATASETS.map((name) => datasetArgument(name, undefined, '--data <root>'))[0] as string);
const pairs = buildNliPairs(dataRoot);

mkdirSync(OUTPUT_DIR, { recursive: true });
writeFileSync(join(OUTPUT_DIR, 'pairs.jsonl'), `${pairs.map((pair) => JSON.stringify(pair)).join('\n')}\n`);
const counts: Record<string, Record<string, number>> = {};
for (const pair of pairs) {
  const key = `${pair.split}`;
  counts[key] ??= {};
  counts[key][pair.label] = (counts[key][pair.label] ?? 0) + 1;
}
const bySource: Record<string, number> = {};
for (const pair of pairs) bySource[pair.source] = (bySource[pair.source] ?? 0) + 1;
process.stdout.write(`${JSON.stringify({ total: pairs.length, counts, bySource }, null, 2)}\n`);
