import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { datasetArgument, type DatasetName, requireDataset } from '@factkit/test-utils/data';

/** The scripts' `--data <root>`, when given. */
function givenDataRoot(): string | undefined {
  const position = process.argv.indexOf('--data');
  return position >= 0 ? process.argv[position + 1] : undefined;
}

/** Scripts call this first: without one of `names` (in `--data <root>` or the data root), one line and exit 1. */
export function needData(...names: DatasetName[]): void {
  const root = givenDataRoot();
  for (const name of names) datasetArgument(name, root === undefined ? undefined : join(root, name), '--data <root>');
}

/**
 * Rows of a JSONL (or .jsonl.gz) file of a dataset in the data root, e.g. `readJsonl('fever-lite', 'validation.jsonl')`:
 * `--data <root>` when given, else $FACTKIT_DATA (or ../shared/data beside the checkout); a MissingDatasetError without it.
 */
export function readJsonl<T>(dataset: DatasetName, file: string): T[] {
  const root = givenDataRoot();
  const relativePath = join(root === undefined ? requireDataset(dataset) : join(root, dataset), file);
  const buffer = readFileSync(relativePath);
  const text = relativePath.endsWith('.gz') ? gunzipSync(buffer).toString('utf8') : buffer.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

/** Reads `--name value` / `--flag` arguments. */
export function readArguments(argv: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const argument = argv[i]!;
    if (!argument.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      map.set(argument.slice(2), next);
      i += 1;
    } else map.set(argument.slice(2), 'true');
  }
  return map;
}

export function percent(value: number): string {
  return Number.isFinite(value) ? (100 * value).toFixed(2) : 'n/a';
}
