// Test data shared by the use-lite tests: the first `count` sentences of SciFact's own sentence split (from the folder
// `scifact`, the data root's scifact/ given by describeWithData).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export function sciFactSentences(scifact: string, count: number): string[] {
  const path = join(scifact, 'corpus_sentences.jsonl.gz');
  const out: string[] = [];
  for (const line of gunzipSync(readFileSync(path)).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    for (const sentence of (JSON.parse(line) as { abstract: string[] }).abstract) if (out.length < count) out.push(sentence);
    if (out.length >= count) break;
  }
  return out;
}
