// Test data shared by the use-lite tests: the first `count` sentences of SciFact's own sentence split (repo copy).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export function sciFactSentences(count: number): string[] {
  const path = new URL('../../../datasets/scifact/corpus_sentences.jsonl.gz', import.meta.url);
  const out: string[] = [];
  for (const line of gunzipSync(readFileSync(path)).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    for (const sentence of (JSON.parse(line) as { abstract: string[] }).abstract) if (out.length < count) out.push(sentence);
    if (out.length >= count) break;
  }
  return out;
}
