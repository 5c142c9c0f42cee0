import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireDataset } from '@factkit/test-utils/data';
import type { SynonymLookup } from '../src/index.js';

/** A file of the golden outputs (golden/ in the data root, see @factkit/test-utils/data). */
export function readGoldenText(relativePath: string): string {
  return readFileSync(join(requireDataset('golden'), relativePath), 'utf8');
}
export function readGoldenJson<T>(relativePath: string): T {
  return JSON.parse(readGoldenText(relativePath)) as T;
}
/** Golden floats may be the strings "NaN", "Infinity", "-Infinity". */
export function goldenNumber(value: number | string): number {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return Number.NaN;
  if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  throw new Error(`not a golden number: ${value}`);
}
/** True when `actual` equals `expected` to `relative` relative tolerance (absolute near 0); NaN equals NaN. */
export function closeTo(actual: number, expected: number, relative = 1e-12): boolean {
  if (Number.isNaN(expected)) return Number.isNaN(actual);
  if (!Number.isFinite(expected)) return actual === expected;
  return Math.abs(actual - expected) <= relative * Math.max(1, Math.abs(expected));
}

let synonymsByStem: Map<string, string[]> | undefined;
/** The exact WordNet 3.0 synonym sets NLTK looked up for the METEOR goldens, keyed by Porter stem (read at first use). */
export const goldenSynonyms: SynonymLookup = (word: string) => {
  if (synonymsByStem === undefined) {
    const table = readGoldenJson<{ tokens: Record<string, { stem: string; synonyms_of_stem: string[] }> }>('meteor/meteor_wordnet_synonyms.json');
    synonymsByStem = new Map(Object.values(table.tokens).map(({ stem, synonyms_of_stem }) => [stem, synonyms_of_stem] as const));
  }
  return synonymsByStem.get(word) ?? [];
};
