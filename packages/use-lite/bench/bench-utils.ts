// Shared by the use-lite benches: SciFact sentences from the data root, medians, and the machine's load.
import { execFileSync } from 'node:child_process';
import { requireDataset } from '@factkit/test-utils/data';
import { sciFactSentences } from '../test/scifact-sentences.js';

export { maxAbsDifference } from '../test/vectors.js';

/** The first `count` SciFact abstract sentences (scifact/corpus_sentences.jsonl.gz of the data root). */
export function benchSentences(count: number): string[] {
  return sciFactSentences(requireDataset('scifact'), count);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `uptime`'s line: the shared machine's load around a measurement. */
export const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();
