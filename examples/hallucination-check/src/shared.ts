import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Repository root from this file (examples/hallucination-check/src). */
export const REPO_ROOT = new URL('../../../', import.meta.url);

export function readJsonl<T>(relativePath: string): T[] {
  const url = new URL(relativePath, REPO_ROOT);
  const buffer = readFileSync(url);
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
